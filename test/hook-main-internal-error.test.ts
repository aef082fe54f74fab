/**
 * The hook's bootstrap (`dist/hook/hook-main.cjs`, what the agents' settings run) prints an error that
 * escaped the hook command on one stderr line, and the agent shows that line to the user: it may quote the
 * agent's payload, so it is redacted and its control characters written as escapes (shownMessage), and a
 * thrown value that cannot be made a string is said to be one. Before (hostile5), the message's first line
 * was printed raw: a key whole, ESC and U+202E acting on the terminal.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/hook/hook-main.cjs', import.meta.url));
const KEY = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs a copy of the bootstrap beside a `hook.cjs` of `source` on an empty payload. */
function bootWith(source: string): { code: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-hook-main-'));
  dirs.push(dir);
  copyFileSync(MAIN, join(dir, 'hook-main.cjs'));
  writeFileSync(join(dir, 'hook.cjs'), source);
  const r = spawnSync(process.execPath, [join(dir, 'hook-main.cjs'), '--agent', 'claude-code'], { input: '{}', encoding: 'utf8', env: { ...process.env, LOOPWATCH_HOOK_CODE_CACHE: 'off' } });
  return { code: r.status, stderr: r.stderr };
}

describe('the hook bootstrap\'s internal error', () => {
  it('should be redacted and escaped, on one line', () => {
    const r = bootWith(`throw new Error(${JSON.stringify(`bad payload \u001b]0;pwned\u0007 \u009b2J \u202eevil ${KEY}\nsecond line`)});\n`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^loopwatch hook: internal error: bad payload \\x1b\]0;pwned\\x07 .*\[REDACTED\]; the call is allowed without a loop check\n$/);
    expect(r.stderr).not.toContain(KEY.slice(4, 12));
    expect(r.stderr).not.toMatch(CONTROLS);
    expect(r.stderr).not.toContain('second line');
  });

  it('should say so when the thrown value cannot be printed', () => {
    const r = bootWith('throw { toString() { throw new Error("no"); } };\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('loopwatch hook: internal error: a value that cannot be printed; the call is allowed without a loop check\n');
  });
});
