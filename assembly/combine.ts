// Structural combinators: the twin of src/fingerprint/combine.ts.
import { avalanche, round } from './xxh64';

export const TAG_NULL: u64 = 1;
export const TAG_FALSE: u64 = 2;
export const TAG_TRUE: u64 = 3;
export const TAG_NUMBER: u64 = 4;
export const TAG_STRING: u64 = 5;
export const TAG_BIGINT: u64 = 6;
export const TAG_ARRAY: u64 = 7;
export const TAG_OBJECT: u64 = 8;
export const TAG_PAIR: u64 = 9;
export const TAG_MAP: u64 = 10;
export const TAG_SET: u64 = 11;
export const TAG_CYCLE: u64 = 12;
export const TAG_DEEP: u64 = 13;
export const TAG_CALL: u64 = 14;
export const TAG_RESULT: u64 = 15;
export const TAG_ERROR: u64 = 16;
export const TAG_ERROR_CLASS: u64 = 17;
export const TAG_TOKEN: u64 = 18;
export const TAG_STATE: u64 = 19;
export const TAG_UNSUPPORTED: u64 = 20;
export const TAG_BYTES: u64 = 22;
export const TAG_MASKED_RESULT: u64 = 23;
export const TAG_MANY: u64 = 24;
export const TAG_TEST_PLACE: u64 = 25;

// @ts-ignore: decorator
@inline export function word(tag: u64, w: u64): u64 {
  return avalanche(round(tag, w));
}

// @ts-ignore: decorator
@inline export function fold(acc: u64, v: u64): u64 {
  return round(acc, v);
}

// @ts-ignore: decorator
@inline export function close(acc: u64, count: u64): u64 {
  return avalanche(round(acc, count));
}

// @ts-ignore: decorator
@inline export function pair(k: u64, v: u64): u64 {
  return avalanche(round(round(TAG_PAIR, k), v));
}

// @ts-ignore: decorator
@inline export function combine2(tag: u64, a: u64, b: u64): u64 {
  return avalanche(round(round(tag, a), b));
}

/** Fingerprint of a float64: -0 folded into 0, every NaN one NaN. */
export function hashNumber(x: f64): u64 {
  if (x != x) return word(TAG_NUMBER, 0x7ff8000000000000);
  return word(TAG_NUMBER, reinterpret<u64>(x + 0.0));
}
