/**
 * The hooks' decision log (`--log FILE`, or LOOPWATCH_DECISION_LOG): one JSON line per decision, the hook
 * payload as Claude Code sends it with loopwatch's decision beside it, redacted, which `loopwatch scan`
 * reads as a hook payload log (the session's calls and their outcomes). Calls the hooks could not check
 * are logged too. A log file that is a symbolic link or that others can write is not written (one line
 * on stderr); the decision is the same either way.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { loopwatch } from './helpers/cli.js';
import { afterPayload, beforePayload, hook, loopwatchAsync, proposeAction } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

const SECRET = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd';
const STUCK: ScriptedCall = { tool: 'Bash', args: { command: `OPENAI_API_KEY=${SECRET} npm test` }, error: 'FAIL test/a.test.ts' };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopwatch-decision-log-'));
  dirs.push(d);
  return d;
}

function lines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `n` runs of the stuck call through the hook (`run` runs one hook): each proposed, and recorded when it ran. Returns the proposals' actions. */
async function stuck(agent: AgentName, n: number, run: (payload: unknown) => Promise<{ stdout: string; stderr: string }>): Promise<string[]> {
  const actions: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = await run(beforePayload(agent, 's', STUCK, `call_${i}`));
    expect(b.stderr).toBe('');
    const action = proposeAction(agent, b.stdout);
    actions.push(action);
    if (action === 'deny' || action === 'stop') continue;
    expect((await run(afterPayload(agent, 's', STUCK, `call_${i}`, i))).stderr).toBe('');
  }
  return actions;
}

describe('the decision log', () => {
  it.each(['claude-code', 'codex', 'gemini'] as const)('should hold one redacted line per decision, which scan reads as the session\'s calls (%s)', async (agent) => {
    const dir = newDir();
    const log = join(dir, 'decisions.jsonl');
    // the first hook call (it makes the log file: its mode is asserted) and every third after it through
    // hook processes, the others through the hook command in this process (the same flags and files)
    let n = 0;
    const actions = await stuck(agent, 6, (p) => (n++ % 3 === 0 ? hook : hookInProcess)(['--agent', agent, '--state-dir', dir, '--log', log], p));
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(SECRET.slice(8));
    const logged = lines(log);
    const ran = actions.filter((a) => a !== 'deny' && a !== 'stop').length;
    expect(logged).toHaveLength(actions.length + ran);
    const before = logged.filter((l) => l.hook_event_name === 'PreToolUse');
    expect(before.map((l) => (l.loopwatch as { action: string }).action)).toEqual(actions);
    expect(logged.filter((l) => l.hook_event_name === 'PostToolUseFailure')).toHaveLength(ran);
    for (const l of logged) expect(l).toMatchObject({ agent, session_id: 's', tool_name: 'Bash', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(before.find((l) => (l.loopwatch as { action: string }).action !== 'allow')?.loopwatch).toMatchObject({ kind: expect.any(String), message: expect.stringMatching(/^\[loopwatch\] /) });
    if (process.platform !== 'win32') expect(statSync(log).mode & 0o777).toBe(0o600);
    const scan = loopwatch(['scan', log, '--json']);
    const report = JSON.parse(scan.stdout) as { sessions: { session: string; calls: number; verdicts: number; toolFailures: number }[]; summary: { skipped: number } };
    expect(report.summary.skipped).toBe(0);
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ session: 's', calls: actions.length, toolFailures: ran });
    expect(report.sessions[0]!.verdicts).toBeGreaterThan(0);
  }, 120_000);

  it('should be written where LOOPWATCH_DECISION_LOG says when --log is not given', async () => {
    const dir = newDir();
    const log = join(dir, 'env.jsonl');
    const env = { ...process.env, LOOPWATCH_DECISION_LOG: log };
    // the first hook call a `loopwatch hook` process with the variable in its environment; the others the
    // same command in this process, the variable in the environment its io gives it (not this process's)
    let n = 0;
    await stuck('claude-code', 2, (p) => (n++ === 0 ? loopwatchAsync(['hook', '--state-dir', dir], JSON.stringify(p), env) : hookInProcess(['--state-dir', dir], p, { env })));
    expect(lines(log).map((l) => l.hook_event_name)).toEqual(['PreToolUse', 'PostToolUseFailure', 'PreToolUse', 'PostToolUseFailure']);
  }, 60_000);

  it('should log a call the hooks could not check, saying why', async () => {
    const dir = newDir();
    const log = join(dir, 'decisions.jsonl');
    const file = new SessionFile(dir, 'claude-code', 's');
    writeFileSync(file.lockPath, `${process.pid} ${Date.now()} cafe`); // held by a live process
    const r = await hook(['--state-dir', dir, '--log', log], beforePayload('claude-code', 's', STUCK, 'c1'));
    expect(r.stderr).toMatch(/stayed locked by another hook; the call is allowed without a loop check/);
    expect(lines(log)).toEqual([expect.objectContaining({ hook_event_name: 'PreToolUse', loopwatch: { action: 'allow', unchecked: expect.stringMatching(/stayed locked by another hook/) } })]);
  }, 60_000);

  it.skipIf(process.platform === 'win32')('should make a log others can read 0600 before writing into it, saying so once (hostile13)', async () => {
    // a log made beforehand with the umask's 0644 (`touch`) stayed readable by every local user: each line
    // holds a session's commands and outputs (redacted, but paths, hosts, what the agent did)
    const dir = newDir();
    const log = join(dir, 'decisions.jsonl');
    writeFileSync(log, '');
    chmodSync(log, 0o644);
    const first = await hookInProcess(['--state-dir', dir, '--log', log], beforePayload('claude-code', 's', STUCK, 'c1'));
    expect([first.code, first.stdout]).toEqual([0, '']);
    expect(first.stderr).toMatch(/the decision log .*decisions\.jsonl could be read by others \(mode 0644\): made 0600/);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(lines(log)).toHaveLength(1);
    const second = await hookInProcess(['--state-dir', dir, '--log', log], beforePayload('claude-code', 's', STUCK, 'c2'));
    expect(second.stderr).toBe('');
    expect(lines(log)).toHaveLength(2);
  }, 60_000);

  it.skipIf(process.platform === 'win32').each([
    ['a symbolic link', (path: string, dir: string) => symlinkSync(join(dir, 'elsewhere'), path), /the decision log .* cannot be written \(it is a symbolic link\)/],
    [
      'writable by others',
      (path: string) => {
        writeFileSync(path, '');
        chmodSync(path, 0o666);
      },
      /the decision log .* is not written: others than its owner can write to it \(mode 0666\)/,
    ],
  ])('should not be written when it is %s, and the decision stay the same', async (_name, spoil, why) => {
    const dir = newDir();
    const log = join(dir, 'decisions.jsonl');
    spoil(log, dir);
    const r = await hookInProcess(['--state-dir', dir, '--log', log], beforePayload('claude-code', 's', STUCK, 'c1'));
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(why);
    // nothing written: not through the link (its target not even made), not into the open file
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
    if (_name !== 'a symbolic link') expect(readFileSync(log, 'utf8')).toBe('');
  }, 60_000);
});
