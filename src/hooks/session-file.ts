/**
 * One session's state between hook processes: a file in the state directory holding the session's
 * snapshot (LoopDetector.snapshot(): calls, detector state, proposals waiting for their outcome, blocked
 * calls) and its notes for people (session-meta.ts). Its name is a hash of the agent and session id, so no
 * id can reach outside the directory; the file holds the id too, so a file copied under another name is
 * told apart. Written to a temporary name and renamed, so a reader sees the old state or the new one,
 * never half of one. Read only when it is private to the user (private-path.ts): a file someone else owns
 * or can write is not the user's hook's.
 *
 * ```
 *   <dir>/<sha256(agent \n session) hex, 32 digits>.lwhook:
 *       format 2: "LWHK" | u8 2 | u32 id byte length (LE) | id (UTF-8) | u32 notes length | notes (JSON) | snapshot bytes
 *       format 1: "LWHK" | u8 1 | u32 id byte length (LE) | id (UTF-8) | snapshot bytes  (read, no notes)
 *   <dir>/<same>.lock       the lock of the session (state-lock.ts)
 *   <dir>/<same>.bad        a state file that could not be read, kept aside for inspection
 *   <dir>/<same>.calls      what the hooks of the session did, one byte each, appended without the lock:
 *                           `p` a proposal came in (before the hook waits for the lock), `P` it was checked;
 *                           `r` an outcome came in, `R` it was recorded. A `p` without its `P` is a call
 *                           allowed unchecked (or one in flight), whatever ended its hook: a wait given up,
 *                           a failure, or the agent killing the hook
 * ```
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { wholeFileBeside, writeAll } from '../files/replace-whole.js';
import { join } from 'node:path';
import { SnapshotError } from '../errors.js';
import { O_NOFOLLOW, readPrivateFile } from './private-path.js';
import { type SessionMeta, decodeMeta, emptyMeta, encodeMeta } from './session-meta.js';
import { CALLS_SUFFIX, STATE_SUFFIX } from './state-names.js';

export { STATE_SUFFIX };

const MAGIC = 'LWHK';
const FORMAT = 2;
const HEAD = 9;

/** A session's stored state: the detector's snapshot and the notes (null in a format-1 file). */
export interface StoredSession {
  readonly snapshot: Uint8Array;
  readonly meta: SessionMeta | null;
}

/** What the hooks of a session did (its `.calls` file). */
export interface CallCounts {
  /** Proposals that came in (calls about to run). */
  readonly proposals: number;
  /** Of them, checked. The others were allowed unchecked (denied with --fail-closed), or are in flight. */
  readonly checked: number;
  /** Outcomes that came in (calls that ran). */
  readonly records: number;
  /** Of them, recorded. The others were dropped, or are in flight. */
  readonly recorded: number;
}

/** A mark of the `.calls` file: a proposal or an outcome came in (`p`, `r`), was checked or recorded (`P`, `R`). */
export type CallMark = 'p' | 'P' | 'r' | 'R';

/** The agent and session id a state file's bytes name (`agent \n session`), or null when they are not a state file. */
export function storedId(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < HEAD || b.toString('latin1', 0, 4) !== MAGIC) return null;
  const idLength = b.readUInt32LE(5);
  return HEAD + idLength > b.length ? null : b.toString('utf8', HEAD, HEAD + idLength);
}

/** A session's state file and lock in a state directory. */
export class SessionFile {
  /** The state file's path. */
  readonly path: string;
  /** The lock file's path. */
  readonly lockPath: string;
  /** The path of the session's count of calls (`.calls`). */
  readonly callsPath: string;
  private readonly id: Buffer;

  constructor(
    readonly dir: string,
    agent: string,
    readonly session: string,
  ) {
    const base = createHash('sha256').update(`${agent}\n${session}`).digest('hex').slice(0, 32);
    this.path = join(dir, base + STATE_SUFFIX);
    this.lockPath = join(dir, `${base}.lock`);
    this.callsPath = join(dir, base + CALLS_SUFFIX);
    this.id = Buffer.from(`${agent}\n${session}`, 'utf8');
  }

  /**
   * The agent and session a state file at `path` belongs to (its header, formats 1 and 2), or null when it
   * is not a state file loopwatch can read, or not private to the user (then it is left alone).
   */
  static owner(path: string): { readonly agent: string; readonly session: string } | null {
    let bytes: Buffer | null;
    try {
      // a file someone else owns or can write is not the user's hook's: not read, as load() refuses it
      bytes = readPrivateFile(path);
    } catch {
      return null;
    }
    if (bytes === null || bytes.length < HEAD || bytes.toString('latin1', 0, 4) !== MAGIC || (bytes[4] !== 1 && bytes[4] !== FORMAT)) return null;
    const idLength = bytes.readUInt32LE(5);
    if (HEAD + idLength > bytes.length) return null;
    const id = bytes.toString('utf8', HEAD, HEAD + idLength);
    const at = id.indexOf('\n');
    return at < 0 ? null : { agent: id.slice(0, at), session: id.slice(at + 1) };
  }

  /** Makes the state directory (private to the user) if it is missing. */
  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** The stored snapshot, or null when the session has none. Throws as {@link load} does. */
  read(): Uint8Array | null {
    return this.load()?.snapshot ?? null;
  }

  /**
   * The stored state, or null when the session has none. Throws NotPrivateError for a file that is not
   * private to the user, SnapshotError for one that is not this session's state.
   */
  load(): StoredSession | null {
    const bytes = readPrivateFile(this.path);
    if (bytes === null) return null;
    if (bytes.length < HEAD || bytes.toString('latin1', 0, 4) !== MAGIC) throw new SnapshotError('not a loopwatch hook state file');
    const format = bytes[4];
    if (format !== 1 && format !== FORMAT) throw new SnapshotError(`a hook state file of format ${format}, this loopwatch reads formats 1 and ${FORMAT}`);
    const idLength = bytes.readUInt32LE(5);
    let at = HEAD + idLength;
    if (at > bytes.length || !bytes.subarray(HEAD, at).equals(this.id)) throw new SnapshotError('the state file belongs to another session');
    if (format === 1) return { snapshot: bytes.subarray(at), meta: null };
    if (at + 4 > bytes.length) throw new SnapshotError('the state file is cut short');
    const metaLength = bytes.readUInt32LE(at);
    at += 4;
    if (at + metaLength > bytes.length) throw new SnapshotError('the state file is cut short');
    return { snapshot: bytes.subarray(at + metaLength), meta: decodeMeta(bytes.subarray(at, at + metaLength)) };
  }

  /**
   * Writes the snapshot and notes (without notes: notes that start now) to a new file beside the state
   * file (0600; not synced, the folder not read for leftovers: on every call, on the agent's path), renamed over
   * it: replace-whole.ts, `.<name>.<pid>.tmp`, whose leftovers the state sweep removes (a planted link or
   * another's file there never followed, never blocking the write).
   */
  write(snapshot: Uint8Array, meta: SessionMeta = emptyMeta(Date.now())): void {
    const notes = encodeMeta(meta);
    const head = Buffer.alloc(HEAD);
    head.write(MAGIC, 0, 'latin1');
    head[4] = FORMAT;
    head.writeUInt32LE(this.id.length, 5);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(notes.length, 0);
    const whole = wholeFileBeside(this.path, 0o600, { sync: false, removeLeftovers: false });
    try {
      for (const part of [head, this.id, length, notes, snapshot]) writeAll(whole.fd, part);
    } catch (e) {
      whole.discard();
      throw e;
    }
    whole.commit();
  }

  /** Moves a state file that could not be read aside (`.bad`); the session starts again. */
  setAside(): void {
    try {
      renameSync(this.path, this.path.replace(/\.lwhook$/, '.bad'));
    } catch {
      this.remove();
    }
  }

  /** Removes the session's state and counts (its end). */
  remove(): void {
    for (const path of [this.path, this.callsPath]) {
      try {
        unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  }

  /**
   * Appends `mark` to the session's count of calls (no lock needed: one byte, O_APPEND), to a regular file
   * only, opened without blocking (a FIFO planted under its name hung every hook of the session). Never throws.
   */
  countCall(mark: CallMark): void {
    try {
      const fd = openSync(this.callsPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0), 0o600);
      try {
        if (fstatSync(fd).isFile()) writeSync(fd, mark);
      } finally {
        closeSync(fd);
      }
    } catch {
      // an unusable folder: the line on stderr is all there is
    }
  }

  /** The session's count of calls. Throws NotPrivateError when the count is not private to the user. */
  calls(): CallCounts {
    return readCallCounts(this.callsPath);
  }
}

/** The count of calls in the `.calls` file at `path` (all 0 when there is none). Throws NotPrivateError when it is not private to the user. */
export function readCallCounts(path: string): CallCounts {
  const n = { p: 0, P: 0, r: 0, R: 0 };
  for (const b of readPrivateFile(path) ?? []) {
    const c = String.fromCharCode(b);
    if (c === 'p' || c === 'P' || c === 'r' || c === 'R') n[c]++;
  }
  return { proposals: n.p, checked: n.P, records: n.r, recorded: n.R };
}
