/**
 * A subagent's calls are a session of their own (`<session>#<agent_id>`). Claude Code 2.1.337 (driven by
 * @anthropic-ai/claude-agent-sdk 0.3.337 against a scripted model, a foreground Agent call whose subagent
 * ran a 20-second Bash, the program's interrupt() while it ran) sent PreToolUse of the subagent's Bash
 * (with `agent_id`), then Interrupt `{source: "user", reason: "stop", via: "client"}` without `agent_id`,
 * then the next prompt's UserPromptSubmit and SessionEnd: no after-event for the Bash, no SubagentStop.
 * The subagent's state kept its call in flight after the session ended (`hook status`: "1 before they
 * ran, 0 after"), until the weekly sweep. Now the parent's Interrupt and SessionEnd end its subagents'
 * states, SubagentStop ends its subagent's, and `hook install` installs both events (async).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionFile } from '../src/hooks/session-file.js';
import { hook, proposeAction } from './helpers/hook-payloads.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const S = '1697ec0d-5b61-420d-92cd-2a8845ad1a86';
const A = 'a5ea9dfc7afc981c5';
/** The fields every payload of the run had, as Claude Code 2.1.337 sent them. */
const base = { session_id: S, transcript_path: `/nonexistent/${S}.jsonl`, cwd: '/nonexistent', prompt_id: 'a568f46e-a822-4aa4-96cb-614cbf870f27' };
const agentCall = { ...base, permission_mode: 'default', effort: { level: 'medium' }, hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: { description: 'wait a bit', prompt: 'run it', subagent_type: 'general-purpose', run_in_background: false }, tool_use_id: 'toolu_main_0' };
const subagentBash = { ...base, permission_mode: 'default', agent_id: A, agent_type: 'general-purpose', effort: { level: 'medium' }, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: "python3 -c 'import time; time.sleep(20)'", description: 'wait' }, tool_use_id: 'toolu_sub_1' };
const interrupt = { ...base, permission_mode: 'default', effort: { level: 'medium' }, hook_event_name: 'Interrupt', source: 'user', reason: 'stop', via: 'client' };
const subagentStop = { ...base, agent_id: A, agent_type: 'general-purpose', hook_event_name: 'SubagentStop', stop_hook_active: false };
const sessionEnd = { ...base, hook_event_name: 'SessionEnd', reason: 'other' };

/** Sends the payloads through the built hook in `dir`, each allowed and silent on stderr; returns the proposals' actions. */
async function send(dir: string, ...payloads: readonly Record<string, unknown>[]): Promise<string[]> {
  const actions: string[] = [];
  for (const p of payloads) {
    const r = await hook(['--agent', 'claude-code', '--state-dir', dir], p);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    if (p.hook_event_name === 'PreToolUse') actions.push(proposeAction('claude-code', r.stdout));
  }
  return actions;
}

const stateOf = (dir: string, session: string): boolean => existsSync(new SessionFile(dir, 'claude-code', session).path);

describe('a subagent whose call an interrupt cut off', () => {
  it("should lose its state at the parent's Interrupt, the parent keeping its own", async () => {
    const dir = tempFolder('hook-interrupt');
    expect(await send(dir, agentCall, subagentBash)).toEqual(['allow', 'allow']);
    expect([stateOf(dir, S), stateOf(dir, `${S}#${A}`)]).toEqual([true, true]);
    await send(dir, interrupt);
    expect([stateOf(dir, S), stateOf(dir, `${S}#${A}`)]).toEqual([true, false]);
  }, 60_000);

  it("should lose its state at the parent's SessionEnd, another session's subagent left alone", async () => {
    const dir = tempFolder('hook-subagent-end');
    const other = { ...subagentBash, session_id: 'other-session' };
    await send(dir, agentCall, subagentBash, other);
    await send(dir, sessionEnd);
    expect([stateOf(dir, S), stateOf(dir, `${S}#${A}`), stateOf(dir, `other-session#${A}`)]).toEqual([false, false, true]);
  }, 60_000);

  it('should lose its state at its own SubagentStop, the parent keeping its own', async () => {
    const dir = tempFolder('hook-subagent-stop');
    await send(dir, agentCall, subagentBash);
    await send(dir, subagentStop);
    expect([stateOf(dir, S), stateOf(dir, `${S}#${A}`)]).toEqual([true, false]);
  }, 60_000);

  it('should have SubagentStop and Interrupt installed, in the background', async () => {
    const dir = tempFolder('hook-subagent-install');
    const r = await hookVerbInProcess(['install', '--agent', 'claude-code', '--project'], { ...process.env, HOME: dir }, dir);
    expect(r.code).toBe(0);
    const hooks = (JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { async?: boolean }[] }[]> }).hooks;
    expect([hooks.SubagentStop?.[0]?.hooks[0]?.async, hooks.Interrupt?.[0]?.hooks[0]?.async]).toEqual([true, true]);
  }, 60_000);
});
