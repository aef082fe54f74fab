/**
 * `loopwatch hook status`: what the hooks did, per session of the state folder (whose files are binary):
 * the calls seen before and after they ran and how many were not checked, the decisions by action, the
 * last ones and why, redacted, with control characters escaped; `--session` for one session and its
 * subagents; `--json` for all of it. A file that is not private to the user is reported, not read.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HookStatus } from '../src/hooks/hook-status.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { statusText } from '../src/cli/hook-status-command.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { afterPayload, beforePayload, hook } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

const SECRET = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
const FAILING: ScriptedCall = { tool: 'Bash', args: { command: `GITHUB_TOKEN=${SECRET} npm test` }, error: 'FAIL test/a.test.ts' };
const READ: ScriptedCall = { tool: 'Read', args: { file_path: '/repo/a.ts' }, result: 'export {}' };

const dirs: string[] = [];
// a state home of this file's own: the accepted allowlists other test files make in the run's are listed by status
const runStateHome = process.env.XDG_STATE_HOME;
beforeAll(() => {
  process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), 'loopwatch-hook-status-home-'));
});
afterAll(() => {
  rmSync(process.env.XDG_STATE_HOME!, { recursive: true, force: true });
  process.env.XDG_STATE_HOME = runStateHome;
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopwatch-hook-status-'));
  dirs.push(d);
  return d;
}

/** Runs `n` calls of `call` in `session`, each proposed then, when allowed to run, recorded (the first by hook processes). */
async function calls(dir: string, session: string, call: ScriptedCall, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    // the first call through hook processes, the rest through the same command in this process, on the same state files
    const run = i === 0 ? hook : hookInProcess;
    const b = await run(['--agent', 'claude-code', '--state-dir', dir], beforePayload('claude-code', session, call, `${session}-${i}`));
    if (/"deny"|"continue":false/.test(b.stdout)) continue;
    await run(['--agent', 'claude-code', '--state-dir', dir], afterPayload('claude-code', session, call, `${session}-${i}`));
  }
}

async function status(dir: string, ...args: string[]): Promise<HookStatus> {
  const r = await loopwatchInProcess(['hook', 'status', '--state-dir', dir, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as HookStatus;
}

describe('loopwatch hook status', () => {
  it('should show each session\'s calls, decisions and their reasons, redacted', async () => {
    const dir = newDir();
    await calls(dir, 'loop', FAILING, 5);
    await calls(dir, 'fine', READ, 2);
    const s = await status(dir);
    expect(s.problem).toBeNull();
    expect(s.sessions.map((x) => x.session).sort()).toEqual(['fine', 'loop']);
    const loop = s.sessions.find((x) => x.session === 'loop')!;
    expect(loop.agent).toBe('claude-code');
    expect(loop.calls).toEqual({ proposals: 5, checked: 5, records: loop.calls!.records, recorded: loop.calls!.records });
    expect([loop.unchecked, loop.dropped]).toEqual([0, 0]);
    expect(loop.notes!.proposals).toBe(5);
    expect(loop.notes!.actions.warn + loop.notes!.actions.deny + loop.notes!.actions.stop).toBeGreaterThan(0);
    const flagged = loop.notes!.recent.filter((n) => n.action !== 'allow');
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every((n) => n.why !== undefined && n.kind !== undefined)).toBe(true);
    expect(loop.stateAgeMs).toBeGreaterThanOrEqual(0);

    const text = await loopwatchInProcess(['hook', 'status', '--state-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^loopwatch hook status: .*\n2 sessions\n/);
    expect(text.stdout).toMatch(/Claude Code session "loop", state written \d+ s ago\n {2}calls: {5}5 before they ran \(0 not checked\), \d+ after \(0 not recorded\)\n {2}decisions: \d+ allow, .*since \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\n {2}last: {6}\d\d:\d\d:\d\dZ allow x\d+ \(the last (before|after) Bash\)\n/);
    expect(text.stdout).toMatch(/before Bash: (warn|deny|stop) \[exact_repeat\] \[loopwatch\] /);
    expect(text.stdout + JSON.stringify(s)).not.toContain(SECRET.slice(4));
  }, 120_000);

  it('should show one session and its subagents with --session, and say when there is none', async () => {
    const dir = newDir();
    await calls(dir, 'a', READ, 1);
    await calls(dir, 'b', READ, 1);
    await hook(['--agent', 'claude-code', '--state-dir', dir], { ...beforePayload('claude-code', 'a', READ, 'sub-1'), agent_id: 'helper' });
    expect((await status(dir, '--session', 'a')).sessions.map((x) => x.session).sort()).toEqual(['a', 'a#helper']);
    expect((await status(dir, '--session', 'c')).sessions).toEqual([]);
    expect((await loopwatchInProcess(['hook', 'status', '--state-dir', dir, '--session', 'c'])).stdout).toMatch(/\nno sessions "c" \(its state ends with its SessionEnd, or after 7 days untouched\)\n$/);
  }, 120_000);

  it('should escape control characters and redact secrets of ids and tool names', async () => {
    const dir = newDir();
    // bidirectional overrides too (U+202E reverses what follows): before, status printed them raw
    const id = `s\u001b]0;pwned\u0007\u009b31m \u202eevil\u2066 ${SECRET}`;
    await calls(dir, id, { ...READ, tool: `Read\u001b[2J ${SECRET}` }, 1);
    for (const out of [(await loopwatchInProcess(['hook', 'status', '--state-dir', dir])).stdout, (await loopwatchInProcess(['hook', 'status', '--state-dir', dir, '--json'])).stdout]) {
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      expect(out).not.toContain(SECRET.slice(4));
      expect(out).toMatch(/\\(x1b|u001b)/); // text: terminal-text.ts's escapes; JSON: \uXXXX, read back as the same characters
      expect(out).toContain('\\u202e');
    }
    // hook reset lists the same id (before: redacted, but ESC, C1 and U+202E printed raw)
    const reset = (await loopwatchInProcess(['hook', 'reset', '--state-dir', dir])).stdout;
    expect(reset).toContain('pwned');
    expect(reset).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(reset).not.toContain(SECRET.slice(4));
    // a usage error quoting a flag's value, as main.ts prints them (before: raw)
    const bad = await loopwatchInProcess(['hook', 'reset', '--agent', `x\u001b]0;pwned\u0007\u202e ${SECRET}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^loopwatch hook reset: /);
    expect(bad.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(bad.stderr).not.toContain(SECRET.slice(4));
  }, 60_000);

  it('should cut a long text before redacting it, never inside a secret', async () => {
    // a long token redacted to 10 characters brought a key cut at 4 x 400 characters into the 400 shown:
    // before, status cut at 1,600 first and printed the key's first 20 characters
    const b64 = Buffer.from(JSON.stringify({ sub: 'x'.repeat(1000) })).toString('base64url');
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${b64}.${'s'.repeat(43)}`;
    const problem = `${jwt} ${'p'.repeat(1600 - jwt.length - 2 - 20)} ${SECRET} and more`;
    expect(problem.indexOf(SECRET)).toBe(1580);
    const out = statusText({ stateDir: '/state', problem, sessions: [], setAside: 0 }, undefined);
    expect(out).not.toContain('ghp_');
    expect(out).not.toContain(SECRET.slice(4, 12));
    expect(out).not.toContain('eyJ');
  });

  it.skipIf(process.platform === 'win32')('should report, not read, a state file others can write, and a missing folder', async () => {
    const dir = newDir();
    await calls(dir, 's', READ, 1);
    chmodSync(new SessionFile(dir, 'claude-code', 's').path, 0o666);
    const [s] = (await status(dir)).sessions;
    expect(s!.session).toBeNull();
    expect(s!.notes).toBeNull();
    expect(s!.problem).toBe('its state file is not read: others than its owner can write to it (mode 0666)');
    expect(s!.calls).toEqual({ proposals: 1, checked: 1, records: 1, recorded: 1 });
    expect((await status(join(dir, 'none'))).problem).toBe('there is no state folder (no hook has run with it)');
  }, 60_000);

  it('should list a session whose state an older loopwatch wrote (format 1), without notes', async () => {
    const dir = newDir();
    const f = new SessionFile(dir, 'codex', 'old');
    const id = Buffer.from('codex\nold');
    const head = Buffer.alloc(9);
    head.write('LWHK', 0, 'latin1');
    head[4] = 1;
    head.writeUInt32LE(id.length, 5);
    writeFileSync(f.path, Buffer.concat([head, id, Buffer.from('snapshot')]), { mode: 0o600 });
    const [s] = (await status(dir)).sessions;
    expect([s!.agent, s!.session, s!.notes, s!.calls, s!.problem]).toEqual(['codex', 'old', null, null, null]);
    expect((await loopwatchInProcess(['hook', 'status', '--state-dir', dir])).stdout).toMatch(/\nCodex CLI session "old", state written \d+ s ago\n$/);
  });

  it('should refuse an unknown flag with exit code 2', async () => {
    const r = await loopwatchInProcess(['hook', 'status', '--sesion', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopwatch hook status: unknown flag --sesion \(did you mean --session\?\)/);
  });
});
