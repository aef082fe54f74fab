/**
 * The hooks' state folder before a hook uses it. A state file decides the user's calls (a planted one can
 * stop the agent on its first call), so the folder must be the user's own and closed to others:
 *
 * - missing: made, 0700 (and its missing parents);
 * - owned by another user: refused (the hook allows the call unchecked and says why);
 * - the user's, open to others (any group/other bits), holding nothing but loopwatch's names
 *   (state-names.ts): made 0700, and said once;
 * - the user's, writable by others, holding other files too (`--state-dir /tmp`, a shared project): refused,
 *   left as it is (a folder that is not loopwatch's alone is not loopwatch's to close);
 * - the user's, readable by others only, holding other files (`--state-dir .` in a project): used as it is
 *   (the state files themselves are 0600).
 *
 * Files in the folder are checked one by one when read (private-path.ts). Nothing is checked where the
 * platform has no user ids (Windows).
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { NotPrivateError } from '../errors.js';
import { foreignLink, modeText, userId } from './private-path.js';
import { isLoopwatchName } from './state-names.js';
import { cutText } from '../text/shown-text.js';

/**
 * Makes the state folder `dir` if it is missing and checks it (see the header). Returns a line for stderr
 * when it was made private, else null. Throws NotPrivateError when it is refused, and the file system's
 * error when it cannot be made or read.
 */
export function prepareStateFolder(dir: string): string | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // looked at once the name exists: a link planted between a look and the mkdir is seen too
  const link = foreignLink(dir);
  if (link !== null) throw new NotPrivateError(dir, link);
  const uid = userId();
  if (uid === null) return null;
  const st = statSync(dir);
  if (st.uid !== uid) throw new NotPrivateError(dir, `it is owned by uid ${st.uid}, not by this user (uid ${uid})`);
  if ((st.mode & 0o077) === 0) return null;
  const foreign = readdirSync(dir).find((name) => !isLoopwatchName(name));
  if (foreign === undefined) {
    chmodSync(dir, 0o700);
    return `the state folder ${dir} was open to others (mode ${modeText(st)}); it was made private (0700)`;
  }
  if ((st.mode & 0o022) !== 0) {
    throw new NotPrivateError(dir, `others than its owner can write to it (mode ${modeText(st)}), and it holds files that are not loopwatch's (such as ${JSON.stringify(cutText(foreign, 80))}), so it was left as it is`);
  }
  return null;
}
