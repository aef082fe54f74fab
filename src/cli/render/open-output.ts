/**
 * Opening a file a command writes its output to (`--output`, `--html`, `--markdown`, `--metrics`, the
 * calibrated config), without letting a neighbour choose what is written over. In a folder others can write
 * (`/tmp`), a name is predictable and anyone may plant it first: a symbolic link to `~/.bashrc` made
 * `scan --output /tmp/report.html` overwrite the user's `~/.bashrc`, and a file of theirs would have received
 * the report (the calls' commands) for them to read. So, where the folder holding the file is writable by
 * others:
 *
 * - the name is opened with O_NOFOLLOW (a link there is refused: ELOOP), and never truncated before the
 *   descriptor says what it is: a file of another user is refused, untouched, and so is a file with more
 *   than one name (a hard link planted there to a file of the user's, `~/.bashrc`, where the kernel lets
 *   anyone link to any file: no fs.protected_hardlinks, macOS);
 * - a new file is made 0600 (elsewhere the umask decides, as for any file the user writes).
 *
 * A folder of another user (not root) counts as one others can write whatever its mode: its owner can plant
 * a link there to a file the user can write. In the user's own folders (and root's) a link is followed as
 * before. Nothing is checked where the platform has no user ids (Windows).
 */
import { type Stats, closeSync, constants, fstatSync, ftruncateSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { O_NOFOLLOW, userId } from '../../hooks/private-path.js';

/** Why an output file cannot be opened safely; its message names the reason (the caller names the flag and file). */
export class UnsafeOutputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnsafeOutputError';
  }
}

/** What the folder holding `path` is when others than the user (or root) can write in it, said as in messages; null when they cannot. */
function sharedFolder(path: string, uid: number): string | null {
  const dir = dirname(resolve(path));
  let st;
  try {
    st = statSync(dir);
  } catch {
    return null; // a missing folder: the open says so
  }
  if ((st.mode & 0o022) !== 0) return `${dir}, a folder others can write`;
  return st.uid !== uid && st.uid !== 0 ? `${dir}, a folder of uid ${st.uid}` : null;
}

/** A descriptor open for writing on `path`, the file emptied (see the header). Throws UnsafeOutputError, or the file system's error. */
export function openOutputFile(path: string): number {
  const { fd, stat } = openChecked(path, false);
  if (stat.isFile()) {
    try {
      ftruncateSync(fd, 0);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }
  return fd;
}

/** An output file opened with openOutputFile's checks but not emptied yet (see keptOutputFile). */
export interface KeptOutput {
  readonly fd: number;
  /** Whether this opening made the file (it did not exist). */
  readonly created: boolean;
}

/**
 * `path` opened for writing as openOutputFile opens it, but left as it is: an existing file keeps its bytes
 * until the caller empties it (an output written only once a long run has ended, `scan --metrics`, is opened
 * before the run so a path that cannot be written is said at once). Whether the file was made here is
 * known from an exclusive create tried first. Throws UnsafeOutputError, or the file system's error.
 */
export function keptOutputFile(path: string): KeptOutput {
  const { fd, created } = openChecked(path, true);
  return { fd, created };
}

/** Opens `path` for writing and checks the descriptor (see the header); with `exclusiveFirst`, tries to make the file new first, to know whether it did. */
function openChecked(path: string, exclusiveFirst: boolean): { fd: number; stat: Stats; created: boolean } {
  const uid = userId();
  const shared = uid === null ? null : sharedFolder(path, uid);
  const flags = constants.O_WRONLY | constants.O_CREAT | (shared !== null ? O_NOFOLLOW | (constants.O_NONBLOCK ?? 0) : 0);
  const mode = shared !== null ? 0o600 : 0o666;
  let fd: number | null = null;
  let created = false;
  try {
    if (exclusiveFirst) {
      try {
        fd = openSync(path, flags | constants.O_EXCL, mode);
        created = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    fd ??= openSync(path, flags, mode);
  } catch (e) {
    if (shared !== null && (e as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafeOutputError(`it is a symbolic link in ${shared}: not followed`);
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (shared !== null && stat.uid !== uid) throw new UnsafeOutputError(`it is a file of uid ${stat.uid} in ${shared}: not written`);
    if (shared !== null && stat.isFile() && stat.nlink > 1) throw new UnsafeOutputError(`it is a file with ${stat.nlink} names (hard links) in ${shared}: not written`);
    return { fd, stat, created };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** Writes `text` to the output file `path` (see openOutputFile), whole. */
export function writeOutputFile(path: string, text: string): void {
  const fd = openOutputFile(path);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}
