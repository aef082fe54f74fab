/**
 * scripts/test-durations.mjs with a log: the seconds of each test file read from vitest's default reporter
 * as `.ci/run` prints it (colours and all), so test/setup/durations.json can be rebuilt from a fresh
 * clone's CI run without running the suite again. Files of 3 s or less are left out, the longest first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from './helpers/temp-folder.js';

const SCRIPT = new URL('../scripts/test-durations.mjs', import.meta.url).pathname;

/** `node scripts/test-durations.mjs LOG OUT` on `log`; its exit code, stderr and what it wrote. */
function fromLog(log: string): { code: number | null; stderr: string; written: string | null } {
  const dir = tempFolder('durations');
  const logFile = join(dir, 'ci.log');
  const out = join(dir, 'durations.json');
  writeFileSync(logFile, log);
  const r = spawnSync(process.execPath, [SCRIPT, logFile, out], { encoding: 'utf8' });
  let written: string | null = null;
  try {
    written = readFileSync(out, 'utf8');
  } catch {
    // not written
  }
  return { code: r.status, stderr: r.stderr, written };
}

describe('test durations from a CI log', () => {
  it('should read each file line of vitest\'s reporter, coloured or not, and keep the files over 3 s, longest first', () => {
    const log = [
      'npm warn EBADENGINE Unsupported engine {',
      ' \x1b[32m✓\x1b[39m \x1b[30m\x1b[42m shared \x1b[49m\x1b[39m test/b-slow.test.ts \x1b[2m(\x1b[22m\x1b[2m7 tests\x1b[22m\x1b[2m)\x1b[22m\x1b[33m 48681\x1b[2mms\x1b[22m\x1b[39m',
      '     ✓ should do one thing  12992ms',
      ' ✓  isolated  test/faults/a-kills.test.ts (4 tests) 24787ms',
      ' ✓  shared  test/c-skipped.test.ts (11 tests | 1 skipped) 32111ms',
      ' ❯  shared  test/d-failed.test.ts (3 tests | 1 failed) 5600ms',
      ' ✓  shared  test/e-quick.test.ts (2 tests) 3400ms',
      ' ✓  shared  test/f-tiny.test.ts (1 test) 12ms',
    ].join('\n');
    const r = fromLog(log);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.written).not.toBeNull();
    const written = JSON.parse(r.written as string) as Record<string, number>;
    expect(Object.entries(written)).toEqual([
      ['test/b-slow.test.ts', 49],
      ['test/c-skipped.test.ts', 32],
      ['test/faults/a-kills.test.ts', 25],
      ['test/d-failed.test.ts', 6],
    ]);
  });

  it('should write nothing and say why when the log has no file lines', () => {
    const r = fromLog('npm ERR! something else\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no vitest file lines');
    expect(r.written).toBeNull();
  });
});
