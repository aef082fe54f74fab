/**
 * Temporary folders for tests, each removed when its test file ends: `tempFolder('cli')` makes
 * `<tmp>/loopwatch-cli-XXXXXX` and registers it; test/setup/temp-cleanup.ts (a setup file, so it runs for
 * every test file, also in a worker shared with other files where this module is loaded once) removes every
 * folder registered in an afterAll of each file, after the file's own afterAll hooks (vitest runs them
 * last-registered first, and the setup file's are registered first), so a browser or a server using one
 * has been stopped. test/setup/temp-folders.ts fails the run, naming the prefix, for any `loopwatch-*`
 * folder a test leaves behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A new folder `<tmp>/loopwatch-<prefix>-XXXXXX`, removed when the test file ends. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `loopwatch-${prefix}-`));
  made.add(dir);
  return dir;
}

/** Removes every folder `tempFolder` made since the last call (test/setup/temp-cleanup.ts, after each file). */
export function removeTempFolders(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
