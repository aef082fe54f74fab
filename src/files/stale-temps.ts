/**
 * Leftovers of whole-file writes (replace-whole.ts) that a killed run could not remove: a run killed by
 * SIGKILL (or a power cut) between making `.<name>.<pid>.tmp` and renaming it over `<name>` leaves that
 * file, half written. The next write of the same name removes each such file that is
 *
 * - named exactly so (or `.<name>.<pid>.<8 hex>.tmp`), for the same `<name>`, with a pid of digits: another process's, or this process's
 *   when it is not writing that file itself (`busy`): a process of the same pid before it (a container's
 *   processes get the same few pids each start) left it, and it would take the name of this write;
 * - a regular file (looked at without following a link: a link planted under the name is left, and so is
 *   what it points to), of this user (never another user's, which a neighbour may have made on purpose in a
 *   folder others can write);
 * - of a process that is gone: `kill(pid, 0)` fails, not with EPERM (a live process, or one of another
 *   user, may still be writing it; process-alive.ts).
 *
 * The folder is read one entry at a time (a folder of 100k files holds no list of them). A pid is of this
 * machine's (or container's) processes: a folder shared with another pid namespace that writes the same
 * name at the same moment could see its file removed; its rename then fails and says so.
 */
import { lstatSync, opendirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { userId } from '../hooks/private-path.js';
import { processAlive } from './process-alive.js';

/** The pid in `entry` when it is a temp name of a write of `name` (`.<name>.<pid>.tmp`, or `.<name>.<pid>.<8 hex>.tmp` when that was held), else null. */
function tempPid(entry: string, name: string): number | null {
  const head = `.${name}.`;
  if (!entry.startsWith(head) || !entry.endsWith('.tmp')) return null;
  const m = /^([1-9][0-9]{0,9})(?:\.[0-9a-f]{8})?$/.exec(entry.slice(head.length, -'.tmp'.length));
  if (m === null) return null;
  const pid = Number(m[1]);
  return pid <= 0x7fffffff ? pid : null;
}

/** Removes the leftover temp files of writes of `path` by processes now gone (see the header), `busy` naming this process's own writes under way; the files removed. Never throws. */
export function removeStaleTemps(path: string, busy: (temp: string) => boolean): string[] {
  const removed: string[] = [];
  const uid = userId();
  const name = basename(path);
  const folder = dirname(path);
  let dir;
  try {
    dir = opendirSync(folder);
  } catch {
    return removed; // no folder to read: the write says why
  }
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      const pid = tempPid(entry.name, name);
      if (pid === null) continue;
      const at = join(folder, entry.name);
      if (pid === process.pid ? busy(at) : processAlive(pid)) continue;
      try {
        const st = lstatSync(at);
        if (!st.isFile() || (uid !== null && st.uid !== uid)) continue;
        unlinkSync(at);
        removed.push(at);
      } catch {
        // gone meanwhile, or not ours to remove
      }
    }
  } catch {
    // the folder could not be read on: what was removed stays removed
  } finally {
    try {
      dir.closeSync();
    } catch {
      // closed already
    }
  }
  return removed;
}
