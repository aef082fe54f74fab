/**
 * Blocks of bytes for similar args' summaries (summary-ring.ts), each summary in a block of its own size
 * class, carved from chunks (Uint8Arrays) that the rings of one owner share: the thread's sessions share
 * one {@link SummaryBlocks} ({@link sharedSummaryBlocks}), a ring made on its own keeps one of its own. A
 * session holds no arena, only the blocks of its window's summaries, each at most a class step larger than
 * it (16 B up to 256 B, 64 B up to 1 KiB, 256 B up to 4 KiB, then powers of two); a summary given back
 * goes to its class's free list, taken before a chunk is carved further.
 *
 * ```
 *   chunk (one Uint8Array):  | block 0 | block 1 | ... | block k-1 |     k = 1, 2, 4, ... 64 as blocks of its class are taken
 *   a block's place: chunk id * 2^24 + offset (a double: summary-ring.ts keeps it in its table)
 * ```
 *
 * Before (branch mem6k), each ring kept one arena written round as a ring and compacted, about twice its
 * summaries in size once spares and shrinking were counted (median 3,183 B for 1,624 B of summaries after
 * 100 real calls), and an arena's Uint8Array and ArrayBuffer (184 B) a session.
 */

/** Blocks of one class in a chunk at most. */
export const MAX_CHUNK_BLOCKS = 64;

/** A place is chunk id * OFFSET + offset: a chunk is at most OFFSET bytes, unless it is one block. */
export const OFFSET = 2 ** 24;

/** The bytes of class `c`'s blocks (see classOf). */
function classBytes(c: number): number {
  if (c <= 16) return c << 4;
  if (c <= 28) return 256 + ((c - 16) << 6);
  if (c <= 40) return 1024 + ((c - 28) << 8);
  return 4096 * 2 ** (c - 40);
}

/** The smallest class whose blocks hold `n` bytes (n >= 1). */
export function classOf(n: number): number {
  if (n <= 256) return Math.max(1, (n + 15) >> 4);
  if (n <= 1024) return 16 + ((n - 256 + 63) >> 6);
  if (n <= 4096) return 28 + ((n - 1024 + 255) >> 8);
  let c = 40;
  while (4096 * 2 ** (c - 40) < n) c++;
  return c;
}

/** The bytes a block for `n` bytes takes. */
export function blockBytes(n: number): number {
  return classBytes(classOf(n));
}

/** The free blocks and chunk state of one class. */
interface ClassPool {
  /** Places of free blocks. */
  readonly free: number[];
  /** The chunk being carved (-1: none), the next offset in it and its end. */
  chunk: number;
  next: number;
  end: number;
  /** Blocks handed out and not given back. */
  live: number;
}

/** Summary blocks of one owner: the thread's sessions, or a ring of its own. */
export class SummaryBlocks {
  /** Chunks by id. */
  readonly chunks: Uint8Array[] = [];
  private readonly pools: ClassPool[] = [];
  /** Bytes of all chunks made (never let go: their blocks are reused). */
  bytes = 0;

  /** The chunk a place lies in. */
  chunkOf(place: number): Uint8Array {
    return this.chunks[(place / OFFSET) | 0] as Uint8Array;
  }

  /** The place of a block of at least `n` bytes (n >= 1): a free one of its class, else carved. Not zeroed. */
  take(n: number): number {
    const c = classOf(n);
    const pool = (this.pools[c] ??= { free: [], chunk: -1, next: 0, end: 0, live: 0 });
    pool.live++;
    const free = pool.free.pop();
    if (free !== undefined) return free;
    const size = classBytes(c);
    if (pool.next + size > pool.end) {
      // a chunk of as many blocks as are live (at most MAX_CHUNK_BLOCKS, and below the offset bits)
      const blocks = Math.max(1, Math.min(MAX_CHUNK_BLOCKS, pool.live, Math.floor(OFFSET / size)));
      pool.chunk = this.chunks.length;
      this.chunks.push(new Uint8Array(blocks * size));
      this.bytes += blocks * size;
      pool.next = 0;
      pool.end = blocks * size;
    }
    const place = pool.chunk * OFFSET + pool.next;
    pool.next += size;
    return place;
  }

  /** Gives back the block take(n) handed out at `place`; nothing may read or write it afterwards. */
  give(place: number, n: number): void {
    const pool = (this.pools[classOf(n)] ??= { free: [], chunk: -1, next: 0, end: 0, live: 0 });
    if (pool.live > 0) pool.live--;
    pool.free.push(place);
  }
}

/** The offset of a place in its chunk. */
export function offsetOf(place: number): number {
  return place % OFFSET;
}

let shared: SummaryBlocks | null = null;

/** The blocks the thread's sessions' rings share. */
export function sharedSummaryBlocks(): SummaryBlocks {
  return (shared ??= new SummaryBlocks());
}

/** Bytes of the thread's shared summary chunks (blocks used or free): for measurements. */
export function sharedSummaryBytes(): number {
  return shared === null ? 0 : shared.bytes;
}
