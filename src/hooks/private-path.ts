/**
 * Whether a file or folder is private to this user, before loopwatch reads code or state from it. A hook
 * runs inside the user's agent on every tool call: a state file or a compiled-code cache that someone else
 * could write would let them decide the user's calls, or run code as the user. So what is read must be
 *
 * - owned by this user (`process.getuid()`), and
 * - not writable by its group or by others (mode `& 0o022` is 0), and
 * - for files: a regular file reached without a symbolic link as its last component (opened with
 *   O_NOFOLLOW, checked on the open descriptor, so it cannot be swapped between check and read), of at
 *   most MAX_PRIVATE_FILE_BYTES (loopwatch writes none that large: a bigger one is planted, and read whole
 *   it held 2 GB for a 1.9 GB file, and past 2 GiB it could not be read nor set aside, leaving its
 *   session unchecked for good).
 *
 * Where the platform has no user ids (Windows: no `process.getuid`) nothing is checked: its modes do not
 * say who can write.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { NotPrivateError } from '../errors.js';

/** Mode bits that let others than the owner write. */
const OTHERS_WRITE = 0o022;

/** Flag that makes open() refuse a symbolic link as the last component (0 where the platform has none). */
export const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;

/** Largest file readPrivateFile reads, in bytes: 64 MiB (a hook's state is kilobytes, its code cache megabytes). */
export const MAX_PRIVATE_FILE_BYTES = 64 * 1024 * 1024;

/** This user's id, or null where the platform has none (then nothing is checked). */
export function userId(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/**
 * Why the folder `dir` must not be used as it is named: a symbolic link of another user (planted in a shared
 * folder such as `/tmp`, to point the user's state at a folder of theirs, their `~/.ssh` say). The target's
 * owner is checked by its caller; a link of the user's own is theirs to make. Null otherwise, and where the
 * platform has no user ids.
 */
export function foreignLink(dir: string, uid: number | null = userId()): string | null {
  if (uid === null) return null;
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return null; // missing: the caller makes it
  }
  return st.isSymbolicLink() && st.uid !== uid ? `it is a symbolic link of uid ${st.uid}, not of this user (uid ${uid}): not followed` : null;
}

/**
 * The nearest of `path` and its parents that exists, and its owner (null when none can be looked at). What
 * `mkdir -p path` makes goes inside it, owned by whoever runs it: as root for a user's `HOME`, folders the
 * user can then neither write nor add to (`~/.cache` made root's 0700 breaks every program that caches
 * there), so a caller run for another user's folder asks this first.
 */
export function nearestExisting(path: string): { readonly path: string; readonly uid: number } | null {
  for (let at = path; ; at = dirname(at)) {
    try {
      return { path: at, uid: lstatSync(at).uid };
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

/**
 * Why a folder of the user's inside `dir`'s parents cannot be trusted to stay where it is: a parent (the
 * real path's, up to `/`) of another user than this one or root, or one others can write in without the
 * sticky bit (as `/tmp` has), whose owner or writers can rename the user's folder away and put their own in
 * its place. Null when every parent is safe, where the platform has no user ids, or when `dir` cannot be
 * resolved (its caller's own checks then say why).
 */
export function unsafeParent(dir: string, uid: number | null = userId()): string | null {
  if (uid === null) return null;
  let at: string;
  try {
    at = realpathSync(dir);
  } catch {
    return null;
  }
  for (let up = dirname(at); ; up = dirname(up)) {
    let st;
    try {
      st = statSync(up);
    } catch {
      return null;
    }
    if (st.uid !== uid && st.uid !== 0) return `its parent folder ${up} is owned by uid ${st.uid}, not by this user (uid ${uid}) nor root`;
    if ((st.mode & OTHERS_WRITE) !== 0 && (st.mode & 0o1000) === 0) return `others than its owner can write in its parent folder ${up} (mode ${modeText(st)}, not sticky)`;
    if (dirname(up) === up) return null;
  }
}

/** The permission bits of `st` as people write them (`0755`). */
export function modeText(st: Pick<Stats, 'mode'>): string {
  return `0${(st.mode & 0o7777).toString(8).padStart(3, '0')}`;
}

/** Why `st` is not private to the user `uid`, or null when it is (always null without user ids). */
export function notPrivate(st: Pick<Stats, 'uid' | 'mode'>, uid: number | null = userId()): string | null {
  if (uid === null) return null;
  if (st.uid !== uid) return `it is owned by uid ${st.uid}, not by this user (uid ${uid})`;
  if ((st.mode & OTHERS_WRITE) !== 0) return `others than its owner can write to it (mode ${modeText(st)})`;
  return null;
}

/** How {@link readPrivateFile} reads a file. */
export interface PrivateRead {
  /** Most bytes read. @default MAX_PRIVATE_FILE_BYTES */
  readonly maxBytes?: number;
  /** A larger file: refused (NotPrivateError), or only its first `maxBytes` read (`truncate`). @default false */
  readonly truncate?: boolean;
  /**
   * The file holds a secret (a token): others than its owner must not read it either (mode `& 0o077` is
   * 0), not only not write it. No message of this function ever holds the file's content, secret or not.
   * @default false
   */
  readonly secret?: boolean;
}

/**
 * The bytes of the file at `path` when it is a regular file private to this user (see {@link PrivateRead}
 * for a secret's stricter rule and for truncation), of at most `maxBytes`; null when there is no such file.
 * Throws NotPrivateError when it is not private (or not a regular file, a symbolic link, or larger), and the
 * file system's error for anything else; no message holds any of the file's content.
 */
export function readPrivateFile(path: string, how: PrivateRead = {}): Buffer | null {
  const maxBytes = how.maxBytes ?? MAX_PRIVATE_FILE_BYTES;
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted under the name does not block the open (regular files ignore the flag)
    fd = openSync(path, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new NotPrivateError(path, 'it is a symbolic link');
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotPrivateError(path, 'it is not a regular file');
    const why = notPrivate(st);
    if (why !== null) throw new NotPrivateError(path, why);
    if (how.secret === true && userId() !== null && (st.mode & 0o077) !== 0) throw new NotPrivateError(path, `others than its owner can read it (mode ${modeText(st)})`);
    if (st.size > maxBytes && how.truncate !== true) throw new NotPrivateError(path, `it is ${st.size} bytes, more than loopwatch writes there (${maxBytes})`);
    // the size seen, never more: a file grown meanwhile is read as it was
    const bytes = Buffer.alloc(Math.min(st.size, maxBytes));
    let n = 0;
    for (let got = 1; n < bytes.length && got > 0; n += got) got = readSync(fd, bytes, n, bytes.length - n, n);
    return n === bytes.length ? bytes : bytes.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
