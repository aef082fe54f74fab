/**
 * A session's lock across hook processes: agents run the tool calls of one session in parallel, so their
 * hooks run in parallel, and each loads, updates and saves the same state. The lock is a file created
 * with O_EXCL holding `pid time token`; its holder removes it when done.
 *
 * A lock is stale when its holder is gone (no process with its pid) or it is older than `staleMs` (a hook
 * takes milliseconds), or at once when it is not a regular file (a FIFO or a link planted under its name). A stale lock is broken by renaming it to a name of the breaker's own and checking
 * the renamed file is the stale one (two breakers cannot both win; a lock taken meanwhile is put back).
 *
 * Waiting is bounded, and judged by progress: a waiter gives up (the caller goes on without the state,
 * fail open) when one holder has kept the lock for `waitMs`, or after `maxWaitMs` in all. While the lock
 * changes hands, hooks of the session are getting through, so a waiter behind 30 of them waits its turn
 * rather than giving up at `waitMs` with the queue moving. It polls (the lock file cannot be waited on),
 * from 1 ms after each change of holder, doubling to 16 ms, with jitter so waiters started together do
 * not poll in step; sleeping is Atomics.wait, which costs no CPU.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { O_NOFOLLOW } from './private-path.js';
import { processAlive } from '../files/process-alive.js';

/** How long a hook waits while one holder keeps a session's lock, in milliseconds. */
export const LOCK_WAIT_MS = 3000;
/** How long a hook waits for a session's lock at most, however it moves, in milliseconds. */
export const LOCK_MAX_WAIT_MS = 6000;
/** The longest pause between two looks at a held lock, in milliseconds. */
const MAX_PAUSE_MS = 16;
/** A lock older than this (milliseconds) is stale whoever holds it. */
export const LOCK_STALE_MS = 10_000;

let sleeper: Int32Array | null = null;

function sleep(ms: number): void {
  Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, ms);
}

/** What readLock gives for a lock that is not a regular file (a FIFO, a link, a folder): never one loopwatch made. */
const NOT_A_LOCK = '\0not a lock';
/** Bytes of a lock read at most (`pid time token` is about 40). */
const LOCK_BYTES = 256;

/**
 * The content of the lock at `path` (its first LOCK_BYTES), NOT_A_LOCK when it is not a regular file, or
 * null when there is none. Opened without following a link and without blocking: a FIFO planted under the
 * lock's name hung every hook of the session (readFileSync waited for a writer that never came).
 */
function readLock(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : NOT_A_LOCK;
  }
  try {
    if (!fstatSync(fd).isFile()) return NOT_A_LOCK;
    const buf = Buffer.alloc(LOCK_BYTES);
    return buf.toString('latin1', 0, readSync(fd, buf, 0, LOCK_BYTES, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether the lock with `content` (read at `path`) is stale. */
function stale(path: string, content: string, now: number, staleMs: number): boolean {
  if (content === NOT_A_LOCK) return true;
  const [pid, time] = content.split(' ').map(Number);
  if (pid !== undefined && time !== undefined && Number.isSafeInteger(pid) && pid > 0 && Number.isFinite(time)) {
    return now - time > staleMs || !processAlive(pid);
  }
  // created but not written yet (or garbage): judged by its age
  try {
    return now - statSync(path).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/** Breaks the stale lock whose content is `seen` (see the header). */
function breakLock(path: string, seen: string): void {
  const mine = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.broken`;
  try {
    renameSync(path, mine);
  } catch {
    return; // gone already: someone else broke or released it
  }
  if (readLock(mine) !== seen) {
    try {
      linkSync(mine, path); // a fresh lock taken meanwhile: put it back unless another exists now
    } catch {
      // another lock exists: the fresh one's holder will find its lock replaced, as after a break
    }
  }
  try {
    unlinkSync(mine);
  } catch {
    // nothing to clean
  }
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Milliseconds to wait while one holder keeps the lock. @default LOCK_WAIT_MS */
  readonly waitMs?: number;
  /** Milliseconds to wait at most, however the lock moves. @default LOCK_MAX_WAIT_MS */
  readonly maxWaitMs?: number;
  /** Milliseconds after which a lock is stale. @default LOCK_STALE_MS */
  readonly staleMs?: number;
}

/**
 * Takes the lock at `path`: returns the function that releases it, or null when it could not (one holder
 * kept it `waitMs`, or `maxWaitMs` passed).
 */
export function acquireLock(path: string, options: LockOptions = {}): (() => void) | null {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const maxWaitMs = options.maxWaitMs ?? LOCK_MAX_WAIT_MS;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  const nonce = randomBytes(6).toString('hex');
  const start = Date.now();
  let holder: string | null = null;
  let since = start;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    const token = `${process.pid} ${Date.now()} ${nonce}`;
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, token);
      } catch (e) {
        // a full disk creates the lock but cannot fill it: an empty lock names no holder, so it would keep
        // the session's next hooks waiting until it is stale (LOCK_STALE_MS), each giving up unchecked
        try {
          unlinkSync(path);
        } catch {
          // gone already
        }
        throw e;
      } finally {
        closeSync(fd);
      }
      return () => {
        if (readLock(path) === token) unlinkSync(path);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const seen = readLock(path);
    const now = Date.now();
    if (seen !== null && stale(path, seen, now, staleMs)) {
      breakLock(path, seen);
      continue;
    }
    if (seen !== holder) {
      // the lock changed hands (or was released): the session's hooks are getting through
      holder = seen;
      since = now;
      pause = 1;
    }
    if (now - since >= waitMs || now - start >= maxWaitMs) return null;
    sleep(pause * (0.5 + Math.random()));
  }
}
