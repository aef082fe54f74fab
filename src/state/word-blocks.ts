/**
 * Blocks of 32-bit words for sessions' call logs (and the call facts kept in them), carved from chunks the
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
export interface WordBlock {
  readonly words: Uint32Array;
  readonly base: number;
}

/** The free blocks and chunk state of one block size. */
interface SizePool {
  /** Free blocks, as parallel stacks of chunks and offsets. */
  readonly freeChunks: Uint32Array[];
  readonly freeBases: number[];
  /** The chunk being carved, and the next offset in it. */
  chunk: Uint32Array;
  next: number;
  /** Blocks of this size handed out and not given back. */
  live: number;
}

const pools = new Map<number, SizePool>();

/** Bytes of all chunks made so far (they are never let go: their blocks are reused). */
let chunkBytes = 0;

const EMPTY = new Uint32Array(0);

/** A zeroed block of `size` words (size >= 1). */
export function takeWords(size: number): WordBlock {
  let pool = pools.get(size);
  if (pool === undefined) {
    pool = { freeChunks: [], freeBases: [], chunk: EMPTY, next: 0, live: 0 };
    pools.set(size, pool);
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
    pool.chunk = new Uint32Array(blocks * size);
    pool.next = 0;
    chunkBytes += blocks * size * 4;
  }
  const base = pool.next;
  pool.next += size;
  return { words: pool.chunk, base };
}

/** Gives back a block takeWords(size) handed out; its holder must not read or write it afterwards. */
export function giveWords(size: number, words: Uint32Array, base: number): void {
  const pool = pools.get(size);
  if (pool === undefined) return;
  pool.live--;
  pool.freeChunks.push(words);
  pool.freeBases.push(base);
}

/** Bytes of the thread's chunks (what the blocks take, used or free): for measurements. */
export function sharedWordBytes(): number {
  return chunkBytes;
}
