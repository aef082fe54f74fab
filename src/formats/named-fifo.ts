/**
 * The bytes of a FIFO named as an input (`loopwatch scan <(zcat runs.gz)`): a stream the user chose, read
 * as standard input is (list-inputs.ts). The folder walk looked at the path; what is opened must be what was
 * looked at, or a device swapped in meanwhile (a link to `/dev/zero` renamed over the path) was read for
 * ever. On Linux the path is taken as a handle that opens nothing (O_PATH), looked at, and only a FIFO is
 * opened, through the handle (`/proc/self/fd/N`): the same FIFO, waiting for its writer as before.
 * Elsewhere (or without `/proc`) it is opened by its name (O_NOCTTY) and looked at on the descriptor.
 * Anything but a FIFO or a regular file is a {@link NotAFileError}, raised on the stream's first read.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { FILE_READ_BYTES } from './byte-source.js';
import { NotAFileError, entryKind } from './regular-file.js';
import { O_PATH, handlePath } from './path-handle.js';

/** How {@link namedFifoStream} goes about it (tests only). */
export interface FifoSeams {
  /** Called between the look at the path and its opening (a test swaps the path there). */
  readonly checked?: () => void;
  /** Whether to open through a handle (`O_PATH`); false: by the name, looked at on the descriptor. */
  readonly handles?: boolean;
}

/** The bytes of the FIFO at `path` (see the header). */
export function namedFifoStream(path: string, seams: FifoSeams = {}): NodeJS.ReadableStream {
  return Readable.from(chunks(path, seams), { objectMode: false });
}

async function* chunks(path: string, seams: FifoSeams): AsyncGenerator<Buffer> {
  const file = await openFifo(path, seams);
  try {
    const st = await file.stat();
    if (!st.isFIFO() && !st.isFile()) throw new NotAFileError(path, entryKind(st));
    for await (const chunk of file.createReadStream({ highWaterMark: FILE_READ_BYTES, autoClose: false })) yield chunk as Buffer;
  } finally {
    await file.close();
  }
}

/** The FIFO at `path` open for reading (blocking until its writer comes, as a FIFO does). */
async function openFifo(path: string, seams: FifoSeams): Promise<import('node:fs/promises').FileHandle> {
  const flags = constants.O_RDONLY | (constants.O_NOCTTY ?? 0);
  if ((seams.handles ?? true) && O_PATH !== 0) {
    const handle = openSync(path, O_PATH);
    try {
      const st = fstatSync(handle);
      if (!st.isFIFO()) throw new NotAFileError(path, entryKind(st));
      seams.checked?.();
      try {
        return await open(handlePath(handle), flags);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    } finally {
      closeSync(handle);
    }
  } else seams.checked?.();
  return open(path, flags); // no handles (or no /proc): by the name; the caller looks on the descriptor
}
