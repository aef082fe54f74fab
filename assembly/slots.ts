// Regions and session slots in linear memory. All bookkeeping lives in the header and config table, not in
// globals, so a fresh instance over the same memory (after a trap) carries on where the last one stopped.
//
//   slot:  [count | config | state | next] rings...
//   Slots are sized by class (multiples of 64 bytes up to 4 KiB, of 128 bytes up to 8 KiB, of 512 bytes up
//   to 16 KiB, then powers of two: a class wastes at most 3% of a slot up to 8 KiB, where sessions' slots and
//   chanting regions are), with one free list per class in the header, so slots outlive the configuration that sized them
//   and configuration ids can be reused. allocSlot pops the class's free list, or carves a chunk of slots at the memory top.
//   Blocks (a slot's side storage, as state repeat's ring: state-ring.ts) share the classes and free lists.
import {
  CF_SEMANTIC, CF_STATE, CONFIGS, CONFIG_SIZE, C_CHUNK, C_FLAGS, C_LIVE, C_OFF_STATE, C_SLOT_SIZE, HEADER, H_CLASSES, H_FREED, H_MAGIC, H_MEMTOP, MAGIC,
  MAX_CONFIGS, SIZE_CLASSES, SLOT_LIVE, SLOT_POISONED, S_CONFIG, S_COUNT, S_NEXT, S_STATE,
} from './abi';
import { sketchDropAll } from './sketch-blocks';

/** The size class of a slot size. */
function classOf(size: u32): u32 {
  if (size <= 4096) return (size + 63) >> 6;
  if (size <= 8192) return 64 + ((size - 4096 + 127) >> 7);
  if (size <= 16384) return 96 + ((size - 8192 + 511) >> 9);
  let c: u32 = 112;
  let s: u32 = 16384;
  while (s < size && c < SIZE_CLASSES - 1) {
    s <<= 1;
    c++;
  }
  return c;
}

/** The bytes a slot of class `c` takes. */
function classSize(c: u32): u32 {
  if (c <= 64) return c << 6;
  if (c <= 96) return 4096 + ((c - 64) << 7);
  if (c <= 112) return 8192 + ((c - 96) << 9);
  return <u32>16384 << (c - 112);
}

/** The bytes a block asked for `bytes` bytes takes (its size class's). */
export function blockBytes(bytes: u32): u32 {
  return classSize(classOf(bytes));
}

/**
 * How many blocks of `bytes` bytes the slots' free lists can be cut into, counted up to `most` (sketch-blocks.ts's
 * reservation when the memory cannot grow): a free entry of S bytes gives S / blockBytes(bytes) of them, as
 * allocBlock cuts them one after another (splitLarger hands out the first part, the rest goes back in pieces of
 * the largest classes, every one a multiple of 64 bytes).
 */
export function freeBlocksAtLeast(bytes: u32, most: u32): u32 {
  const each = blockBytes(bytes);
  let have: u32 = 0;
  for (let c = classOf(bytes); c < SIZE_CLASSES && have < most; c++) {
    const size = classSize(c);
    if (size < each) continue;
    const cut = size / each;
    for (let p = load<u32>(classHead(c)); p != 0 && have < most; p = load<u32>(p + S_NEXT)) have += cut;
  }
  return have;
}

// @ts-ignore: decorator
@inline function classHead(c: u32): usize {
  return <usize>(HEADER + H_CLASSES + (c << 2));
}

/** Initialises the header on fresh memory (idempotent); returns the memory top. */
export function setup(): u32 {
  if (load<u32>(HEADER + H_MAGIC) != MAGIC) {
    memory.fill(HEADER, 0, 1024);
    memory.fill(CONFIGS, 0, <usize>(MAX_CONFIGS * CONFIG_SIZE));
    store<u32>(HEADER + H_MEMTOP, <u32>((__heap_base + 15) & ~15));
    store<u32>(HEADER + H_MAGIC, MAGIC);
  }
  return load<u32>(HEADER + H_MEMTOP);
}

/**
 * Highest address + 1 handed out: the last 64 KiB page of the 4 GiB is never used, so every address and
 * the memory top fit in 32 bits (at 4 GiB, `memory.size() << 16` as a 32-bit number would be 0).
 */
const ADDRESS_LIMIT: u64 = 0xffff0000;

/** Reserves `size` bytes at the memory top, growing memory; returns 0 when memory cannot grow. */
export function bump(size: u32): usize {
  // 64-bit arithmetic: near 4 GiB, `top + size` must not wrap round to a small address
  const ptr: u64 = (<u64>load<u32>(HEADER + H_MEMTOP) + 15) & ~(<u64>15);
  const end: u64 = ptr + <u64>size;
  if (end > ADDRESS_LIMIT) return 0;
  const have: u64 = <u64>memory.size() << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    // Grow by a quarter of the memory at least (at most 1024 pages, 64 MiB at a time): each growth costs
    // the host a new buffer and, at hundreds of MiB, a garbage collection; page-at-a-time growth made
    // 100,000 sessions take minutes. When the larger step cannot be had, take just what is needed.
    const step = <i32>min<u32>(<u32>memory.size() >> 2, 1024);
    if (step <= pages || memory.grow(step) < 0) {
      if (memory.grow(pages) < 0) return 0;
    }
  }
  store<u32>(HEADER + H_MEMTOP, <u32>end);
  return <usize>ptr;
}

/**
 * Grows the memory, if need be, so that `bytes` more can be bumped without growing it: the host asks this
 * before a batch whose calls may take blocks (state-ring.ts), so no batch grows the memory midway. 1 when
 * there is that room, 0 when memory cannot grow (the batch then runs, and a block it cannot have fails its call).
 */
export function growFor(bytes: u32): u32 {
  const end: u64 = ((<u64>load<u32>(HEADER + H_MEMTOP) + 15) & ~(<u64>15)) + <u64>bytes;
  if (end > ADDRESS_LIMIT) return 0;
  const have: u64 = <u64>memory.size() << 16;
  if (end <= have) return 1;
  const pages = <i32>((end - have + 0xffff) >> 16);
  const step = <i32>min<u32>(<u32>memory.size() >> 2, 1024);
  if (step <= pages || memory.grow(step) < 0) {
    if (memory.grow(pages) < 0) return 0;
  }
  return 1;
}

/** Makes sure region `which` (its header pointer and size fields) holds `size` bytes; returns its pointer. */
export function ensureRegion(ptrField: u32, sizeField: u32, size: u32): usize {
  const old = <usize>load<u32>(HEADER + ptrField);
  const oldSize = load<u32>(HEADER + sizeField);
  if (oldSize >= size && old != 0) return old;
  // a region at the memory top (nothing handed out after it: the input area doubling for one large call) grows
  // in place, so its old bytes are not left behind below the new region at each step
  if (old != 0 && <u64>old + <u64>oldSize == <u64>load<u32>(HEADER + H_MEMTOP)) {
    if (bump(size - oldSize) == 0) return 0;
    store<u32>(HEADER + sizeField, size);
    return old;
  }
  const p = bump(size);
  if (p == 0) return 0;
  store<u32>(HEADER + ptrField, <u32>p);
  store<u32>(HEADER + sizeField, size);
  return p;
}

/**
 * A zeroed region of `bytes` bytes whose address is kept in header field `field`: made (bumped and zeroed)
 * the first time, found there afterwards, so it survives re-instantiation; 0 when memory cannot grow. The
 * caches (mask-cache.ts, sketch-cache.ts) are made this way when a thread's instance is made
 * (cachesReady), never in the middle of a batch, whose growth of the memory would detach the host's views.
 */
export function zeroedRegion(field: u32, bytes: u32): usize {
  const known = <usize>load<u32>(HEADER + field);
  if (known != 0) return known;
  const p = bump(bytes);
  if (p == 0) return 0;
  memory.fill(p, 0, <usize>bytes);
  store<u32>(HEADER + field, <u32>p);
  return p;
}

// @ts-ignore: decorator
@inline export function configPtr(id: u32): usize {
  return <usize>CONFIGS + <usize>id * <usize>CONFIG_SIZE;
}

/** A zeroed, live slot for configuration `id`, or 0 when memory is exhausted. */
export function allocSlot(id: u32): u32 {
  const cfg = configPtr(id);
  const size = load<u32>(cfg + C_SLOT_SIZE);
  const c = classOf(size);
  const bytes = classSize(c);
  let s = load<u32>(classHead(c));
  if (s == 0) {
    let chunk = load<u32>(cfg + C_CHUNK);
    if (chunk == 0) chunk = 16;
    let base = bump(bytes * chunk);
    if (base == 0) {
      // the memory cannot grow: one slot cut from a larger free slot or block (merged with its free neighbours if need be)
      base = fromLarger(c);
      if (base == 0) return 0;
      chunk = 1;
    }
    // slots 1..chunk-1 join the free list; slot 0 is handed out
    for (let k: u32 = 1; k < chunk; k++) {
      const p = <u32>base + k * bytes;
      store<u32>(p + S_STATE, 0);
      store<u32>(p + S_NEXT, k + 1 < chunk ? p + bytes : load<u32>(classHead(c)));
    }
    if (chunk > 1) store<u32>(classHead(c), <u32>base + bytes);
    s = <u32>base;
  } else {
    store<u32>(classHead(c), load<u32>(s + S_NEXT));
  }
  memory.fill(s, 0, size);
  store<u32>(s + S_CONFIG, id);
  store<u32>(s + S_STATE, SLOT_LIVE);
  store<u32>(cfg + C_LIVE, load<u32>(cfg + C_LIVE) + 1);
  return s;
}

/**
 * A zeroed block of at least `bytes` bytes (16 or more) from the free list of its size class, or carved
 * alone at the memory top; 0 when memory is exhausted. Blocks are slots' side storage: a free block and a
 * free slot of one class are alike, so either list feeds the other.
 */
export function allocBlock(bytes: u32): usize {
  const c = classOf(bytes);
  const size = classSize(c);
  let p = <usize>load<u32>(classHead(c));
  if (p == 0) {
    p = bump(size);
    if (p == 0) p = fromLarger(c);
    if (p == 0) return 0;
  } else store<u32>(classHead(c), load<u32>(<u32>p + S_NEXT));
  memory.fill(p, 0, <usize>size);
  return p;
}

/**
 * When the memory cannot grow: the first entry of the smallest larger class that has one (a free slot or
 * block), its first classSize(c) bytes handed out and the rest put on the free lists in pieces of class
 * sizes (every class size is a multiple of 64, so the rest always splits). This is what lets evicting a
 * session make room for another's growing block: its slot is freed whole, into a class no block asks.
 */
function splitLarger(c: u32): usize {
  for (let d = c + 1; d < SIZE_CLASSES; d++) {
    const p = load<u32>(classHead(d));
    if (p == 0) continue;
    store<u32>(classHead(d), load<u32>(p + S_NEXT));
    const used = classSize(c);
    let at = p + used;
    let rest = classSize(d) - used;
    while (rest != 0) {
      let k = classOf(rest);
      if (classSize(k) > rest) k--;
      const piece = classSize(k);
      store<u32>(at + S_STATE, 0);
      store<u32>(at + S_NEXT, load<u32>(classHead(k)));
      store<u32>(classHead(k), at);
      at += piece;
      rest -= piece;
    }
    return <usize>p;
  }
  return 0;
}

/**
 * When the memory cannot grow: a free entry of class `c` cut from a larger one (splitLarger), or, when none is
 * larger, from the free lists once free neighbours are merged (coalesce); 0 when there is none.
 */
function fromLarger(c: u32): usize {
  let p = splitLarger(c);
  if (p != 0 || !coalesce()) return p;
  p = <usize>load<u32>(classHead(c));
  if (p != 0) {
    store<u32>(classHead(c), load<u32>(<u32>p + S_NEXT));
    return p;
  }
  return splitLarger(c);
}

/** Puts the `bytes` (a multiple of 64) from `at` on the free lists, in pieces of the largest classes that fit. */
function pushPieces(at: u32, bytes: u32): void {
  while (bytes != 0) {
    let k = classOf(bytes);
    if (classSize(k) > bytes) k--;
    const piece = classSize(k);
    store<u32>(at + S_STATE, 0);
    store<u32>(at + S_NEXT, load<u32>(classHead(k)));
    store<u32>(classHead(k), at);
    at += piece;
    bytes -= piece;
  }
}

/** Merges two lists of free entries sorted by address (linked through S_NEXT) into one. */
function mergeSorted(a: u32, b: u32): u32 {
  let head: u32 = 0;
  let tail: u32 = 0;
  while (a != 0 && b != 0) {
    let p: u32;
    if (a < b) {
      p = a;
      a = load<u32>(a + S_NEXT);
    } else {
      p = b;
      b = load<u32>(b + S_NEXT);
    }
    if (tail == 0) head = p;
    else store<u32>(tail + S_NEXT, p);
    tail = p;
  }
  const rest = a != 0 ? a : b;
  if (tail == 0) return rest;
  store<u32>(tail + S_NEXT, rest);
  return head;
}

/** Sorts a list of `n` free entries (linked through S_NEXT) by address: merge sort, in place. */
function sortByAddress(list: u32, n: u32): u32 {
  if (n < 2) return list;
  const half = n >> 1;
  let last = list;
  for (let i: u32 = 1; i < half; i++) last = load<u32>(last + S_NEXT);
  const second = load<u32>(last + S_NEXT);
  store<u32>(last + S_NEXT, 0);
  return mergeSorted(sortByAddress(list, half), sortByAddress(second, n - half));
}

/**
 * When the memory cannot grow and no free entry is large enough: merges the free slots and blocks that lie
 * side by side (the slots of one carved chunk, freed as their sessions are evicted, each too small alone for a
 * growing state ring) and puts each run back on the free lists in pieces of the largest classes. Runs only
 * when something was freed since it last ran (H_FREED); whether any two entries were merged.
 */
function coalesce(): bool {
  if (load<u32>(HEADER + H_FREED) == 0) return false;
  store<u32>(HEADER + H_FREED, 0);
  // every free entry in one list, its size in its S_COUNT word
  let all: u32 = 0;
  let n: u32 = 0;
  for (let c: u32 = 1; c < SIZE_CLASSES; c++) {
    const size = classSize(c);
    let p = load<u32>(classHead(c));
    while (p != 0) {
      const next = load<u32>(p + S_NEXT);
      store<u32>(p + S_COUNT, size);
      store<u32>(p + S_NEXT, all);
      all = p;
      n++;
      p = next;
    }
    store<u32>(classHead(c), 0);
  }
  let p = sortByAddress(all, n);
  let merged = false;
  while (p != 0) {
    let run: u64 = <u64>load<u32>(p + S_COUNT);
    let q = load<u32>(p + S_NEXT);
    while (q != 0 && <u64>p + run == <u64>q) {
      run += <u64>load<u32>(q + S_COUNT);
      q = load<u32>(q + S_NEXT);
      merged = true;
    }
    pushPieces(p, <u32>run);
    p = q;
  }
  return merged;
}

/** Returns a block of `bytes` bytes (as asked of allocBlock) to its class's free list. */
export function freeBlock(p: usize, bytes: u32): void {
  if (p == 0) return;
  const c = classOf(bytes);
  store<u32>(HEADER + H_FREED, 1);
  store<u32>(<u32>p + S_STATE, 0);
  store<u32>(<u32>p + S_NEXT, load<u32>(classHead(c)));
  store<u32>(classHead(c), <u32>p);
}

/**
 * Frees the side blocks of a slot: its semantic entries' sketch blocks (sketch-blocks.ts) and its state ring's
 * block (state-ring.ts), those its configuration has.
 */
function dropSideBlocks(s: u32, cfg: usize): void {
  if ((load<u32>(cfg + C_FLAGS) & CF_SEMANTIC) != 0) sketchDropAll(<usize>s, cfg);
  if ((load<u32>(cfg + C_FLAGS) & CF_STATE) == 0) return;
  const at = s + load<u32>(cfg + C_OFF_STATE);
  freeBlock(<usize>load<u32>(at), load<u32>(at + 4) << 2);
  store<u32>(at, 0);
  store<u32>(at + 4, 0);
}

/** Whether `s` looks like a live slot of a registered configuration. */
export function slotOk(s: u32): bool {
  if (s < <u32>__heap_base || (<u64>s + 16) > (<u64>memory.size() << 16)) return false;
  const id = load<u32>(s + S_CONFIG);
  if (id >= MAX_CONFIGS) return false;
  return (load<u32>(s + S_STATE) & SLOT_LIVE) != 0;
}

/** Returns a slot to its configuration's free list. 0 on success, 1 when `s` is not a live slot. */
export function freeSlot(s: u32): u32 {
  if (!slotOk(s)) return 1;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  dropSideBlocks(s, cfg);
  const c = classOf(load<u32>(cfg + C_SLOT_SIZE));
  store<u32>(HEADER + H_FREED, 1);
  store<u32>(s + S_STATE, 0);
  store<u32>(s + S_NEXT, load<u32>(classHead(c)));
  store<u32>(classHead(c), s);
  store<u32>(cfg + C_LIVE, load<u32>(cfg + C_LIVE) - 1);
  return 0;
}

/** Forgets a slot's calls and lifts a quarantine. 0 on success, 1 when `s` is not a live slot. */
export function resetSlot(s: u32): u32 {
  if (!slotOk(s)) return 1;
  const id = load<u32>(s + S_CONFIG);
  dropSideBlocks(s, configPtr(id));
  const size = load<u32>(configPtr(id) + C_SLOT_SIZE);
  memory.fill(s, 0, size);
  store<u32>(s + S_CONFIG, id);
  store<u32>(s + S_STATE, SLOT_LIVE);
  return 0;
}

/** Quarantines a slot (its session hit a trap): process() refuses it until resetSlot(). */
export function poisonSlot(s: u32): u32 {
  if (!slotOk(s)) return 1;
  store<u32>(s + S_STATE, load<u32>(s + S_STATE) | SLOT_POISONED);
  return 0;
}

/** Calls recorded in a slot. */
export function slotCount(s: u32): u32 {
  return slotOk(s) ? load<u32>(s + S_COUNT) : 0;
}
