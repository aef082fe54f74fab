/**
 * One session's state between hook processes: a file in the state directory holding the session's
 * snapshot (LoopDetector.snapshot(): calls, detector state, proposals waiting for their outcome, blocked
 * calls). Its name is a hash of the agent and session id, so no id can reach outside the directory; the
 * file holds the id too, so a file copied under another name is told apart. Written to a temporary name
 * and renamed, so a reader sees the old state or the new one, never half of one.
 *
 * ```
 *   <dir>/<sha256(agent \n session) hex, 32 digits>.lwhook:
 *       "LWHK" | u8 format (1) | u32 id byte length (LE) | id (UTF-8) | snapshot bytes
 *   <dir>/<same>.lock     the lock of the session (state-lock.ts)
 *   <dir>/<same>.bad      a state file that could not be read, kept aside for inspection
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotError } from '../errors.js';
import { STATE_SUFFIX } from './state-names.js';

const MAGIC = 'LWHK';
const FORMAT = 1;
const HEAD = 9;

/** A session's state file and lock in a state directory. */
export class SessionFile {
  /** The state file's path. */
  readonly path: string;
  /** The lock file's path. */
  readonly lockPath: string;
  private readonly id: Buffer;

  constructor(
    readonly dir: string,
    agent: string,
    readonly session: string,
  ) {
    const base = createHash('sha256').update(`${agent}\n${session}`).digest('hex').slice(0, 32);
    this.path = join(dir, base + STATE_SUFFIX);
    this.lockPath = join(dir, `${base}.lock`);
    this.id = Buffer.from(`${agent}\n${session}`, 'utf8');
  }

  /** Makes the state directory (private to the user) if it is missing. */
  ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** The stored snapshot, or null when the session has none. Throws SnapshotError for a file that is not its state. */
  read(): Uint8Array | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (bytes.length < HEAD || bytes.toString('latin1', 0, 4) !== MAGIC) throw new SnapshotError('not a loopwatch hook state file');
    if (bytes[4] !== FORMAT) throw new SnapshotError(`a hook state file of format ${bytes[4]}, this loopwatch reads format ${FORMAT}`);
    const idLength = bytes.readUInt32LE(5);
    if (HEAD + idLength > bytes.length || !bytes.subarray(HEAD, HEAD + idLength).equals(this.id)) throw new SnapshotError('the state file belongs to another session');
    return bytes.subarray(HEAD + idLength);
  }

  /** Writes the snapshot: to a temporary file, renamed over the state file. */
  write(snapshot: Uint8Array): void {
    const head = Buffer.alloc(HEAD);
    head.write(MAGIC, 0, 'latin1');
    head[4] = FORMAT;
    head.writeUInt32LE(this.id.length, 5);
    const tmp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, Buffer.concat([head, this.id, snapshot]), { mode: 0o600 });
      renameSync(tmp, this.path);
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written, or it is gone already
      }
      throw e;
    }
  }

  /** Moves a state file that could not be read aside (`.bad`); the session starts again. */
  setAside(): void {
    try {
      renameSync(this.path, this.path.replace(/\.lwhook$/, '.bad'));
    } catch {
      this.remove();
    }
  }

  /** Removes the session's state (its end). */
  remove(): void {
    try {
      unlinkSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}
