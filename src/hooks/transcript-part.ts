/**
 * A bounded read of an agent's transcript (the payload's `transcript_path`): at most a given number of
 * bytes of a regular file, from its start or its end, or nothing. Never blocks: the file is opened without
 * blocking (a FIFO put in the transcript's place hung the hook in open()), and anything but a regular file,
 * a relative path, or a path longer than 4,096 characters is not read. Anything but a regular file is not
 * even opened, and a file swapped in after the look is not opened either (transcript-open.ts, which also
 * says what a served payload's path may be). Never throws.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { openTranscript, type TranscriptTrust } from './transcript-open.js';

/** A part of a transcript read: its text, and the byte offset where it begins (0: the whole head). */
export interface TranscriptPart {
  readonly text: string;
  readonly from: number;
}

/**
 * At most `bytes` bytes of the regular file at `path`, from its start (`head`) or its end (`tail`); null when
 * it cannot be read, or is not accepted for a payload of `trust` (transcript-open.ts).
 */
export function readTranscriptPart(path: unknown, at: 'head' | 'tail', bytes: number, trust: TranscriptTrust = 'agent'): TranscriptPart | null {
  if (typeof path !== 'string' || path.length > 4096 || !isAbsolute(path)) return null;
  const fd = openTranscript(path, trust);
  if (fd === null) return null;
  try {
    const st = fstatSync(fd);
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
