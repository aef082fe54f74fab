/**
 * XXH64 (Yann Collet, xxHash, BSD-2-Clause; https://github.com/Cyan4973/xxHash, spec in doc/xxhash_spec.md)
 * in plain TypeScript over 32-bit word pairs.
 *
 * This is the reference the WebAssembly build reproduces bit for bit; the tests check it against the
 * `xxhash-wasm` package. Results come back as the low word, with the high word in `u64.hi`.
 */
import { add, mul, rotl, u64, xorShr } from './u64.js';

/** XXH64 prime 1, high and low words. */
export const P1H = 0x9e3779b1;
/** @see P1H */
export const P1L = 0x85ebca87;
/** XXH64 prime 2. */
export const P2H = 0xc2b2ae3d;
/** @see P2H */
export const P2L = 0x27d4eb4f;
/** XXH64 prime 3. */
export const P3H = 0x165667b1;
/** @see P3H */
export const P3L = 0x9e3779f9;
/** XXH64 prime 4. */
export const P4H = 0x85ebca77;
/** @see P4H */
export const P4L = 0xc2b2ae63;
/** XXH64 prime 5. */
export const P5H = 0x27d4eb2f;
/** @see P5H */
export const P5L = 0x165667c5;

/** One accumulator round: `acc = rotl(acc + input * P2, 31) * P1`. */
export function round(ah: number, al: number, ih: number, il: number): number {
  let l = mul(ih, il, P2H, P2L);
  let h = u64.hi;
  l = add(ah, al, h, l);
  h = u64.hi;
  l = rotl(h, l, 31);
  h = u64.hi;
  return mul(h, l, P1H, P1L);
}

/** The final avalanche: three xor-shifts and two multiplications. */
export function avalanche(h: number, l: number): number {
  l = xorShr(h, l, 33);
  h = u64.hi;
  l = mul(h, l, P2H, P2L);
  h = u64.hi;
  l = xorShr(h, l, 29);
  h = u64.hi;
  l = mul(h, l, P3H, P3L);
  h = u64.hi;
  return xorShr(h, l, 32);
}

function mergeRound(ah: number, al: number, vh: number, vl: number): number {
  let l = round(0, 0, vh, vl);
  let h = u64.hi;
  h = (ah ^ h) >>> 0;
  l = (al ^ l) >>> 0;
  l = mul(h, l, P1H, P1L);
  h = u64.hi;
  return add(h, l, P4H, P4L);
}

function read32(b: Uint8Array, p: number): number {
  return ((b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24)) >>> 0;
}

/**
 * XXH64 of `bytes[start, end)` with a 64-bit seed. Returns the low word; the high word is in `u64.hi`.
 */
export function xxh64(bytes: Uint8Array, start: number, end: number, seedHi: number, seedLo: number): number {
  const len = end - start;
  let p = start;
  let h: number;
  let l: number;
  if (len >= 32) {
    let v1l = add(seedHi, seedLo, P1H, P1L);
    let v1h = u64.hi;
    v1l = add(v1h, v1l, P2H, P2L);
    v1h = u64.hi;
    let v2l = add(seedHi, seedLo, P2H, P2L);
    let v2h = u64.hi;
    let v3h = seedHi >>> 0;
    let v3l = seedLo >>> 0;
    // seed - P1 == seed + (2^64 - P1)
    let v4l = add(seedHi, seedLo, ~P1H >>> 0, ((~P1L >>> 0) + 1) >>> 0);
    let v4h = u64.hi;
    const limit = end - 32;
    while (p <= limit) {
      v1l = round(v1h, v1l, read32(bytes, p + 4), read32(bytes, p));
      v1h = u64.hi;
      v2l = round(v2h, v2l, read32(bytes, p + 12), read32(bytes, p + 8));
      v2h = u64.hi;
      v3l = round(v3h, v3l, read32(bytes, p + 20), read32(bytes, p + 16));
      v3h = u64.hi;
      v4l = round(v4h, v4l, read32(bytes, p + 28), read32(bytes, p + 24));
      v4h = u64.hi;
      p += 32;
    }
    l = rotl(v1h, v1l, 1);
    h = u64.hi;
    let tl = rotl(v2h, v2l, 7);
    let th = u64.hi;
    l = add(h, l, th, tl);
    h = u64.hi;
    tl = rotl(v3h, v3l, 12);
    th = u64.hi;
    l = add(h, l, th, tl);
    h = u64.hi;
    tl = rotl(v4h, v4l, 18);
    th = u64.hi;
    l = add(h, l, th, tl);
    h = u64.hi;
    l = mergeRound(h, l, v1h, v1l);
    h = u64.hi;
    l = mergeRound(h, l, v2h, v2l);
    h = u64.hi;
    l = mergeRound(h, l, v3h, v3l);
    h = u64.hi;
    l = mergeRound(h, l, v4h, v4l);
    h = u64.hi;
  } else {
    l = add(seedHi, seedLo, P5H, P5L);
    h = u64.hi;
  }
  // h += len (len < 2^53, split into words)
  l = add(h, l, Math.floor(len / 4294967296) >>> 0, len >>> 0);
  h = u64.hi;
  while (p + 8 <= end) {
    let kl = round(0, 0, read32(bytes, p + 4), read32(bytes, p));
    const kh = u64.hi;
    h = (h ^ kh) >>> 0;
    l = (l ^ kl) >>> 0;
    l = rotl(h, l, 27);
    h = u64.hi;
    l = mul(h, l, P1H, P1L);
    h = u64.hi;
    kl = add(h, l, P4H, P4L);
    h = u64.hi;
    l = kl;
    p += 8;
  }
  if (p + 4 <= end) {
    const kl = mul(0, read32(bytes, p), P1H, P1L);
    const kh = u64.hi;
    h = (h ^ kh) >>> 0;
    l = (l ^ kl) >>> 0;
    l = rotl(h, l, 23);
    h = u64.hi;
    l = mul(h, l, P2H, P2L);
    h = u64.hi;
    l = add(h, l, P3H, P3L);
    h = u64.hi;
    p += 4;
  }
  while (p < end) {
    const kl = mul(0, bytes[p] as number, P5H, P5L);
    const kh = u64.hi;
    h = (h ^ kh) >>> 0;
    l = (l ^ kl) >>> 0;
    l = rotl(h, l, 11);
    h = u64.hi;
    l = mul(h, l, P1H, P1L);
    h = u64.hi;
    p++;
  }
  return avalanche(h, l);
}
