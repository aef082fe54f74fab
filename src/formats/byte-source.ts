/**
 * The bytes of one input: a file or a stream, gunzipped when it starts with the gzip magic bytes
 * (1f 8b, whatever the file is called), and a bounded look at its head so the layout can be chosen
 * before the rest is read.
 */
import { open } from 'node:fs/promises';
import { gunzipMembers } from './gunzip-members.js';

/** How many decompressed bytes {@link peekBytes} looks at by default. */
export const PEEK_BYTES = 64 * 1024;

/**
 * Bytes a file is read in at a time: 1 MiB (a stream's default of 64 KiB left the reading thread idle
 * between reads: `loopwatch scan` of the 42.6 MB trace file waited ~50 ms for its 650 reads).
 */
export const FILE_READ_BYTES = 1024 * 1024;

/**
 * Read buffers no reader holds: a file is read into one buffer over and over rather than into a new one
 * per read. On this machine the first touch of a page of fresh memory costs ~15 us (6,400 new 4 KiB pages
 * of an ArrayBuffer: 15.3-15.9 us each), and 1 MiB read buffers made anew each time cost `loopwatch scan`
 * ~14,000 page faults for the 42.6 MB trace file: reading it took 314-318 ms that way, 31-51 ms into one
 * reused buffer (3 runs each, `/usr/bin/time` beside a count of its lines).
 */
const spareBuffers: Buffer[] = [];
/** Spare buffers kept at most (inputs read at once beyond this get buffers of their own). */
const MAX_SPARE_BUFFERS = 4;

/**
 * The chunks of a file, read into one buffer in turn: a chunk is valid until the next one is asked for.
 * Once `keepChunks()` is called (a reader that holds chunks longer, as gunzip does), every later chunk
 * gets a buffer of its own.
 */
class FileChunks implements AsyncIterator<Uint8Array> {
  private buffer: Buffer | null = null;
  private handle: Awaited<ReturnType<typeof open>> | null = null;
  private opened = false;
  private ended = false;
  private fresh = false;

  constructor(private readonly path: string) {}

  /** Every chunk from now on in a buffer of its own (the reused one is not written again). */
  keepChunks(): void {
    this.fresh = true;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    if (this.ended) return { done: true, value: undefined };
    try {
      if (!this.opened) {
        this.opened = true;
        this.handle = await open(this.path, 'r');
        this.buffer = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(FILE_READ_BYTES);
      }
      const into = this.fresh ? Buffer.allocUnsafe(FILE_READ_BYTES) : (this.buffer as Buffer);
      const { bytesRead } = await (this.handle as NonNullable<typeof this.handle>).read(into, 0, into.length, null);
      if (bytesRead === 0) {
        await this.finish();
        return { done: true, value: undefined };
      }
      return { done: false, value: into.subarray(0, bytesRead) };
    } catch (e) {
      await this.finish();
      throw e;
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    await this.finish();
    return { done: true, value: undefined };
  }

  private async finish(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const b = this.buffer;
    this.buffer = null;
    // a buffer handed out as the last chunk is no longer read once the reader asked past it
    if (b !== null && spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(b);
    const h = this.handle;
    this.handle = null;
    await h?.close();
  }
}

/**
 * The bytes of `source`, gunzipped when they start with 1f 8b. Errors (I/O, corrupt gzip, bytes after the
 * gzip data: a `TrailingBytesError`) reject the iteration after every byte decoded before them. `onBytes`
 * hears of each chunk read from the source, before decompression. A chunk is valid until the next one is
 * asked for (a file is read into one reused buffer): a reader that keeps bytes longer copies them.
 */
export async function* inputBytes(source: string | NodeJS.ReadableStream, onBytes?: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const file = typeof source === 'string' ? new FileChunks(source) : null;
  const rawIt: AsyncIterator<Uint8Array | string> = file ?? (source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
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
      // the next read may write over this chunk: keep a copy of it when another read follows
      head.push(headBytes + chunk.length < 2 ? Buffer.from(chunk) : chunk);
      headBytes += chunk.length;
    }
    const first = head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head);
    if (first[0] !== 0x1f || first[1] !== 0x8b) {
      if (first.length > 0) yield first;
      if (done) return;
      for (let r = await it.next(); r.done !== true; r = await it.next()) {
        yield typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      }
      return;
    }
    // gunzip holds compressed bytes across reads: they must not be read over
    file?.keepChunks();
    yield* gunzip(file !== null && head.length === 1 ? Buffer.from(first) : first, done ? null : it);
  } finally {
    await it.return?.();
  }
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
      // a chunk is valid until the next read (see inputBytes): copied when another read follows
      chunks.push(size + r.value.length < bytes ? Buffer.from(r.value) : r.value);
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
