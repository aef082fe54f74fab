/**
 * Opening an agent's transcript (a hook payload's `transcript_path`) for reading, and nothing else: what
 * is looked at is what is opened, and anything but an acceptable regular file is never opened at all.
 *
 * Opening has effects of its own: it lets a FIFO's writer blocked in open() go on (it learns when the hook
 * runs), it runs a device's driver, it makes a terminal the controlling one of a process that has none. So
 * the path is first taken as a handle that opens nothing (Linux `O_PATH`), the handle's file is looked at
 * (fstat), and only an acceptable one is opened, through the handle (`/proc/self/fd/N`): the same file,
 * whatever was renamed over the path meanwhile. Where there are no such handles (macOS, no `/proc`), the
 * path is looked at, opened without blocking and with O_NOCTTY, and looked at again on the descriptor: a
 * FIFO or device swapped in between is opened, never read.
 *
 * | who names the path              | accepted                                                                  |
 * |---------------------------------|---------------------------------------------------------------------------|
 * | `agent`: `loopwatch hook`       | a regular file, symbolic links followed (the agent's own path, the user's own setup) |
 * | `served`: `loopwatch serve`     | a regular file named `*.jsonl` that is no symbolic link (O_NOFOLLOW), has one name (no hard link planted beside the user's file), and is serve's user's own or readable by anyone |
 *
 * A served payload comes from any client of the server, and serve may run as another user than its clients
 * (a service account, root in a container): it reads for them only a transcript they could name as such,
 * never a file a link or a second name passes off as one, nor one only serve's own rights reach.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, statSync, type Stats } from 'node:fs';
import { O_PATH, handlePath } from '../formats/path-handle.js';
import { userId } from './private-path.js';

/** Whose payload a transcript path comes from: the agent's own hook process, or a server's client. */
export type TranscriptTrust = 'agent' | 'served';

/** How a transcript is opened for reading: never blocking, never taking a terminal. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** How {@link openTranscript} goes about it (tests only; the defaults are what the hook and serve use). */
export interface OpenSeams {
  /** Called between the look at the file and its opening (a test swaps the file there). */
  readonly checked?: () => void;
  /** Whether to open through a handle (`O_PATH`); false: the path's look-open-look (as on macOS). */
  readonly handles?: boolean;
}

/** Whether the file `st` describes may be read for a payload of `trust` (see the header). */
export function acceptedTranscript(st: Stats, trust: TranscriptTrust): boolean {
  if (!st.isFile()) return false;
  if (trust === 'agent') return true;
  const uid = userId();
  return st.nlink === 1 && (uid === null || st.uid === uid || (st.mode & 0o004) !== 0);
}

/**
 * A descriptor open for reading on the transcript at `path` (absolute), or null when it is not accepted for
 * `trust` or cannot be opened (see the header); the caller closes it. Never throws.
 */
export function openTranscript(path: string, trust: TranscriptTrust, seams: OpenSeams = {}): number | null {
  if (trust === 'served' && !path.endsWith('.jsonl')) return null;
  const nofollow = trust === 'served' ? constants.O_NOFOLLOW : 0;
  let fd: number | null = null;
  try {
    fd = (seams.handles ?? O_PATH !== 0) && O_PATH !== 0 ? throughHandle(path, nofollow, trust, seams) : throughPath(path, nofollow, trust, seams);
    if (fd !== null && !acceptedTranscript(fstatSync(fd), trust)) {
      closeSync(fd);
      return null;
    }
    return fd;
  } catch {
    if (fd !== null) closeSync(fd);
    return null;
  }
}

/** Opens through an O_PATH handle (see the header); falls back to the path's way when `/proc` is not there. */
function throughHandle(path: string, nofollow: number, trust: TranscriptTrust, seams: OpenSeams): number | null {
  const handle = openSync(path, O_PATH | nofollow);
  try {
    if (!acceptedTranscript(fstatSync(handle), trust)) return null;
    seams.checked?.();
    try {
      return openSync(handlePath(handle), READ_FLAGS);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    }
  } finally {
    closeSync(handle);
  }
  return throughPath(path, nofollow, trust, {}); // no /proc: the path's way
}

/** Looks at the path, opens it without blocking; the caller looks again on the descriptor. */
function throughPath(path: string, nofollow: number, trust: TranscriptTrust, seams: OpenSeams): number | null {
  if (!acceptedTranscript(nofollow === 0 ? statSync(path) : lstatSync(path), trust)) return null;
  seams.checked?.();
  return openSync(path, READ_FLAGS | nofollow);
}
