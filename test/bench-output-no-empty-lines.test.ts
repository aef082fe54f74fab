/**
 * `npm run bench` (newuser19): a text run ended in three empty lines, one for each table of a scope it did
 * not run (serve, nats, hook), printed empty. A scope not run now prints nothing. Runs the cheapest scope.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SUITE = join(fileURLToPath(new URL('..', import.meta.url)), 'dist/bench/index.js');

describe('the suite\'s text output', () => {
  it('should end on its last table row, without empty lines for scopes not run', () => {
    const run = spawnSync(process.execPath, [SUITE, '--scope', 'kernel', '--time', '10'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\|\n$/);
    expect(run.stdout).not.toMatch(/\n\n\n/);
  });
});
