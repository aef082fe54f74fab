/**
 * Session snapshots in a state directory, one file per session, for `loopwatch serve` to stop and start
 * again without losing sessions. A file holds its session's id beside the snapshot (ids can be any string,
 * so the file's name is a hash of the id), and is written to a temporary name then renamed, so a crash never
 * leaves half a file under a session's name.
 *
 * ```
 *   <dir>/<sha256(id) hex>.lwsession:  "LWSF" | u32 id byte length (LE) | id (UTF-8) | snapshot bytes (LWSS)
 *                                  or "LWSN" | u32 id length | id | u32 note length (LE) | note (JSON, UTF-8) | snapshot
 *                                  for a session the hook routes said a warning to (its SaidNote, said-notes.ts)
 *   <dir>/.<same>.lwsession.<pid>.tmp          while it is written (replace-whole.ts; `.<pid>.<8 hex>.tmp`
 *                                              when that name is held; older versions: `<same>.lwsession.<pid>.<8 hex>.tmp`)
 *   <dir>/<same>.lwsession.bad                 a file that could not be restored, kept for inspection
 * ```
 *
 * A snapshot holds what the session's detectors keep of recent calls (args as the service's door left
 * them: capped and redacted, call-door.ts), so the folder is private: made 0700, files 0600 (written
 * O_EXCL, so a name planted in advance is never followed), an own folder open to others and holding only
 * these names is made 0700, and a folder of another user, or one others can write that holds other files,
 * is refused (NotPrivateError). A file is read only when it is the user's own, not writable by others and
 * not a symbolic link (private-path.ts); another is set aside, never restored.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { wholeFileBeside, writeAll } from '../files/replace-whole.js';
import { join } from 'node:path';
import { NotPrivateError } from '../errors.js';
import { fileFailure } from '../text/file-failure.js';
import { foreignLink, modeText, readPrivateFile, userId } from '../hooks/private-path.js';
import { type SaidNote, isSaidNote } from '../hooks/said-once.js';
import { cutText } from '../text/shown-text.js';

const MAGIC = 'LWSF';
/** The magic of a file that holds what the hook routes last said to its session beside its snapshot. */
const MAGIC_SAID = 'LWSN';
/** Bytes of a said note read back at most (a note said-once.ts writes is far shorter). */
const MAX_NOTE_BYTES = 1024;
const SUFFIX = '.lwsession';
/** Every name this module writes in a state directory. */
const OWN_NAME = /^(?:[0-9a-f]{64}\.lwsession(?:\.bad|\.\d+\.[0-9a-f]{8}\.tmp)?|\.[0-9a-f]{64}\.lwsession\.\d+(?:\.[0-9a-f]{8})?\.tmp)$/;

/** A session file read back: its id, snapshot and what the hook routes last said to it (when they did), or why it could not be read. */
export type StateFile = { readonly path: string; readonly sessionId: string; readonly snapshot: Uint8Array; readonly said?: SaidNote } | { readonly path: string; readonly problem: string };

/** The file name of a session's snapshot. */
export function stateFileName(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex') + SUFFIX;
}

/**
 * Makes the state directory if it is missing (0700, missing parents too) and checks it is private (see
 * the header). Returns a line to say when an own folder was made private, else null. Throws
 * NotPrivateError when the folder is refused; nothing is checked where the platform has no user ids.
 */
export function prepareStateDir(dir: string): string | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // looked at once the name exists: a link planted between a look and the mkdir is seen too
  const link = foreignLink(dir);
  if (link !== null) throw new NotPrivateError(dir, link);
  const uid = userId();
  if (uid === null) return null;
  const st = statSync(dir);
  if (!st.isDirectory()) throw new NotPrivateError(dir, 'it is not a folder');
  if (st.uid !== uid) throw new NotPrivateError(dir, `it is owned by uid ${st.uid}, not by this user (uid ${uid})`);
  if ((st.mode & 0o077) === 0) return null;
  const foreign = readdirSync(dir).find((name) => !OWN_NAME.test(name));
  if (foreign === undefined) {
    chmodSync(dir, 0o700);
    return `the state folder ${dir} was open to others (mode ${modeText(st)}); it was made private (0700)`;
  }
  if ((st.mode & 0o022) !== 0) {
    throw new NotPrivateError(dir, `others than its owner can write to it (mode ${modeText(st)}), and it holds files that are not loopwatch's (such as ${JSON.stringify(cutText(foreign, 80))})`);
  }
  return null; // readable by others, holding other files: the session files themselves are 0600
}

/**
 * Writes a session's snapshot into `dir` (prepared by prepareStateDir), atomically, readable by the user only,
 * with what the hook routes last said to it (`said`), when they did.
 */
export function writeStateFile(dir: string, sessionId: string, snapshot: Uint8Array, said?: SaidNote): void {
  const id = Buffer.from(sessionId, 'utf8');
  const head = Buffer.alloc(8);
  head.write(said === undefined ? MAGIC : MAGIC_SAID, 0, 'latin1');
  head.writeUInt32LE(id.length, 4);
  const parts: Uint8Array[] = [head, id];
  if (said !== undefined) {
    const note = Buffer.from(JSON.stringify(said), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(note.length, 0);
    parts.push(length, note);
  }
  parts.push(snapshot);
  const path = join(dir, stateFileName(sessionId));
  const whole = wholeFileBeside(path, 0o600, { sync: false });
  try {
    for (const part of parts) writeAll(whole.fd, part);
  } catch (e) {
    whole.discard();
    throw e;
  }
  whole.commit();
}

/** The codes of a file the user may not read, set aside as a problem rather than stopping the start. */
const NOT_ALLOWED: ReadonlySet<string> = new Set(['EACCES', 'EPERM']);

/**
 * Every session file in `dir` (none when it does not exist), read back one at a time as the caller asks
 * for it; one that is not private is a problem, unread. hostile31: lazily, so a start holds one file's
 * bytes (64 MiB at most) beside the sessions already restored (bounded by `--session-memory`), not every
 * file of the folder at once.
 */
export function* readStateFiles(dir: string): Generator<StateFile> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const name of names.filter((n) => n.endsWith(SUFFIX)).sort()) {
    const path = join(dir, name);
    let bytes: Buffer | null;
    try {
      bytes = readPrivateFile(path);
    } catch (e) {
      if (e instanceof NotPrivateError) yield { path, problem: `not read: ${e.message.slice(path.length + 2)} (a file loopwatch did not write)` };
      // one file the user may not read (mode 0000, another owner's): said in words, set aside, the rest restored;
      // anything else (too many open files, a device error) may pass: it stops the start, the file kept as it is
      else if (NOT_ALLOWED.has((e as NodeJS.ErrnoException).code ?? '')) yield { path, problem: `not read: ${fileFailure(e).why}` };
      else throw e;
      continue;
    }
    if (bytes === null) continue; // gone meanwhile
    const idLength = bytes.length >= 8 ? bytes.readUInt32LE(4) : -1;
    const magic = bytes.toString('latin1', 0, 4);
    if (bytes.length < 8 || (magic !== MAGIC && magic !== MAGIC_SAID) || 8 + idLength > bytes.length) {
      yield { path, problem: 'not a loopwatch session file (bad header)' };
      continue;
    }
    const sessionId = bytes.toString('utf8', 8, 8 + idLength);
    if (stateFileName(sessionId) !== name) {
      yield { path, problem: 'its name does not match the session id it holds' };
      continue;
    }
    if (magic === MAGIC) {
      yield { path, sessionId, snapshot: bytes.subarray(8 + idLength) };
      continue;
    }
    const said = saidNoteAt(bytes, 8 + idLength);
    if (typeof said === 'string') yield { path, problem: said };
    else yield { path, sessionId, snapshot: bytes.subarray(said.end), said: said.note };
  }
}

/** The said note of an `LWSN` file starting at `at`, and where the snapshot starts; or why it cannot be read. */
function saidNoteAt(bytes: Buffer, at: number): { note: SaidNote; end: number } | string {
  const length = at + 4 <= bytes.length ? bytes.readUInt32LE(at) : -1;
  if (length < 0 || length > MAX_NOTE_BYTES || at + 4 + length > bytes.length) return 'not a loopwatch session file (bad said note header)';
  let note: unknown;
  try {
    note = JSON.parse(bytes.toString('utf8', at + 4, at + 4 + length));
  } catch {
    note = undefined;
  }
  if (!isSaidNote(note)) return 'its note of what the hook routes said is not one loopwatch writes';
  return { note, end: at + 4 + length };
}

/** Files set aside as `.bad` kept in a state folder at most: the newest by modification time. */
export const MAX_SET_ASIDE = 100;

/**
 * Removes the files set aside (`<hash>.lwsession.bad`) in `dir` past its newest `keep`, by modification
 * time (names breaking ties), so a folder that keeps holding files that cannot be restored does not grow
 * without end (hostile31: they were never removed). Only the user's own regular files are removed.
 * Returns how many were removed.
 */
export function pruneSetAside(dir: string, keep = MAX_SET_ASIDE): number {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(`${SUFFIX}.bad`));
  } catch {
    return 0;
  }
  if (names.length <= keep) return 0;
  const uid = userId();
  const seen: { name: string; mtimeMs: number }[] = [];
  for (const name of names) {
    try {
      const st = lstatSync(join(dir, name));
      if (st.isFile() && (uid === null || st.uid === uid)) seen.push({ name, mtimeMs: st.mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  seen.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let removed = 0;
  for (const { name } of seen.slice(keep)) {
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Removes a session file that was restored (its state lives in memory now). */
export function removeStateFile(path: string): void {
  unlinkSync(path);
}

/** Keeps a file that could not be restored aside (`.bad`, readable by the user only when it is theirs), so it is neither lost nor read again. */
export function setAsideStateFile(path: string): string {
  const bad = `${path}.bad`;
  renameSync(path, bad);
  try {
    const st = lstatSync(bad); // never through a link
    if (st.isFile() && st.uid === userId()) {
      chmodSync(bad, 0o600);
      // dated when set aside: pruneSetAside keeps the newest
      const now = new Date();
      utimesSync(bad, now, now);
    }
  } catch {
    // another user's file (it stays theirs), or a platform without modes
  }
  return bad;
}
