/**
 * An open file read as a zip archive's bytes (zip-directory.ts's {@link ZipSource}): what Inspect AI's `.eval`
 * reader and the pre-pass that finds samples logged again by a newer log (inspect-sample-copies.ts) both read
 * an archive through.
 */
import { fstatSync, readSync } from 'node:fs';
import type { ZipSource } from './zip-directory.js';

/** The bytes of the open file `fd` as a {@link ZipSource}. */
export function fileSource(fd: number): ZipSource {
  const size = fstatSync(fd).size;
  return {
    size,
    read(position: number, length: number): Buffer {
      const b = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - position)));
      let got = 0;
      while (got < b.length) {
        const n = readSync(fd, b, got, b.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      return b.subarray(0, got);
    },
  };
}
