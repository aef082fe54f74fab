/**
 * Markers of notices told once, in the hooks' state folder: `.noted/<32 hex>`, a hash of what was told (a
 * project allowlist's notice about one version of its file, project-allowlist.ts; a session's calls allowed
 * unchecked, unchecked-notice.ts). The sweep removes them after its maximum age (state-sweep.ts).
 *
 * Where the folder cannot be written, nothing is remembered: the notice is told each time (the person is
 * told too often rather than never).
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the markers, in the state folder. */
export const NOTED_FOLDER = '.noted';

/** The marker's path for `what` (any text: only its hash is written). */
function markerPath(stateDir: string, what: string): string {
  return join(stateDir, NOTED_FOLDER, createHash('sha256').update(what).digest('hex').slice(0, 32));
}

/** Whether `what` has been told already; remembers it if not (false, and nothing remembered, where it cannot be). Never throws. */
export function toldBefore(stateDir: string, what: string): boolean {
  try {
    mkdirSync(join(stateDir, NOTED_FOLDER), { recursive: true, mode: 0o700 });
    closeSync(openSync(markerPath(stateDir, what), 'wx', 0o600));
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EEXIST';
  }
}

/** Forgets that `what` was told (it is told again next time); nothing when it was not. Never throws. */
export function forgetTold(stateDir: string, what: string): void {
  try {
    unlinkSync(markerPath(stateDir, what));
  } catch {
    // not told, or a folder that cannot be written: nothing to forget
  }
}
