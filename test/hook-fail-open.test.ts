/**
 * Inside someone else's agent, `loopwatch hook` does no harm: whatever goes wrong (a state file that is
 * not the session's, an unreadable or huge payload, an unusable state directory, a misconfigured command)
 * the call is allowed and one line on stderr says why, secrets redacted; the session starts again where
 * its state could not be read. With --fail-closed such a call is denied instead.
 *
 * The hook call that meets each failure, the payload past the size read from standard input and the exit
 * codes are hook processes (the entry, dist/hook/hook-main.cjs); the calls around them run the same command
 * in this process on the same state files (helpers/hook-in-process.ts), ~9 processes a run of ~47 before.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { MAX_PAYLOAD_BYTES } from '../src/hooks/hook-payload.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { UNCHECKED_REPLY, afterPayload, beforePayload, fixture, hook } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL: ScriptedCall = { tool: 'Bash', args: { command: 'ls src' }, result: 'cli\nindex.ts' };

function newDir(): string {
  return tempFolder('hook-failopen');
}

/** One call proposed and recorded in `session` (Claude Code payloads), the hooks in this process. */
async function oneCall(dir: string, session: string, id: string, extra: readonly string[] = []): Promise<string> {
  const b = await hookInProcess(['--state-dir', dir, ...extra], beforePayload('claude-code', session, CALL, id));
  const a = await hookInProcess(['--state-dir', dir, ...extra], afterPayload('claude-code', session, CALL, id));
  expect([b.code, a.code]).toEqual([0, 0]);
  return b.stderr + a.stderr;
}

function checksOf(dir: string, session: string): number {
  const d = new LoopDetector({}, session);
  d.restore(new SessionFile(dir, 'claude-code', session).read() as Uint8Array);
  const n = d.stats().checks;
  d.dispose();
  return n;
}

/** The single stderr line, checked to be one line. */
function oneLine(stderr: string): string {
  expect(stderr.split('\n')).toHaveLength(2);
  expect(stderr.endsWith('\n')).toBe(true);
  return stderr;
}

describe('a state file that is not the session\'s', () => {
  it.each([
    ['truncated', (_dir: string, f: SessionFile) => writeFileSync(f.path, readFileSync(f.path).subarray(0, -100)), /could not be read \(loopwatch: .*snapshot.*\)/],
    ['corrupt', (_dir: string, f: SessionFile) => writeFileSync(f.path, Buffer.from('LWHK\u0001garbage that is not a snapshot at all')), /could not be read \(the state file belongs to another session\)/],
    ['foreign (not a loopwatch file)', (_dir: string, f: SessionFile) => writeFileSync(f.path, '{"some": "other tool"}'), /could not be read \(not a loopwatch hook state file\)/],
    ['another session\'s, copied', (dir: string, f: SessionFile) => copyFileSync(new SessionFile(dir, 'claude-code', 'other').path, f.path), /could not be read \(the state file belongs to another session\)/],
  ])('should allow the call, say so in one line, set the file aside and start the session again: %s', async (_name, spoil, why) => {
    const dir = newDir();
    expect(await oneCall(dir, 'other', 'o1')).toBe('');
    expect(await oneCall(dir, 's', 'c1')).toBe('');
    const f = new SessionFile(dir, 'claude-code', 's');
    spoil(dir, f);
    const r = await hook(['--state-dir', dir], beforePayload('claude-code', 's', CALL, 'c2'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toMatch(why);
    expect(r.stderr).toMatch(/it was set aside and the session starts again/);
    expect(existsSync(f.path.replace(/\.lwhook$/, '.bad'))).toBe(true);
    expect(await hookInProcess(['--state-dir', dir], afterPayload('claude-code', 's', CALL, 'c2'))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(checksOf(dir, 's')).toBe(1);
  }, 60_000);

  it('should start again when the detection options changed since the state was written', async () => {
    const dir = newDir();
    expect(await oneCall(dir, 's', 'c1')).toBe('');
    const stderr = await oneCall(dir, 's', 'c2', ['--preset', 'conservative']);
    expect(oneLine(stderr)).toMatch(/could not be read \(.*options.*\); it was set aside and the session starts again/);
  }, 60_000);
});

describe('a payload loopwatch cannot read', () => {
  it.each([
    ['not JSON', 'this is not json', /the hook payload could not be read: it is not JSON/],
    ['empty', '', /standard input was empty/],
    ['an array', '[1, 2]', /it must be a JSON object, received an array of length 2/],
    ['without an event name', JSON.stringify({ session_id: 's', tool_name: 'Bash' }), /hook_event_name must be a non-empty string, received undefined/],
    ['without a session', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }), /session_id must be a string of 1 to 512 characters, received undefined/],
  ])('should allow the call and say why in one line: %s', async (_name, payload, why) => {
    const r = await hookInProcess(['--state-dir', newDir()], payload);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(UNCHECKED_REPLY);
    expect(oneLine(r.stderr)).toMatch(why);
    expect(r.stderr).toMatch(/the call is allowed without a loop check\n$/);
  });

  it('should redact secrets from what it prints about a payload', async () => {
    const secret = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const r = await hookInProcess(['--state-dir', newDir()], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: `${secret}${'x'.repeat(2000)}` }));
    expect(r.code).toBe(0);
    expect(oneLine(r.stderr)).toMatch(/tool_name must be a string of 1 to 1024 characters, received "/);
    expect(r.stderr).not.toContain('ABCDEFGHIJKLMNOP');
  });

  it(`should allow the call without parsing a payload larger than ${MAX_PAYLOAD_BYTES} bytes`, async () => {
    const p = beforePayload('claude-code', 's', { tool: 'Write', args: { file_path: '/a', content: 'x'.repeat(MAX_PAYLOAD_BYTES) } }, 'c1');
    const r = await hook(['--state-dir', newDir()], p);
    expect(r.code).toBe(0);
    expect(oneLine(r.stderr)).toMatch(/the hook payload is larger than 8 MB; the call is allowed/);
  });

  it('should say nothing about events that are not about tool calls', async () => {
    for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart', 'BeforeModel']) {
      expect(await hookInProcess(['--state-dir', newDir()], { session_id: 's', hook_event_name: event, prompt: 'hi' })).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('should name both agents when --agent does not match the payload', async () => {
    const r = await hookInProcess(['--agent', 'codex', '--state-dir', newDir()], fixture('gemini', 'before.json'));
    expect(r.code).toBe(0);
    expect(oneLine(r.stderr)).toMatch(/--agent codex, but hook_event_name "BeforeTool" is a Gemini CLI event \(Codex CLI sends PreToolUse, PostToolUse\)/);
  });
});

describe('a state directory that cannot be used', () => {
  it('should allow the call, or deny it with --fail-closed (and still allow recording a call that ran)', async () => {
    const file = join(newDir(), 'not-a-directory');
    writeFileSync(file, 'x');
    const open = await hook(['--state-dir', file], beforePayload('claude-code', 's', CALL, 'c1'));
    expect(open.code).toBe(0);
    expect(open.stdout).toMatch(UNCHECKED_REPLY);
    expect(oneLine(open.stderr)).toMatch(/^loopwatch hook: Claude Code: the session's state cannot be kept in .*not-a-directory \(cannot .*\); .*the call is allowed without a loop check\n$/);
    const closed = await hookInProcess(['--state-dir', file, '--fail-closed'], beforePayload('claude-code', 's', CALL, 'c1'));
    expect(closed.code).toBe(0);
    expect(JSON.parse(closed.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^\[loopwatch\] The loop check failed \(.*\), and loopwatch is set to fail closed: this call was not run\.$/) },
    });
    expect(oneLine(closed.stderr)).toMatch(/the call is denied \(--fail-closed\)\n$/);
    const after = await hookInProcess(['--state-dir', file, '--fail-closed'], afterPayload('claude-code', 's', CALL, 'c1'));
    expect(after.stdout).toMatch(UNCHECKED_REPLY); // a state folder that is a file keeps no marker: told on each call
    expect(oneLine(after.stderr)).toMatch(/the call is allowed without a loop check/);
  });
});

describe('--fail-closed and a payload that cannot be read', () => {
  it('should block with exit code 2 and the reason on stderr', async () => {
    const r = await hook(['--state-dir', newDir(), '--fail-closed'], 'not json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toMatch(/^loopwatch hook: \[loopwatch\] The loop check failed \(the hook payload could not be read: it is not JSON .*\), and loopwatch is set to fail closed: this call was not run\.\n$/);
  });
});

describe('a hook command with a bad flag', () => {
  it('should exit 1, which agents treat as a failed hook (not 2, a block), unless set to fail closed', async () => {
    const r = await hook(['--agnet', 'codex'], beforePayload('claude-code', 's', CALL, 'c1'));
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/unknown flag --agnet \(did you mean --agent\?\); the call is allowed without a loop check/);
    const bad = await hookInProcess(['--agent', 'cursor'], beforePayload('claude-code', 's', CALL, 'c1'));
    expect(bad.code).toBe(1);
    expect(oneLine(bad.stderr)).toMatch(/--agent must be one of claude-code, codex, gemini, received "cursor"/);
    expect((await hook(['--agnet', 'codex', '--fail-closed'], '{}')).code).toBe(2);
  });
});
