/**
 * The structural combinators that turn member fingerprints into the fingerprint of a whole value.
 *
 * ```
 * leaf(tag, bytes)   = xxh64(bytes, seed = tag)
 * word(tag, w)       = avalanche(round(tag, w))                  numbers (f64 bits), constants
 * array(e1..en)      = avalanche(round(fold(ARRAY, e1..en), n))  fold(a, e) = round(a, e): order matters
 * pair(k, v)         = avalanche(round(round(PAIR, k), v))
 * object({k: v}...)  = avalanche(round(round(OBJECT, SUM pair(k, v) mod 2^64), n))
 * ```
 *
 * The member sum makes an object's fingerprint independent of key order without sorting: it is what lets
 * the WebAssembly build hash JSON text in one pass. Tags are small integers used as 64-bit seeds.
 */
import { add, u64 } from './u64.js';
import { avalanche, round } from './xxh64.js';

/** Seeds that keep the fingerprints of different kinds of value apart. */
export const Tag = {
  NULL: 1,
  FALSE: 2,
  TRUE: 3,
  NUMBER: 4,
  STRING: 5,
  BIGINT: 6,
  ARRAY: 7,
  OBJECT: 8,
  PAIR: 9,
  MAP: 10,
  SET: 11,
  CYCLE: 12,
  DEEP: 13,
  CALL: 14,
  RESULT: 15,
  ERROR: 16,
  ERROR_CLASS: 17,
  TOKEN: 18,
  STATE: 19,
  UNSUPPORTED: 20,
  TEXT_CHUNK: 21,
  BYTES: 22,
  MASKED_RESULT: 23,
  MANY: 24,
  TEST_PLACE: 25,
} as const;

/** `avalanche(round(tag, w))`: the fingerprint of one 64-bit word under a tag. Low word returned, high in `u64.hi`. */
export function word(tag: number, wh: number, wl: number): number {
  const l = round(0, tag, wh, wl);
  return avalanche(u64.hi, l);
}

/** One order-dependent fold step: `round(acc, v)`. */
export function fold(ah: number, al: number, vh: number, vl: number): number {
  return round(ah, al, vh, vl);
}

/** Closes a fold of `count` members: `avalanche(round(acc, count))`. */
export function close(ah: number, al: number, count: number): number {
  const l = round(ah, al, Math.floor(count / 4294967296) >>> 0, count >>> 0);
  return avalanche(u64.hi, l);
}

/** The fingerprint of one key/value pair of an object or map. */
export function pair(kh: number, kl: number, vh: number, vl: number): number {
  let l = round(0, Tag.PAIR, kh, kl);
  l = round(u64.hi, l, vh, vl);
  return avalanche(u64.hi, l);
}

/** Adds a member fingerprint into an order-independent sum. */
export function sum(sh: number, sl: number, vh: number, vl: number): number {
  return add(sh, sl, vh, vl);
}

/** Combines two fingerprints in order under a tag: `avalanche(round(round(tag, a), b))`. */
export function combine2(tag: number, ah: number, al: number, bh: number, bl: number): number {
  let l = round(0, tag, ah, al);
  l = round(u64.hi, l, bh, bl);
  return avalanche(u64.hi, l);
}
