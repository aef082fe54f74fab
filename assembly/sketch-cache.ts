// Sketches remembered by action text. An action's distinct-token count and bottom-k sketch depend only on
// its text and on the tokenising options (masking, maxTokens, k), and agents repeat their actions (loops,
// polls, re-runs, the same file read again): the text is hashed (xxh64, some ten times cheaper than
// tokenising it), and a text met recently gets its count and sketch copied instead of tokenised again.
//
//   entry: [key u64 | text length u32 | count u32 | sketch length u32 | pad] [sketch: MAX_SKETCH_K x u32]
//   direct-mapped, SKETCH_CACHE_SLOTS entries, in a zeroed region (slots.ts's zeroedRegion) made with the
//   thread's instance (its pointer in the header, so it survives re-instantiation; none: every lookup misses); a key is written last, and cleared before its entry is rewritten,
//   so an entry interrupted by a trap is never found.
//
// A hit gives exactly what tokenising would (the same count and sketch written the same way), unless two
// texts of the same length share a 64-bit hash: the odds signatures already live with.
import { HEADER, H_SKETCH_CACHE, MAX_SKETCH_K, SEM_LEN_BITS, SEM_LEN_MASK, SKETCH_CACHE_SLOTS } from './abi';
import { semHead } from './sem-entry';
import { zeroedRegion } from './slots';
import { xxh64 } from './xxh64';

const ENTRY: u32 = 24 + MAX_SKETCH_K * 4;

let at: usize = 0; // the entry of the last lookup
let key: u64 = 0;
let textLen: u32 = 0;

/** Bytes of the cache's region. */
const BYTES: u32 = SKETCH_CACHE_SLOTS * ENTRY;

/** Makes the cache's region (once: when the thread's instance is made); its address, 0 when memory cannot grow. */
export function sketchCacheRegion(): usize {
  return zeroedRegion(H_SKETCH_CACHE, BYTES);
}

/**
 * Looks up text [p, p + n) tokenised with options `seed`; true on a hit, when the count, sketch length
 * and sketch are written to `entry` (the slot's semantic entry: its head word, semHead, then the sketch). Either
 * way it remembers where a miss is to be stored (sketchRemember).
 */
export function sketchLookup(p: usize, n: u32, seed: u64, entry: usize): bool {
  const r = <usize>load<u32>(HEADER + H_SKETCH_CACHE);
  if (r == 0) {
    at = 0;
    return false;
  }
  // never 0: 0 marks an empty entry
  key = xxh64(p, n, seed) | 1;
  textLen = n;
  at = r + <usize>((<u32>key >> 1) & (SKETCH_CACHE_SLOTS - 1)) * ENTRY;
  if (load<u64>(at) != key || load<u32>(at, 8) != n) return false;
  const len = load<u32>(at, 16);
  store<u32>(entry, semHead(load<u32>(at, 12), len));
  memory.copy(entry + 4, at + 24, <usize>len << 2);
  return true;
}

/** Remembers the count and sketch the last lookup missed (as tokenize wrote them to `entry`). */
export function sketchRemember(entry: usize): void {
  if (at == 0) return;
  const len = load<u32>(entry) & SEM_LEN_MASK;
  if (len > MAX_SKETCH_K) return;
  store<u64>(at, 0);
  store<u32>(at, textLen, 8);
  store<u32>(at, load<u32>(entry) >> SEM_LEN_BITS, 12);
  store<u32>(at, len, 16);
  memory.copy(at + 24, entry + 4, <usize>len << 2);
  store<u64>(at, key);
}
