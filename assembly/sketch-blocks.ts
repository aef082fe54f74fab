// Semantic sketches kept at their length: each live entry of a slot's semantic ring holds its head word and the
// address of a block of the thread's memory with just its sketch's hashes, not room for k of them.
//
//   live entry (slot):  [count << SEM_LEN_BITS | length]  [block address]          (8 bytes; 0: no hashes)
//   block:              hash[length], in a block of class c = ceil(length / 2)     (8c bytes, c = 1..SKETCH_CLASSES)
//
// Blocks of a class are carved SKETCH_CHUNK bytes at a time at the memory top and kept on one free list per
// class in the header (H_SKETCH_FREE), linked through their first word; a call frees the block of the entry it
// replaces (or keeps it, when the new sketch takes the same class), so a session holds ~length x 4 bytes of
// hashes an entry, not k x 4 (after 100 real calls a sketch holds ~9.4 of 24). When the memory cannot grow,
// a block comes from a larger class's free block, split (every remainder is a class: 8-byte steps), or from
// the slots' free lists (slots.ts), cut into sketch blocks. No block is made or freed by a detector's read.
import { CF_SEMANTIC, C_FLAGS, C_OFF_SEM, C_SEM_CAP, H_SKETCH_FREE, HEADER, SEM_LEN_MASK, SKETCH_CHUNK, SKETCH_CLASSES, S_CONFIG } from './abi';
import { allocBlock, blockBytes, bump, configPtr, freeBlocksAtLeast, growFor, slotOk } from './slots';

/** The block class of a sketch of `len` hashes (0: none). */
// @ts-ignore: decorator
@inline export function sketchClass(len: u32): u32 {
  return (len + 1) >> 1;
}

// @ts-ignore: decorator
@inline function listHead(c: u32): usize {
  return <usize>(HEADER + H_SKETCH_FREE + (c << 2));
}

/** Puts block `p` of class `c` on its free list. */
function push(p: usize, c: u32): void {
  store<u32>(p, load<u32>(listHead(c)));
  store<u32>(listHead(c), <u32>p);
}

/** Puts the `bytes` (a multiple of 8) from `p` on the free lists, in blocks of the largest class first. */
function pushPieces(p: usize, bytes: u32): void {
  const largest = SKETCH_CLASSES << 3;
  while (bytes >= largest) {
    push(p, SKETCH_CLASSES);
    p += largest;
    bytes -= largest;
  }
  if (bytes != 0) push(p, bytes >> 3);
}

/** A block of class `c` (1..SKETCH_CLASSES), or 0 when memory is exhausted. Its bytes are not cleared. */
export function sketchAlloc(c: u32): usize {
  let p = <usize>load<u32>(listHead(c));
  if (p != 0) {
    store<u32>(listHead(c), load<u32>(<u32>p));
    return p;
  }
  const size = c << 3;
  const n: u32 = size >= SKETCH_CHUNK ? 1 : SKETCH_CHUNK / size;
  p = bump(n * size);
  if (p != 0) {
    for (let k: u32 = 1; k < n; k++) push(p + <usize>(k * size), c);
    return p;
  }
  // the memory cannot grow: a larger free block, its rest a block of the class of the difference
  for (let d = c + 1; d <= SKETCH_CLASSES; d++) {
    const q = <usize>load<u32>(listHead(d));
    if (q == 0) continue;
    store<u32>(listHead(d), load<u32>(<u32>q));
    push(q + <usize>size, d - c);
    return q;
  }
  // a free slot or block of the slots' classes (as an evicted session leaves), cut into sketch blocks
  p = allocBlock(size);
  if (p == 0) return 0;
  pushPieces(p + <usize>size, blockBytes(size) - size);
  return p;
}

/** Frees the block `p` of a sketch of `len` hashes (nothing for 0). */
export function sketchFree(p: usize, len: u32): void {
  if (p != 0) push(p, sketchClass(len));
}

/**
 * Takes back block `p` of class `c` just freed, when no block could be had after it (sketchAlloc took
 * nothing then, so it is still its list's head; anything else is left alone).
 */
export function sketchUnfree(p: usize, c: u32): void {
  if (<usize>load<u32>(listHead(c)) == p) store<u32>(listHead(c), load<u32>(<u32>p));
}

/** Frees the sketch blocks of every entry of slot `s` (configuration at `cfg`) and clears the entries. */
export function sketchDropAll(s: usize, cfg: usize): void {
  const cap = load<u32>(cfg + C_SEM_CAP);
  const at = s + <usize>load<u32>(cfg + C_OFF_SEM);
  for (let e: u32 = 0; e < cap; e++) {
    const entry = at + (<usize>e << 3);
    sketchFree(<usize>load<u32>(entry, 4), load<u32>(entry) & SEM_LEN_MASK);
    store<u64>(entry, 0);
  }
}

/**
 * Whether the next `n` sketches of `k` hashes at most can be had without growing the memory midway: the
 * memory grown now for them (a chunk a sketch at most, and never more than a block each plus a chunk a
 * class), or (when it cannot grow) room for n blocks of their class among the sketch classes' free blocks (a
 * block of class d gives d / c blocks of class c, split as sketchAlloc splits it) and the slots' free lists.
 * The host asks this before a call joins a batch, for every call of the batch (the blocks are the thread's,
 * so calls of other sessions count), and evicts a session while it is 0; 1 or 0.
 */
export function sketchReserve(n: u32, k: u32): u32 {
  if (n == 0 || k == 0) return 1;
  const c = sketchClass(min(k, SKETCH_CLASSES << 1));
  const chunks = <u64>n * <u64>(SKETCH_CHUNK + 16);
  const blocks = <u64>n * <u64>((c << 3) + 16) + <u64>(SKETCH_CLASSES * (SKETCH_CHUNK + 16));
  const bytes = min(chunks, blocks);
  if (bytes <= 0xffffffff && growFor(<u32>bytes) == 1) return 1;
  let have: u32 = 0;
  for (let d = c; d <= SKETCH_CLASSES && have < n; d++) {
    for (let p = load<u32>(listHead(d)); p != 0 && have < n; p = load<u32>(p)) have += d / c;
  }
  if (have < n) have += freeBlocksAtLeast(c << 3, n - have);
  return have >= n ? 1 : 0;
}

/**
 * The host's restore of a snapshot or a rollback: gives entry `e` of live slot `s` the head word `head` and a
 * block for its hashes (freeing the block it had), which the host then writes. Returns the block's address,
 * 0 for a sketch of no hashes, 1 when memory is exhausted or `s` is not a live slot of a semantic configuration
 * (the entry is then left empty).
 */
export function sketchPut(s: u32, e: u32, head: u32): u32 {
  if (!slotOk(s)) return 1;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  if ((load<u32>(cfg + C_FLAGS) & CF_SEMANTIC) == 0 || e >= load<u32>(cfg + C_SEM_CAP)) return 1;
  const entry = <usize>s + <usize>load<u32>(cfg + C_OFF_SEM) + (<usize>e << 3);
  sketchFree(<usize>load<u32>(entry, 4), load<u32>(entry) & SEM_LEN_MASK);
  store<u64>(entry, 0);
  const c = sketchClass(head & SEM_LEN_MASK);
  if (c == 0 || c > SKETCH_CLASSES) {
    store<u32>(entry, c == 0 ? head : 0);
    return c == 0 ? 0 : 1;
  }
  const p = sketchAlloc(c);
  if (p == 0) return 1;
  store<u32>(entry, head);
  store<u32>(entry, <u32>p, 4);
  return <u32>p;
}

/** Frees the sketch blocks of live slot `s`'s semantic entries and clears them (before the host rewrites the slot). */
export function sketchDrop(s: u32): void {
  if (!slotOk(s)) return;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  if ((load<u32>(cfg + C_FLAGS) & CF_SEMANTIC) != 0) sketchDropAll(<usize>s, cfg);
}
