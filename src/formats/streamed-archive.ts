/**
 * A zip archive (an Inspect AI `.eval` log) on standard input or a pipe: its directory is at its end, so it
 * cannot be read as it streams in. It is held whole, up to {@link MAX_STREAMED_ARCHIVE_BYTES}, then read
 * as an archive file is (inspect-eval-archive.ts `archiveRecords`, with every bound of that reader); a
 * larger one is skipped with one issue that says to give its path (a file is read in place, any size).
 */
import { archiveRecords, type EvalArchiveOptions } from './inspect-eval-archive.js';
import type { RecordUnit } from './read-records.js';
import { type TraceIssue, type TraceNote, issue } from './trace-record.js';

/** The largest archive read from a stream (held in memory whole to be read). */
export const MAX_STREAMED_ARCHIVE_BYTES = 256 * 1024 * 1024;

/**
 * The records of the archive whose bytes `chunks` gives (`file` names it), as archiveRecords gives them; one
 * issue when it is larger than `maxBytes` (its bytes past that are not read).
 */
export async function* streamedArchiveRecords(chunks: AsyncIterable<Uint8Array>, file: string, options: EvalArchiveOptions, maxBytes = MAX_STREAMED_ARCHIVE_BYTES): AsyncGenerator<(RecordUnit | TraceIssue | TraceNote)[]> {
  const held: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > maxBytes) {
      return yield [issue('too-long', file, 0, `a zip archive (an Inspect AI .eval log is one) of more than ${maxBytes} bytes read from a stream, which is held whole to be read (its directory is at its end): give its path instead (a file is read in place, any size); input skipped`)];
    }
    held.push(chunk);
  }
  const bytes = Buffer.concat(held, size);
  held.length = 0;
  yield* archiveRecords({ size: bytes.length, read: (position, length) => bytes.subarray(position, position + length) }, file, options);
}
