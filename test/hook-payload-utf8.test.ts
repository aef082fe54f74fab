/**
 * A hook payload is read only as UTF-8, by every way in: `loopwatch hook` (the CLI), the hook's own entry
 * (dist/hook/hook-main.cjs, what `hook install` writes) and serve's hook routes, each the real process.
 * Before, the three decoded leniently: session ids differing only in invalid bytes (`a<FF>`, `a<FE>`, ...)
 * all read as `a\ufffd`, one state file (or engine session), so five sessions failing `npm test` once each
 * were one session failing it five times, and the fifth was stopped. A lone surrogate in a session id
 * (JSON's `"\ud800"`) is U+FFFD in UTF-8 too, so `loopwatch hook` merged those (serve's routes refused them).
 * Now such a payload is not read: the call is allowed, one line on stderr (the hook) or the
 * `Loopwatch-Unchecked` header (serve) says why, and no state is written. The bytes are decoded by the hook
 * command, not by the entry's reading of stdin: of each case the first id's two calls are processes of each
 * entry (their stdin takes the bytes as they are), the other ids' calls `hookInProcess` with the same bytes on
 * the same state folder.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers/cli.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { UNCHECKED_REPLY } from './helpers/hook-payloads.js';
import { startServe, type ServeProcess } from './helpers/serve-process.js';

const HOOK_MAIN = fileURLToPath(new URL('../dist/hook/hook-main.cjs', import.meta.url));

/** A Claude Code payload of `event` for a failing `npm test`, its session id `a` followed by `id` (raw bytes). */
function payload(id: Buffer, event: 'PreToolUse' | 'PostToolUseFailure', useId: string): Buffer {
  const failure = event === 'PostToolUseFailure' ? ',"error":"Exit code 1\\nFAIL"' : '';
  const tail = `","hook_event_name":"${event}","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_use_id":"${useId}","cwd":"/nonexistent"${failure}}`;
  return Buffer.concat([Buffer.from('{"session_id":"a'), id, Buffer.from(tail)]);
}

/** Five session ids, one invalid byte each (they all read as `a\ufffd` leniently). */
const INVALID = [0xff, 0xfe, 0xfd, 0xc0, 0x80].map((b) => Buffer.from([b]));
/** Five session ids with a lone surrogate each, and the U+FFFD it reads as in UTF-8, as JSON escapes. */
const LONE = ['\\ud800', '\\udfff', '\\udbff', '\\udc00', '\\ud83d'].map((s) => Buffer.from(s));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * One hook call with `input` on stdin: the first id's (`first`) a process of `entry` (the CLI's `hook` or
 * hook-main.cjs), the others' the hook command in this process.
 */
async function runHook(entry: 'cli' | 'main', stateDir: string, input: Buffer, first: boolean): Promise<Run> {
  const args = ['--agent', 'claude-code', '--state-dir', stateDir];
  if (!first) return hookInProcess(args, input);
  const argv = entry === 'cli' ? [CLI, 'hook'] : [HOOK_MAIN];
  const r = spawnSync(process.execPath, [...argv, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.each(['cli', 'main'] as const)('loopwatch hook (%s) reads its stdin as UTF-8 only', (entry) => {
  it('should allow a call whose payload is not UTF-8, say so once, and keep no state for it', async () => {
    const dir = tempDir();
    for (const [i, id] of INVALID.entries()) {
      for (const event of ['PreToolUse', 'PostToolUseFailure'] as const) {
        const r = await runHook(entry, dir, payload(id, event, `toolu_${i}`), i === 0);
        expect(r).toEqual({ code: 0, stdout: expect.stringMatching(UNCHECKED_REPLY), stderr: expect.stringMatching(/^loopwatch hook: the hook payload could not be read: it is not UTF-8 \(byte 16 is not part of a UTF-8 character; an agent sends JSON as UTF-8\); the call is allowed without a loop check\n$/) });
      }
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);

  it('should not take session ids with a lone surrogate for one session', async () => {
    const dir = tempDir();
    for (const [i, id] of LONE.entries()) {
      for (const event of ['PreToolUse', 'PostToolUseFailure'] as const) {
        const r = await runHook(entry, dir, payload(id, event, `toolu_${i}`), i === 0);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(UNCHECKED_REPLY);
        expect(r.stderr).toContain("session_id must be well-formed Unicode (a lone surrogate such as \\ud800 is not a character); the call is allowed without a loop check");
        expect(r.stderr.split('\n')).toHaveLength(2);
      }
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);

  it("should read well-formed UTF-8 ids as one session each (a byte order mark passed over, as serve's bodies)", async () => {
    const dir = tempDir();
    const ids = ['\u00e9', '\ud83d\ude00', '\ufffd'].map((s) => Buffer.from(s, 'utf8'));
    for (const [i, id] of ids.entries()) {
      for (const event of ['PreToolUse', 'PostToolUseFailure'] as const) {
        const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), payload(id, event, `toolu_${i}`)]);
        expect(await runHook(entry, dir, input, i === 0)).toEqual({ code: 0, stdout: '', stderr: '' });
      }
    }
    expect(readdirSync(dir).filter((n) => n.endsWith('.lwhook'))).toHaveLength(3);
  }, 120_000);
});

describe("serve's hook routes read a payload as UTF-8 only", () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(['--port', '0', '--no-token', '--state-dir', join(tempDir(), 'state')], CLI);
  });
  afterAll(() => {
    serve.child.kill('SIGKILL');
  });

  async function post(body: Buffer): Promise<{ status: number; body: string; unchecked: string | null }> {
    const res = await fetch(`${serve.url}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.text(), unchecked: res.headers.get('loopwatch-unchecked') };
  }

  it('should answer a payload that is not UTF-8 unchecked (200, empty), never as one session of many', async () => {
    for (const [i, id] of INVALID.entries()) {
      for (const event of ['PreToolUse', 'PostToolUseFailure'] as const) {
        const a = await post(payload(id, event, `toolu_${i}`));
        expect(a).toEqual({ status: 200, body: '', unchecked: "the hook payload could not be read as Claude Code's: it is not UTF-8 (byte 16 is not part of a UTF-8 character; an agent sends JSON as UTF-8)" });
      }
    }
  });

  it('should check a well-formed payload as before', async () => {
    const a = await post(payload(Buffer.from('\u00e9'), 'PreToolUse', 'toolu_x'));
    expect(a).toEqual({ status: 200, body: '', unchecked: null });
  });
});
