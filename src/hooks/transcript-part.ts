/**
 * A bounded read of an agent's transcript (the payload's `transcript_path`): at most a given number of
 * bytes of a regular file, from its start or its end, or nothing. Never blocks: the file is opened without
 * blocking (a FIFO put in the transcript's place hung the hook in open()), and anything but a regular file,
 * a relative path, or a path longer than 4,096 characters is not read. Anything but a regular file is not
 * even opened (opening has effects of its own: it lets a FIFO's writer blocked in open() go on, it makes a
 * terminal the controlling one of a process that has none): the path is looked at first, and opened with
 * O_NOCTTY, then checked again on the descriptor (a device swapped in between is not read). Never throws.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** A part of a transcript read: its text, and the byte offset where it begins (0: the whole head). */
export interface TranscriptPart {
  readonly text: string;
  readonly from: number;
}

/** At most `bytes` bytes of the regular file at `path`, from its start (`head`) or its end (`tail`); null when it cannot be read. */
export function readTranscriptPart(path: unknown, at: 'head' | 'tail', bytes: number): TranscriptPart | null {
  if (typeof path !== 'string' || path.length > 4096 || !isAbsolute(path)) return null;
  let fd: number;
  try {
    if (!statSync(path).isFile()) return null;
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const length = Math.min(st.size, bytes);
    const from = at === 'head' ? 0 : st.size - length;
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, from);
    return { text: buf.toString('utf8', 0, n), from };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
