/**
 * The hook bench (`npm run bench -- --scope hook`, bench/hook-bench.ts) starts the hook with the environment
 * the installed line leaves it (`/usr/bin/env -u NODE_OPTIONS ...`: src/hooks/start-environment.ts), not
 * the machine's: a `NODE_OPTIONS` or `NODE_EXTRA_CA_CERTS` where the bench runs would otherwise be acted on
 * in every measured start (a module loaded, a certificate file parsed) and draw the hook's notice, which the
 * bench takes for a failure. Runs the bench's build (dist/bench).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFolder } from './helpers/temp-folder.js';

const BENCH = join(import.meta.dirname, '..', 'dist', 'bench', 'hook-bench.js');

describe('the hook bench gives the hook the installed line\'s environment', () => {
  it.skipIf(!existsSync(BENCH))('should not start the hook with the machine\'s NODE_OPTIONS (a module of it never runs)', async () => {
    const dir = tempFolder('bench-hook-env');
    const mark = join(dir, 'mark');
    const module = join(dir, 'preload.cjs');
    writeFileSync(module, `require('node:fs').appendFileSync(${JSON.stringify(mark)}, 'ran\\n');\n`);
    const { hookFigures } = (await import(pathToFileURL(BENCH).href)) as { hookFigures: (rounds: number) => { runs: number }[] };
    const before = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `--require ${module}`;
    try {
      const figures = hookFigures(1);
      expect(figures.map((f) => f.runs)).toEqual([1, 1, 1, 1, 1]);
    } finally {
      if (before === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = before;
    }
    expect(existsSync(mark)).toBe(false);
  }, 60_000);
});
