/**
 * Gunzip of a byte stream member by member (RFC 1952), as `zcat` reads it: each member's header is parsed
 * here, its deflate data inflated by zlib's raw inflater (which stops at the end of the data and says how
 * many bytes it used), its trailer checked (CRC-32 where this Node has `zlib.crc32`, and the length).
 * Concatenated members are read one after another. What follows the last member is ignored when it is
 * zero padding; anything else ends the output with a {@link TrailingBytesError} raised *after* every
 * decoded byte. A corrupt or truncated member raises its error after the bytes decoded before it, so
 * nothing decodable is lost (zlib's own gunzip drops the output of the step that failed). Data inflating
 * past the ratio of inflate-ratio.ts (200:1 past 64 MiB, over all members) ends with an `InflateRatioError`.
 *
 * ```
 *   member := 1f 8b 08 FLG MTIME(4) XFL OS [XLEN(2) extra] [name \0] [comment \0] [HCRC(2)]  deflate  CRC32(4) ISIZE(4)
 * ```
 */
import * as zlib from 'node:zlib';
import { INFLATE_RATIO_FLOOR_BYTES, checkInflateRatio, inflateRatioCap } from './inflate-ratio.js';

/** Bytes after the last gzip member that are neither another member nor zero padding. */
export class TrailingBytesError extends Error {
  constructor(
    /** How many bytes followed the last member. */
    readonly bytes: number,
  ) {
    super(`${bytes} byte${bytes === 1 ? '' : 's'} after the end of the gzip data ${bytes === 1 ? 'is' : 'are'} not gzip; ignored (every line before them was read)`);
    this.name = 'TrailingBytesError';
  }
}

/** Decoded bytes queued before the inflater is paused (its own buffers come on top). */
const HIGH_WATER = 1 << 20;
/**
 * Bytes the inflater decodes into at a time: 256 KiB rather than zlib's 16 KiB, so the 42.6 MB of the
 * traces come in ~170 chunks, not ~2,600, each a round trip to the thread pool and a step through the
 * readers (`loopwatch scan` of events.jsonl.gz 1.19 -> 0.98 s; 1 MiB gained nothing more).
 */
const INFLATE_CHUNK = 256 * 1024;
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

const crc32: ((data: Uint8Array, value?: number) => number) | undefined = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** The compressed bytes, with room to give back what a member did not use. */
class ByteQueue {
  private head: Uint8Array[] = [];
  /** Bytes handed out and not given back: where the readers are in the compressed data. */
  taken = 0;
  constructor(private readonly it: AsyncIterator<Uint8Array>) {}

  /** The next chunk (given-back bytes first), or null at the end. */
  async next(): Promise<Uint8Array | null> {
    const h = this.head.shift();
    if (h !== undefined) {
      this.taken += h.length;
      return h;
    }
    const r = await this.it.next();
    if (r.done === true) return null;
    this.taken += r.value.length;
    return r.value;
  }

  /** Puts bytes back in front. */
  unshift(bytes: Uint8Array): void {
    this.taken -= bytes.length;
    if (bytes.length > 0) this.head.unshift(bytes);
  }

  /** Exactly `n` bytes, or fewer at the end. */
  async take(n: number): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let got = 0;
    while (got < n) {
      const c = await this.next();
      if (c === null) break;
      const use = Math.min(c.length, n - got);
      parts.push(c.subarray(0, use));
      this.unshift(c.subarray(use));
      got += use;
    }
    return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  }

  /** Skips bytes up to and including the next zero byte; false when the end came first. */
  async skipZeroTerminated(): Promise<boolean> {
    for (let c = await this.next(); c !== null; c = await this.next()) {
      const z = c.indexOf(0);
      if (z !== -1) {
        this.unshift(c.subarray(z + 1));
        return true;
      }
    }
    return false;
  }
}

const truncated = (): Error => new Error('unexpected end of file');

/** Reads one member's header; false when the queue is at its end or holds no member (bytes put back). */
async function readHeader(q: ByteQueue): Promise<boolean> {
  const fixed = await q.take(10);
  if (fixed.length < 2 || fixed[0] !== 0x1f || fixed[1] !== 0x8b) {
    q.unshift(fixed);
    return false;
  }
  if (fixed.length < 10) throw truncated();
  if (fixed[2] !== 8) throw new Error(`unknown compression method ${fixed[2]}`);
  const flags = fixed[3] as number;
  if ((flags & FEXTRA) !== 0) {
    const len = await q.take(2);
    if (len.length < 2) throw truncated();
    const extra = await q.take((len[0] as number) | ((len[1] as number) << 8));
    if (extra.length < ((len[0] as number) | ((len[1] as number) << 8))) throw truncated();
  }
  if ((flags & FNAME) !== 0 && !(await q.skipZeroTerminated())) throw truncated();
  if ((flags & FCOMMENT) !== 0 && !(await q.skipZeroTerminated())) throw truncated();
  if ((flags & FHCRC) !== 0 && (await q.take(2)).length < 2) throw truncated();
  return true;
}

/**
 * Inflates one member's deflate data, yielding its bytes; gives back to `q` what follows the data. Before
 * each chunk is yielded, `check.used` is set to the deflate bytes the inflater had consumed when it made it
 * (its `bytesWritten`, counted as it consumes input, not as input is written to it).
 */
async function* inflateMember(q: ByteQueue, check: { crc: number; size: number; used: number }): AsyncGenerator<Uint8Array> {
  const inf = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK });
  const out: Uint8Array[] = [];
  // for each chunk in `out`, the bytes consumed when it was made
  const usedAt: number[] = [];
  let queued = 0;
  // set from the inflater's events (an object, so the checks below are not narrowed away)
  const state: { ended: boolean; failure: { error: unknown } | null } = { ended: false, failure: null };
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  inf.on('data', (c: Buffer) => {
    out.push(c);
    usedAt.push(inf.bytesWritten);
    queued += c.length;
    if (queued >= HIGH_WATER) inf.pause();
    notify();
  });
  inf.on('end', () => {
    state.ended = true;
    notify();
  });
  inf.on('error', (error) => {
    state.failure ??= { error };
    notify();
  });
  // input written since the member's data began, less what the inflater has consumed (dropped as it goes)
  const written: Uint8Array[] = [];
  let dropped = 0;
  const feed = (async (): Promise<void> => {
    try {
      while (!state.ended && state.failure === null) {
        const chunk = await q.next();
        if (chunk === null) {
          inf.end();
          return;
        }
        while (written.length > 0 && dropped + (written[0] as Uint8Array).length <= inf.bytesWritten) dropped += (written.shift() as Uint8Array).length;
        written.push(chunk);
        if (!inf.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              inf.off('drain', done).off('end', done).off('error', done).off('close', done);
              resolve();
            };
            inf.on('drain', done).on('end', done).on('error', done).on('close', done);
          });
        }
      }
    } catch (error) {
      state.failure ??= { error };
      notify();
    }
  })();
  try {
    for (;;) {
      const c = out.shift();
      if (c !== undefined) {
        check.used = usedAt.shift() ?? inf.bytesWritten;
        queued -= c.length;
        if (queued < HIGH_WATER && inf.isPaused()) inf.resume();
        if (crc32 !== undefined) check.crc = crc32(c, check.crc);
        check.size = (check.size + c.length) >>> 0;
        while (written.length > 0 && dropped + (written[0] as Uint8Array).length <= inf.bytesWritten) dropped += (written.shift() as Uint8Array).length;
        yield c;
        continue;
      }
      if (state.failure !== null) throw state.failure.error;
      if (state.ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    await feed;
    // what the inflater did not use: the trailer and whatever follows
    let skip = inf.bytesWritten - dropped;
    const rest: Uint8Array[] = [];
    for (const w of written) {
      if (skip >= w.length) skip -= w.length;
      else {
        rest.push(w.subarray(skip));
        skip = 0;
      }
    }
    for (let i = rest.length - 1; i >= 0; i--) q.unshift(rest[i] as Uint8Array);
  } finally {
    inf.destroy();
  }
}

/** How far gzip data may inflate (inflate-ratio.ts). */
export interface InflateLimits {
  /** Highest inflated : compressed ratio, over all members. @default inflateRatioCap() */
  readonly maxRatio?: number;
  /** Inflated bytes under which the ratio is not looked at. @default INFLATE_RATIO_FLOOR_BYTES */
  readonly floorBytes?: number;
}

/**
 * The decompressed bytes of the gzip data in `source` (which starts with a member). Errors: a corrupt or
 * truncated member (after the bytes decoded before it), a {@link TrailingBytesError} for non-zero bytes after
 * the last member, an `InflateRatioError` once the bytes inflated pass the ratio (inflate-ratio.ts).
 */
export async function* gunzipMembers(source: AsyncIterable<Uint8Array>, limits: InflateLimits = {}): AsyncGenerator<Uint8Array> {
  const maxRatio = limits.maxRatio ?? inflateRatioCap();
  const floor = limits.floorBytes ?? INFLATE_RATIO_FLOOR_BYTES;
  const sourceIt = source[Symbol.asyncIterator]();
  let inflated = 0;
  const q = new ByteQueue(sourceIt);
  try {
    let members = 0;
    while (await readHeader(q)) {
      const check = { crc: 0, size: 0, used: 0 };
      // judged on the compressed bytes that made the bytes so far: those before the member's data (earlier
      // members, this header), and the data the inflater had consumed (not what was read ahead of it)
      const start = q.taken;
      for await (const c of inflateMember(q, check)) {
        inflated += c.length;
        checkInflateRatio(start + check.used, inflated, maxRatio, floor);
        yield c;
      }
      const trailer = await q.take(8);
      if (trailer.length < 8) throw truncated();
      const view = Buffer.from(trailer.buffer, trailer.byteOffset, 8);
      if (crc32 !== undefined && view.readUInt32LE(0) !== check.crc >>> 0) throw new Error('incorrect data check (CRC-32)');
      if (view.readUInt32LE(4) !== check.size) throw new Error('incorrect length check');
      members++;
    }
    if (members === 0) throw new Error('not gzip data');
    let bytes = 0;
    let junk = false;
    for (let c = await q.next(); c !== null; c = await q.next()) {
      bytes += c.length;
      junk ||= c.some((b) => b !== 0);
    }
    if (junk) throw new TrailingBytesError(bytes);
  } finally {
    await sourceIt.return?.();
  }
}
