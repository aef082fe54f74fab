/**
 * Temporary folders for tests, each removed when its test file ends: `tempFolder('cli')` makes
 * `<tmp>/loopwatch-cli-XXXXXX` and registers it, and an afterAll of the importing test file removes every
 * folder registered (after the file's own afterAll hooks, which vitest runs last-registered first, so a
 * browser or a server using one has been stopped). test/setup/temp-folders.ts fails the run, naming the
 * prefix, for any `loopwatch-*` folder a test leaves behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made = new Set<string>();

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
});

/** A new folder `<tmp>/loopwatch-<prefix>-XXXXXX`, removed when the test file ends. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `loopwatch-${prefix}-`));
  made.add(dir);
  return dir;
}
