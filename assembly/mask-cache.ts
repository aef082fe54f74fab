// Masked hashes remembered by text. The masked hash of a result or an error (what result repeat and dead
// end compare) is a function of its first MASK_LIMIT bytes alone, and loops repeat their outcomes (a third
// of the traces' results are the text of an earlier one), while masking costs some twenty times what
// hashing the same bytes does: a text met recently gets its masked hash from here instead of masked again.
//
//   entry: [key u64 | text length u32 | kind u32 | masked hash u32 | outcome flags read with it u32]
//   direct-mapped, MASK_CACHE_SLOTS entries, in a zeroed region (slots.ts's zeroedRegion) made with the
//   thread's instance (its pointer in the header, so it survives re-instantiation; none: every lookup misses); a key is written last, and cleared before its entry is rewritten, so an
//   entry interrupted by a trap is never found.
//
// The key is a 64-bit hash the caller has of the text (a text result's own hash, covering it whole; the
// error's; for a result given as a value, the hash of its text as far as masking reads it), `kind` says
// which, and the length is compared too: a hit gives exactly what masking would, unless two texts of the
// same kind and length share a 64-bit hash, the odds signatures already live with.
import { HEADER, H_MASK_CACHE, MASK_CACHE_SLOTS } from './abi';
import { zeroedRegion } from './slots';

/** Kinds of keyed text: a text result (its hash), a value's result text (cut), an error (its hash). */
export const MK_RESULT: u32 = 1;
export const MK_RESULT_TEXT: u32 = 2;
export const MK_ERROR: u32 = 3;

const ENTRY: u32 = 24;

let at: usize = 0; // the entry of the last lookup
let key: u64 = 0;
let textLen: u32 = 0;
let textKind: u32 = 0;
let found: u32 = 0;
let foundFlags: u32 = 0;

/** Bytes of the cache's region. */
const BYTES: u32 = MASK_CACHE_SLOTS * ENTRY;

/** Makes the cache's region (once: when the thread's instance is made); its address, 0 when memory cannot grow. */
export function maskCacheRegion(): usize {
  return zeroedRegion(H_MASK_CACHE, BYTES);
}

/**
 * Looks up the masked hash of a text of kind `kind`, `n` bytes, keyed `fp`; true on a hit (maskedFound()
 * gives it). Either way it remembers where a miss is to be stored (maskedRemember).
 */
export function maskedKnown(fp: u64, n: u32, kind: u32): bool {
  const r = <usize>load<u32>(HEADER + H_MASK_CACHE);
  if (r == 0) {
    at = 0;
    return false;
  }
  // never 0: 0 marks an empty entry
  key = fp | 1;
  textLen = n;
  textKind = kind;
  at = r + <usize>((<u32>(fp >> 32) ^ <u32>fp) & (MASK_CACHE_SLOTS - 1)) * ENTRY;
  if (load<u64>(at) != key || load<u32>(at, 8) != n || load<u32>(at, 12) != kind) return false;
  found = load<u32>(at, 16);
  foundFlags = load<u32>(at, 20);
  return true;
}

/** The masked hash the last maskedKnown() found. */
export function maskedFound(): u32 {
  return found;
}

/** The outcome flags remembered with the masked hash the last maskedKnown() found (OF_TESTS of an error). */
export function maskedFoundFlags(): u32 {
  return foundFlags;
}

/** Remembers `masked` for the text the last lookup missed, and `flags`, outcome flags read of the text with it. */
export function maskedRemember(masked: u32, flags: u32 = 0): void {
  if (at == 0) return;
  store<u64>(at, 0);
  store<u32>(at, textLen, 8);
  store<u32>(at, textKind, 12);
  store<u32>(at, masked, 16);
  store<u32>(at, flags, 20);
  store<u64>(at, key);
}

