/**
 * Each agent's documented hook shapes (test/fixtures/hooks/<agent>/): its payloads go through the hook
 * command (of each session the first call's two hooks as processes of the hook's entry,
 * dist/hook/hook-main.cjs, as the agents run them; the others through the same command in this process, on
 * the same state files: helpers/hook-in-process.ts) and every kind of decision comes back in the agent's own
 * reply shape (replies.json, with `<message>` for loopwatch's message). The agent is detected from the
 * payload where --agent is not given.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { AGENTS, fixture, hook } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('hook-fixtures');
const askConfig = join(dir, 'ask.json');
writeFileSync(askConfig, JSON.stringify({ policy: { ladder: ['ask', 'break'] } }));

/** A reply with loopwatch's messages replaced by `<message>` ('' stays ''). */
function shape(stdout: string | null): unknown {
  if (stdout === null || stdout === '') return stdout;
  expect(stdout.endsWith('\n')).toBe(true);
  return JSON.parse(stdout, (_k, v: unknown) => (typeof v === 'string' ? v.replace(/\[loopwatch\] You appear to be in a loop[^]*$/, '<message>') : v));
}

interface Run {
  propose: string[];
  record: (string | null)[];
}

/**
 * Proposes `calls` calls of one session in turn (a failure recorded after each call allowed to run):
 * `command(i)` is the i-th call's command.
 */
async function run(agent: AgentName, session: string, calls: number, command: (i: number) => string, args: readonly string[]): Promise<Run> {
  const out: Run = { propose: [], record: [] };
  for (let i = 0; i < calls; i++) {
    const id = { tool_use_id: `toolu_${session}_${i}` };
    const input = (p: Record<string, unknown>): Record<string, unknown> => ({ ...(p.tool_input as object), command: command(i) });
    const before = fixture(agent, 'before.json');
    const hookCall = i === 0 ? hook : hookInProcess;
    const b = await hookCall(['--state-dir', dir, ...args], { ...before, session_id: session, tool_input: input(before), ...(agent === 'gemini' ? {} : id) });
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    out.propose.push(b.stdout);
    if (b.stdout.includes('"deny"')) {
      out.record.push(null);
      continue;
    }
    const after = fixture(agent, 'after-failure.json');
    const a = await hookCall(['--state-dir', dir, ...args], { ...after, session_id: session, tool_input: input(after), ...(agent === 'gemini' ? {} : id) });
    expect(a.stderr).toBe('');
    out.record.push(a.stdout);
  }
  return out;
}

const same = (): string => 'python setup.py build_ext --inplace';
const varying = (i: number): string => `pip install foo==1.${i}`;

describe.each(AGENTS)('the %s hook shapes', (agent) => {
  const replies = fixture(agent, 'replies.json') as { propose: Record<string, unknown>; record: Record<string, unknown> };
  let repeated: Run;
  let changing: Run;
  let asked: Run;

  beforeAll(async () => {
    [repeated, changing, asked] = await Promise.all([
      run(agent, `${agent}-same`, 5, same, []), // no --agent: detected from the payload
      run(agent, `${agent}-varying`, 3, varying, ['--agent', agent]),
      run(agent, `${agent}-ask`, 3, same, ['--agent', agent, '--config', askConfig]),
    ]);
  }, 240_000);

  it.skipIf(agent === 'codex')('should tell the person, not the model, that loopwatch stopped the run and how to go on', () => {
    // (PreToolUse cannot stop Codex: its systemMessage tells the person to stop the run, replies.json)
    const stop = JSON.parse(repeated.propose[4] as string) as { stopReason?: string; reason?: string; hookSpecificOutput?: { permissionDecisionReason?: string } };
    expect(stop.stopReason).toMatch(/^loopwatch stopped this run: \[loopwatch\] You appear to be in a loop/);
    expect(stop.stopReason).toContain('A new request from you gives the agent a fresh start (a bare "continue" or "yes" does not)');
    expect(stop.stopReason).toContain('.loopwatch.json');
    // the model's reason is the verdict's message alone
    expect(stop.hookSpecificOutput?.permissionDecisionReason ?? stop.reason).toMatch(/^\[loopwatch\] You appear to be in a loop(?![^]*loopwatch stopped this run)/);
  });

  it('should allow, warn, deny, then stop the same failing call, each in the agent\'s reply shape', () => {
    expect(repeated.propose.map(shape)).toEqual([replies.propose.allow, replies.propose.allow, replies.propose.warn, replies.propose.deny, replies.propose.stop]);
    expect(repeated.record.slice(0, 2).map(shape)).toEqual([replies.record.allow, replies.record.allow]);
    // the warning before the call reached the model (Claude Code, Codex) or, on Gemini CLI, reaches it after the call
    expect(shape(repeated.record[2] as string)).toEqual(agent === 'gemini' ? replies.record.warn : replies.record.allow);
    expect(repeated.record.slice(3)).toEqual([null, null]);
  });

  it('should add context to the result when the outcome shows a loop the proposal did not', () => {
    expect(shape(changing.record[2] as string)).toEqual(replies.record.warn);
  });

  it('should ask where the policy says ask', () => {
    expect(shape(asked.propose[2] as string)).toEqual(replies.propose.ask);
  });

  it('should reply nothing to a call that succeeded without a loop', async () => {
    const p = { ...fixture(agent, 'after-success.json'), session_id: `${agent}-ok` };
    const r = await hook(['--state-dir', dir], p);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.runIf(agent !== 'codex')('should forget the session when it ends', async () => {
    const session = `${agent}-same`;
    const file = new SessionFile(dir, agent, session);
    expect(existsSync(file.path)).toBe(true);
    const r = await hookInProcess(['--state-dir', dir], { ...fixture(agent, 'session-end.json'), session_id: session });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(file.path)).toBe(false);
  });
});
