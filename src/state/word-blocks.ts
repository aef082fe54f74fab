/**
 * Blocks of 32-bit words for sessions' call logs (and the call facts kept in them) and recent words, of
 * signed ones for chanting's text-to-call boundaries, and of doubles for similar args' summary tables, carved from chunks the
 * thread's sessions share: a session holds a chunk and an offset into it, not a typed array of its own, so
 * it makes no Uint32Array and ArrayBuffer (96 + 88 B of objects a session, beside its words:
 * bench/session-objects.ts). A block goes back to its size's free list when its session is disposed (or
 * collected: the pipeline's finaliser disposes it), and is zeroed when handed out again.
 *
 * ```
 *   chunk (one Uint32Array):  | block 0 | block 1 | ... | block k-1 |     k = 1, 2, 4, ... 64 as blocks of that size are taken
 *   free list per block size: (chunk, offset) pairs of blocks given back, taken before a new chunk is made
 * ```
 *
 * A chunk's blocks double with the blocks of its size in use, up to {@link MAX_CHUNK_BLOCKS}: one session
 * alone takes a chunk of one block, a thousand share chunks of 64 (the chunk's view and buffer, ~3 B a session).
 */

/** Blocks in a chunk at most. */
export const MAX_CHUNK_BLOCKS = 64;

/** Where a session's words are: `words[base]` to `words[base + size - 1]`. */
export interface Block<T> {
  readonly words: T;
  readonly base: number;
}

/** A block of 32-bit words. */
export type WordBlock = Block<Uint32Array<ArrayBufferLike>>;

/** The free blocks and chunk state of one block size. */
interface SizePool<T> {
  /** Free blocks, as parallel stacks of chunks and offsets. */
  readonly freeChunks: T[];
  readonly freeBases: number[];
  /** The chunk being carved, and the next offset in it. */
  chunk: T;
  next: number;
  /** Blocks of this size handed out and not given back. */
  live: number;
}

/** Chunks of one element type, and their pools by block size. */
class Chunks<T extends Uint32Array<ArrayBufferLike> | Int32Array<ArrayBufferLike> | Float64Array<ArrayBufferLike>> {
  private readonly pools = new Map<number, SizePool<T>>();
  /** Bytes of all chunks made so far (they are never let go: their blocks are reused). */
  bytes = 0;

  constructor(private readonly make: (length: number) => T) {}

  take(size: number): Block<T> {
    let pool = this.pools.get(size);
    if (pool === undefined) {
      pool = { freeChunks: [], freeBases: [], chunk: this.make(0), next: 0, live: 0 };
      this.pools.set(size, pool);
    }
    pool.live++;
    const chunk = pool.freeChunks.pop();
    if (chunk !== undefined) {
      const base = pool.freeBases.pop() as number;
      chunk.fill(0, base, base + size);
      return { words: chunk, base };
    }
    if (pool.next + size > pool.chunk.length) {
      const blocks = Math.min(MAX_CHUNK_BLOCKS, pool.live);
      pool.chunk = this.make(blocks * size);
      pool.next = 0;
      this.bytes += pool.chunk.byteLength;
    }
    const base = pool.next;
    pool.next += size;
    return { words: pool.chunk, base };
  }

  give(size: number, words: T, base: number): void {
    const pool = this.pools.get(size);
    if (pool === undefined) return;
    pool.live--;
    pool.freeChunks.push(words);
    pool.freeBases.push(base);
  }
}

const u32 = new Chunks<Uint32Array<ArrayBufferLike>>((n) => new Uint32Array(n));
const f64 = new Chunks<Float64Array<ArrayBufferLike>>((n) => new Float64Array(n));
const i32 = new Chunks<Int32Array<ArrayBufferLike>>((n) => new Int32Array(n));

/** A zeroed block of `size` 32-bit words (size >= 1). */
export function takeWords(size: number): WordBlock {
  return u32.take(size);
}

/** Gives back a block takeWords(size) handed out; its holder must not read or write it afterwards. */
export function giveWords(size: number, words: Uint32Array, base: number): void {
  u32.give(size, words, base);
}

/** A zeroed block of `size` doubles (size >= 1), in chunks of doubles as takeWords' are of words. */
export function takeDoubles(size: number): Block<Float64Array<ArrayBufferLike>> {
  return f64.take(size);
}

/** Gives back a block takeDoubles(size) handed out; its holder must not read or write it afterwards. */
export function giveDoubles(size: number, words: Float64Array, base: number): void {
  f64.give(size, words, base);
}

/** A zeroed block of `size` signed 32-bit words (size >= 1): chanting's text-to-call boundaries. */
export function takeInts(size: number): Block<Int32Array<ArrayBufferLike>> {
  return i32.take(size);
}

/** Gives back a block takeInts(size) handed out; its holder must not read or write it afterwards. */
export function giveInts(size: number, words: Int32Array, base: number): void {
  i32.give(size, words, base);
}

/** Bytes of the thread's chunks, of words, signed words and doubles (what the blocks take, used or free): for measurements. */
export function sharedWordBytes(): number {
  return u32.bytes + f64.bytes + i32.bytes;
}
