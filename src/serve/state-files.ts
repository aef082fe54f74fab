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
import { chmodSync, lstatSync, mkdirSync, renameSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { eachName } from '../files/folder-names.js';
import { processAlive } from '../files/process-alive.js';
import { wholeFileBeside, writeAll, writingNow } from '../files/replace-whole.js';
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

/** A temp name of a write of a session file (`.<hash>.lwsession.<pid>.tmp`, older `<hash>.lwsession.<pid>.<8 hex>.tmp`): its pid. */
const TEMP_NAME = /^(?:\.[0-9a-f]{64}\.lwsession\.([1-9][0-9]{0,9})(?:\.[0-9a-f]{8})?|[0-9a-f]{64}\.lwsession\.([1-9][0-9]{0,9})\.[0-9a-f]{8})\.tmp$/;

/**
 * Most entries of a state folder read at `serve`'s start (200,000): twice the sessions one engine keeps by
 * default (`--max-sessions`), so a folder a previous run wrote is read whole, and one filled by someone else
 * costs a bounded start. The entries past it are not read, said in a note, and left for a later start
 * (those restored are removed, so the next start reaches the rest).
 */
export const MAX_STATE_ENTRIES = 200_000;

/** The session files of a state folder listed at start, and whether it held more entries than were read. */
export interface StateListing {
  /** The folder. */
  readonly dir: string;
  /** The session files' names among the entries read, sorted. */
  readonly names: readonly string[];
  /** Entries read. */
  readonly read: number;
  /** Whether the folder held more entries than {@link MAX_STATE_ENTRIES} (or the bound given): not read. */
  readonly more: boolean;
  /** Temp files of writes by processes now gone, removed as they were met (a serve killed while it wrote). */
  readonly leftovers: number;
}

/**
 * Lists the session files of `dir` as a stream, at most `max` entries read (no listing when the folder does
 * not exist), removing on the way the temp files of writes left by processes now gone (the user's own
 * regular files only): each write no longer reads the folder for them (hostile33: a stop writing 8,000
 * sessions read the folder 8,000 times, 129 s).
 */
export function listStateFiles(dir: string, max = MAX_STATE_ENTRIES): StateListing {
  const uid = userId();
  let leftovers = 0;
  const names: string[] = [];
  let listed: { read: number; more: boolean };
  try {
    listed = eachName(dir, max, (name) => {
      if (name.endsWith(SUFFIX)) {
        names.push(name);
        return;
      }
      const m = TEMP_NAME.exec(name);
      const pid = m === null ? NaN : Number(m[1] ?? m[2]);
      // this process's own pid: a process of that pid before it left it, unless this process writes it now
      if (!(pid <= 0x7fffffff) || (pid === process.pid ? writingNow(join(dir, name)) : processAlive(pid))) return;
      try {
        const st = lstatSync(join(dir, name));
        if (st.isFile() && (uid === null || st.uid === uid)) {
          unlinkSync(join(dir, name));
          leftovers++;
        }
      } catch {
        // gone meanwhile, or not ours to remove
      }
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { dir, names: [], read: 0, more: false, leftovers: 0 };
    throw e;
  }
  return { dir, names: names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), ...listed, leftovers };
}

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
  // the first name that is not loopwatch's, read as a stream (a folder of own names is read through)
  let foreign: string | undefined;
  eachName(dir, Number.POSITIVE_INFINITY, (name) => {
    if (foreign === undefined && !OWN_NAME.test(name)) foreign = name;
  });
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
  // leftovers of killed writes are removed once at start (listStateFiles), not by reading the folder per file
  const whole = wholeFileBeside(path, 0o600, { sync: false, removeLeftovers: false });
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
 * The session files `listing` names (by default, `dir`'s as {@link listStateFiles} lists them), read back
 * one at a time as the caller asks for each; one that is not private is a problem, unread, and one gone
 * meanwhile is passed over. hostile31: lazily, so a start holds one file's bytes (64 MiB at most) beside
 * the sessions already restored (bounded by `--session-memory`), not every file of the folder at once.
 */
export function* readStateFiles(dir: string, listing: StateListing = listStateFiles(dir)): Generator<StateFile> {
  for (const name of listing.names) {
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
 * without end (hostile31: they were never removed). Only the user's own regular files are removed. The
 * folder is read as a stream, at most `max` entries, holding the newest `keep` met so far: a file pushed
 * out of them is older than `keep` others, so it goes at once. Returns how many were removed.
 */
export function pruneSetAside(dir: string, keep = MAX_SET_ASIDE, max = MAX_STATE_ENTRIES): number {
  const uid = userId();
  // the newest met so far, newest first
  const newest: { name: string; mtimeMs: number }[] = [];
  const before = (a: { name: string; mtimeMs: number }, b: { name: string; mtimeMs: number }): boolean => a.mtimeMs > b.mtimeMs || (a.mtimeMs === b.mtimeMs && a.name < b.name);
  let removed = 0;
  const remove = (name: string): void => {
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  };
  try {
    eachName(dir, max, (name) => {
      if (!name.endsWith(`${SUFFIX}.bad`)) return;
      let seen;
      try {
        const st = lstatSync(join(dir, name));
        if (!st.isFile() || (uid !== null && st.uid !== uid)) return;
        seen = { name, mtimeMs: st.mtimeMs };
      } catch {
        return; // gone meanwhile
      }
      let at = newest.length;
      while (at > 0 && before(seen, newest[at - 1]!)) at--;
      if (at === keep) return remove(name);
      newest.splice(at, 0, seen);
      if (newest.length > keep) remove(newest.pop()!.name);
    });
  } catch {
    // no folder, or it could not be read on: what was removed stays removed
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
