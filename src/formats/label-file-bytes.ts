/**
 * The bytes of a labels file read whole (eval's and calibrate's `sessions.jsonl`, plain or gzip), bounded:
 * at most {@link MAX_LABEL_FILE_BYTES} read from the file and at most as many unpacked from gzip. A labels
 * file is untrusted input (a downloaded data set's): a gzip bomb, or a FIFO or device named with
 * `--labels`, would otherwise take the memory until the process dies (a 5 MB gzip of 5 GB held 4.3 GB).
 */
import { gunzipSync } from 'node:zlib';
import { INFLATE_RATIO_FLOOR_BYTES, InflateRatioError, inflateRatioCap } from './inflate-ratio.js';
import { FileTooLargeError, readBoundedFile } from './regular-file.js';

/** Largest labels file read, and largest text unpacked from a gzip one, in bytes (256 MiB: about two million labels). */
export const MAX_LABEL_FILE_BYTES = 256 * 1024 * 1024;

/** The file's bytes, unpacked when gzip. Throws an Error saying why when it is over the limit or unreadable. */
export function readLabelFileBytes(path: string, limit: number = MAX_LABEL_FILE_BYTES): Buffer {
  let bytes: Buffer;
  try {
    bytes = readBoundedFile(path, limit); // a FIFO or device named with --labels: refused, never waited on
  } catch (e) {
    if (!(e instanceof FileTooLargeError)) throw e;
    throw new Error(e.size === null ? `the file is over the limit of ${limit} bytes` : `the file is ${e.size} bytes, over the limit of ${limit}`);
  }
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  // inflated no further than the ratio allows (inflate-ratio.ts), nor past the limit
  const maxRatio = inflateRatioCap();
  const byRatio = Math.max(INFLATE_RATIO_FLOOR_BYTES, maxRatio * bytes.length);
  try {
    return gunzipSync(bytes, { maxOutputLength: Math.min(limit, byRatio) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw e;
    if (byRatio < limit) throw new InflateRatioError(bytes.length, byRatio, maxRatio);
    throw new Error(`it unpacks to over the limit of ${limit} bytes`);
  }
}
