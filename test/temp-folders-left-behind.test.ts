/**
 * The test run's check for temp folders left behind (test/setup/temp-folders.ts): a vitest run whose test
 * leaves a `loopwatch-*` folder fails, naming the folder's prefix, and leaves nothing behind itself; a run
 * whose test removes its folder (test/helpers/temp-folder.ts) passes. Each run is a real vitest process on
 * a config and test files written here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leftoverMessage, leftoverPrefixes } from './setup/temp-folders.js';
import { REPO } from './helpers/packed-package.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Runs vitest on `test` (a test file's text, vitest's globals on) with the run's check; exit code and output. */
function vitestRun(test: string): { code: number | null; output: string; tmp: string } {
  const dir = tempFolder('check-run');
  const tmp = tempFolder('check-tmp');
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], globals: true, globalSetup: [${JSON.stringify(join(REPO, 'test', 'setup', 'temp-folders.ts'))}] } };\n`);
  writeFileSync(join(dir, 'case.test.mjs'), test);
  const r = spawnSync(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir], { cwd: dir, encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, CI: '' }, timeout: 120_000 });
  return { code: r.status, output: r.stdout + r.stderr, tmp };
}

const MAKE = `import { mkdtempSync, rmSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\n`;

describe('the check for temp folders left behind', () => {
  it('should fail a run whose test leaves loopwatch-* folders, naming their prefix, and leave nothing itself', () => {
    const r = vitestRun(`${MAKE}it('leaks', () => { mkdtempSync(join(tmpdir(), 'loopwatch-leaky-')); mkdtempSync(join(tmpdir(), 'loopwatch-leaky-')); mkdtempSync(join(tmpdir(), 'other-tool-')); });\n`);
    expect(r.output).toContain('TEMP FOLDERS LEFT BEHIND by the tests: loopwatch-leaky-* (2)');
    expect(r.output).not.toContain('other-tool');
    expect(r.code).toBe(1);
    expect(readdirSync(r.tmp)).toEqual([]);
  }, 120_000);

  it('should pass a run whose test removes what it made', () => {
    const r = vitestRun(`${MAKE}it('cleans', () => { const d = mkdtempSync(join(tmpdir(), 'loopwatch-tidy-')); rmSync(d, { recursive: true }); });\n`);
    expect(r.output).not.toContain('LEFT BEHIND');
    expect(r.code).toBe(0);
    expect(readdirSync(r.tmp)).toEqual([]);
  }, 120_000);

  it("should group leftovers by the name before mkdtemp's suffix", () => {
    const left = leftoverPrefixes(['loopwatch-cli-a1B2c3', 'loopwatch-cli-Zz9yX8', 'loopwatch-hook-failopen-Q1w2E3', 'loopwatch-odd', 'npm-1234']);
    expect([...left]).toEqual([
      ['loopwatch-cli-', 2],
      ['loopwatch-hook-failopen-', 1],
      ['loopwatch-odd', 1],
    ]);
    expect(leftoverMessage(left)).toContain('loopwatch-cli-* (2), loopwatch-hook-failopen-* (1), loopwatch-odd* (1)');
    expect(leftoverMessage(new Map())).toBe('');
  });

});
