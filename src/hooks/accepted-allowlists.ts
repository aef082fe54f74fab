/**
 * The project allowlists (`.loopwatch.json`) the user accepted, as direnv's `allow` keeps the `.envrc` files
 * it may load: a cloned repository brings its `.loopwatch.json` with it, and rules narrow enough to pass
 * every check (`^npm\b`, `^pytest\b`, `^git\b`, an MCP tool named whole) still silence the loops an agent
 * makes of the commands it runs most. So a file's rules are used only once the user has accepted that
 * version of that file (`loopwatch hook trust FILE`); a changed file must be accepted again.
 *
 * ```
 *   $XDG_STATE_HOME/loopwatch/accepted/<32 hex>     one file per accepted (path, text) pair:
 *                                                   {"path": ..., "sha256": <of the text>, "time": ...}
 * ```
 *
 * (`~/.local/state` without XDG_STATE_HOME.) The name is a sha256 of the file's path and of its text, so a
 * marker says nothing of either and cannot be made for a text not yet written. The folder is the user's
 * state home, not the hooks' `--state-dir` (which may be a project's own folder, `--state-dir .`, whose
 * repository could ship markers); a marker counts only when it is a regular file of this user's, reached
 * without a symbolic link, in a folder of this user's that others cannot write (where others can, they could
 * rename one of the user's markers to the name of a file of their choosing: a `XDG_STATE_HOME` in a shared
 * folder, a folder made 0777). Only its name counts: what it holds (the path and text hash, for `hook status`
 * to list and `hook trust --revoke` to find: accepted-list.ts) is never trusted; markers written before
 * s21 are empty.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { loopwatchStateHome } from './state-dir.js';
import { O_NOFOLLOW, notPrivate, userId } from './private-path.js';

/** The folder of the accepted allowlists' markers (see the header). */
export function acceptedFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(loopwatchStateHome(env), 'accepted');
}

/** The marker's name for the allowlist at `path` holding `text`: 32 hex digits. */
export function acceptedKey(path: string, text: string): string {
  return markerKey(path, textHash(text));
}

/** The marker's name for the allowlist at `path` whose text has the sha256 `sha256` (hex). */
export function markerKey(path: string, sha256: string): string {
  return createHash('sha256').update(`${path}\n${sha256}`).digest('hex').slice(0, 32);
}

/** The sha256 of an allowlist's text, in hex (what a marker records, and its name is made of). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Why the markers' folder `dir` cannot be trusted (not a folder of this user's, or others can write to it), or null. Throws the file system's error. */
export function folderProblem(dir: string): string | null {
  const st = lstatSync(dir);
  if (!st.isDirectory()) return 'it is not a folder';
  return notPrivate(st);
}

/** Whether the user accepted the allowlist at `path` as it holds `text` now. Never throws. */
export function isAccepted(path: string, text: string, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    if (folderProblem(acceptedFolder(env)) !== null) return false;
    const st = lstatSync(join(acceptedFolder(env), acceptedKey(path, text)));
    const uid = userId();
    return st.isFile() && (uid === null || st.uid === uid);
  } catch {
    return false;
  }
}

/** Records that the user accepts the allowlist at `path` as it holds `text`. Throws the file system's error. */
export function accept(path: string, text: string, env: NodeJS.ProcessEnv = process.env): void {
  const dir = acceptedFolder(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const why = folderProblem(dir);
  if (why !== null) throw new Error(`the folder ${dir} is not used: ${why} (whoever can write to it could accept files for you)`);
  let fd: number;
  try {
    fd = openSync(join(dir, acceptedKey(path, text)), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return;
  }
  try {
    writeSync(fd, `${JSON.stringify({ path, sha256: textHash(text), time: new Date().toISOString() })}\n`);
  } finally {
    closeSync(fd);
  }
}
