/**
 * The suite's per-call tables (newuser18): one run printed a "runs (min-max)" column anyway, its spread
 * rounded otherwise than the figure (`| 12.8 | | 13-13 |`), which said nothing. The column is now there
 * only from two runs, its bounds written as the figures are. Runs the built suite's cheapest scope.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SUITE = join(fileURLToPath(new URL('..', import.meta.url)), 'dist/bench/index.js');

/** The kernel scope's table lines, from `repeat` runs. */
function kernelRows(repeat: number): string[] {
  const run = spawnSync(process.execPath, [SUITE, '--scope', 'kernel', '--time', '10', '--repeat', String(repeat)], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter((l) => l.startsWith('| '));
}

describe('the runs column of the per-call tables', () => {
  it('should not be printed for one run', () => {
    const rows = kernelRows(1);
    expect(rows[0]).toBe('| size | args | sessions | implementation | ns/call | vs md5 |');
    expect(rows.slice(1).every((r) => r.split('|').length === 8)).toBe(true);
  });

  it('should give two runs\' bounds written as the figures are', () => {
    const rows = kernelRows(2);
    expect(rows[0]).toBe('| size | args | sessions | implementation | ns/call | vs md5 | runs (min-max) |');
    for (const r of rows.slice(1)) {
      const [ns, , spread] = r.split('|').slice(5, 8).map((c) => c.trim());
      const [lo, hi] = (spread ?? '').split('-');
      const decimals = (x: string) => (x.includes('.') ? 1 : 0);
      for (const bound of [lo, hi] as string[]) expect(decimals(bound)).toBe(Number(bound) >= 100 ? 0 : 1);
      expect(decimals(ns as string)).toBe(Number(ns) >= 100 ? 0 : 1);
    }
  });
});
