/**
 * The bytes of one input: a file or a stream, gunzipped when it starts with the gzip magic bytes
 * (1f 8b, whatever the file is called), and a bounded look at its head so the layout can be chosen
 * before the rest is read.
 */
import { createReadStream, fstatSync } from 'node:fs';
import { gunzipMembers } from './gunzip-members.js';
import { openRegularFile } from './regular-file.js';

/** How many decompressed bytes {@link peekBytes} looks at by default. */
export const PEEK_BYTES = 64 * 1024;

/**
 * Bytes a file is read in at a time: 1 MiB (a stream's default of 64 KiB left the reading thread idle
 * between reads: `loopwatch scan` of the 42.6 MB trace file waited ~50 ms for its 650 reads).
 */
export const FILE_READ_BYTES = 1024 * 1024;

/**
 * The bytes of `source`, gunzipped when they start with 1f 8b. Errors (I/O, corrupt gzip, bytes after the
 * gzip data: a `TrailingBytesError`) reject the iteration after every byte decoded before them. `onBytes` hears of each chunk read from the source, before decompression.
 */
export async function* inputBytes(source: string | NodeJS.ReadableStream, onBytes?: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const raw = typeof source === 'string' ? fileStream(source) : source;
  const rawIt = (raw as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  // counts the input's own bytes (compressed ones for gzip), for progress
  const it: AsyncIterator<Uint8Array | string> =
    onBytes === undefined
      ? rawIt
      : {
          next: async () => {
            const r = await rawIt.next();
            if (r.done !== true) onBytes(r.value.length);
            return r;
          },
          return: async (v?: unknown) => (rawIt.return === undefined ? { done: true, value: v } : rawIt.return(v)),
        };
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  try {
    while (headBytes < 2) {
      const r = await it.next();
      if (r.done === true) {
        done = true;
        break;
      }
      const chunk = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      head.push(chunk);
      headBytes += chunk.length;
    }
    const first = Buffer.concat(head);
    if (first[0] !== 0x1f || first[1] !== 0x8b) {
      if (first.length > 0) yield first;
      if (done) return;
      for (let r = await it.next(); r.done !== true; r = await it.next()) {
        yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      }
      return;
    }
    yield* gunzip(first, done ? null : it);
  } finally {
    await it.return?.();
  }
}

/**
 * The bytes of the file `path`, read only when it is a regular file (regular-file.ts: never a device, FIFO or
 * socket), up to the size it had when opened: a file that grows while it is read (a writer appending faster
 * than it is read) ends there, not read for ever (before: `scan` of a folder holding such a file never
 * finished). A size of 0 (as /proc's files give) is read to its end.
 */
function fileStream(path: string): NodeJS.ReadableStream {
  const fd = openRegularFile(path);
  const size = fstatSync(fd).size;
  return createReadStream('', { fd, highWaterMark: FILE_READ_BYTES, ...(size > 0 ? { end: size - 1 } : {}) });
}

/** Gunzips `first` followed by the rest of `it`, member by member (see gunzip-members.ts). */
async function* gunzip(first: Uint8Array, it: AsyncIterator<Uint8Array | string> | null): AsyncGenerator<Uint8Array> {
  async function* compressed(): AsyncGenerator<Uint8Array> {
    yield first;
    if (it === null) return;
    for (let r = await it.next(); r.done !== true; r = await it.next()) {
      yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
    }
  }
  yield* gunzipMembers(compressed());
}

/** The first bytes of an input (at least `bytes` of them unless it is shorter), and all of its bytes again. */
export interface PeekedBytes {
  /** The head: the first chunks, joined. */
  readonly head: Uint8Array;
  /** True when the head is the whole input. */
  readonly complete: boolean;
  /** Every byte of the input, the head included, each read once. */
  readonly all: AsyncIterable<Uint8Array>;
  /** Releases the input when `all` is not going to be read to its end (or at all). */
  close(): Promise<void>;
}

/**
 * Reads at least `bytes` bytes of `source` (fewer at its end) and hands back those and the rest. An error
 * met while peeking is raised by `all` after the head, so the bytes before it are still read.
 */
export async function peekBytes(source: AsyncIterable<Uint8Array>, bytes: number = PEEK_BYTES): Promise<PeekedBytes> {
  const it = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  let failure: { readonly error: unknown } | null = null;
  try {
    while (size < bytes) {
      const r = await it.next();
      if (r.done === true) {
        complete = true;
        break;
      }
      chunks.push(r.value);
      size += r.value.length;
    }
  } catch (error) {
    failure = { error };
  }
  const head = Buffer.concat(chunks);
  async function* all(): AsyncGenerator<Uint8Array> {
    try {
      if (head.length > 0) yield head;
      if (failure !== null) throw failure.error;
      if (complete) return;
      for (let r = await it.next(); r.done !== true; r = await it.next()) yield r.value;
    } finally {
      await it.return?.();
    }
  }
  return {
    head,
    complete,
    all: all(),
    close: async () => {
      await it.return?.();
    },
  };
}
