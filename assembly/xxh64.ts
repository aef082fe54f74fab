// XXH64 (Yann Collet, xxHash, BSD-2-Clause; spec: https://github.com/Cyan4973/xxHash doc/xxhash_spec.md)
// over linear memory. The twin of src/fingerprint/xxh64.ts.

export const P1: u64 = 0x9e3779b185ebca87;
export const P2: u64 = 0xc2b2ae3d27d4eb4f;
export const P3: u64 = 0x165667b19e3779f9;
export const P4: u64 = 0x85ebca77c2b2ae63;
export const P5: u64 = 0x27d4eb2f165667c5;

// @ts-ignore: decorator
@inline export function round(acc: u64, input: u64): u64 {
  acc += input * P2;
  acc = rotl<u64>(acc, 31);
  return acc * P1;
}

// @ts-ignore: decorator
@inline function mergeRound(acc: u64, val: u64): u64 {
  val = round(0, val);
  acc ^= val;
  return acc * P1 + P4;
}

/** The four accumulators of the 32-byte stripes folded into one (XXH64's convergence step). */
// @ts-ignore: decorator
@inline export function converge(v1: u64, v2: u64, v3: u64, v4: u64): u64 {
  let h = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18);
  h = mergeRound(h, v1);
  h = mergeRound(h, v2);
  h = mergeRound(h, v3);
  return mergeRound(h, v4);
}

// @ts-ignore: decorator
@inline export function avalanche(h: u64): u64 {
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

/** XXH64 of memory [ptr, ptr + len) with a 64-bit seed. */
export function xxh64(ptr: usize, len: usize, seed: u64): u64 {
  let p = ptr;
  const end = ptr + len;
  let h: u64;
  if (len >= 32) {
    let v1 = seed + P1 + P2;
    let v2 = seed + P2;
    let v3 = seed;
    let v4 = seed - P1;
    const limit = end - 32;
    while (p <= limit) {
      v1 = round(v1, load<u64>(p));
      v2 = round(v2, load<u64>(p, 8));
      v3 = round(v3, load<u64>(p, 16));
      v4 = round(v4, load<u64>(p, 24));
      p += 32;
    }
    h = converge(v1, v2, v3, v4);
  } else {
    h = seed + P5;
  }
  return finish(h + <u64>len, p, end);
}

/** XXH64's last steps: the bytes [p, end) after the last whole stripe (fewer than 32) into h, then the avalanche. */
// @ts-ignore: decorator
@inline export function finish(h: u64, p: usize, end: usize): u64 {
  while (p + 8 <= end) {
    h ^= round(0, load<u64>(p));
    h = rotl<u64>(h, 27) * P1 + P4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= <u64>load<u32>(p) * P1;
    h = rotl<u64>(h, 23) * P2 + P3;
    p += 4;
  }
  while (p < end) {
    h ^= <u64>load<u8>(p) * P5;
    h = rotl<u64>(h, 11) * P1;
    p++;
  }
  return avalanche(h);
}

/** The second hash xxh64Pair computed last. */
let pairSecond: u64 = 0;

/** xxh64Pair's second hash (of the same bytes, with its second seed). */
export function xxh64PairSecond(): u64 {
  return pairSecond;
}

/**
 * XXH64 of memory [ptr, ptr + len) with seed `a` (returned) and with seed `b` (xxh64PairSecond()), in one
 * pass: each 8-byte word is loaded once and goes into both hashes' rounds, whose chains are independent.
 */
export function xxh64Pair(ptr: usize, len: usize, a: u64, b: u64): u64 {
  let p = ptr;
  const end = ptr + len;
  let h: u64;
  let g: u64;
  if (len >= 32) {
    let v1 = a + P1 + P2;
    let v2 = a + P2;
    let v3 = a;
    let v4 = a - P1;
    let w1 = b + P1 + P2;
    let w2 = b + P2;
    let w3 = b;
    let w4 = b - P1;
    const limit = end - 32;
    while (p <= limit) {
      const x1 = load<u64>(p);
      const x2 = load<u64>(p, 8);
      const x3 = load<u64>(p, 16);
      const x4 = load<u64>(p, 24);
      v1 = round(v1, x1);
      w1 = round(w1, x1);
      v2 = round(v2, x2);
      w2 = round(w2, x2);
      v3 = round(v3, x3);
      w3 = round(w3, x3);
      v4 = round(v4, x4);
      w4 = round(w4, x4);
      p += 32;
    }
    h = converge(v1, v2, v3, v4);
    g = converge(w1, w2, w3, w4);
  } else {
    h = a + P5;
    g = b + P5;
  }
  h += <u64>len;
  g += <u64>len;
  while (p + 8 <= end) {
    const k = round(0, load<u64>(p));
    h ^= k;
    g ^= k;
    h = rotl<u64>(h, 27) * P1 + P4;
    g = rotl<u64>(g, 27) * P1 + P4;
    p += 8;
  }
  if (p + 4 <= end) {
    const k = <u64>load<u32>(p) * P1;
    h ^= k;
    g ^= k;
    h = rotl<u64>(h, 23) * P2 + P3;
    g = rotl<u64>(g, 23) * P2 + P3;
    p += 4;
  }
  while (p < end) {
    const k = <u64>load<u8>(p) * P5;
    h ^= k;
    g ^= k;
    h = rotl<u64>(h, 11) * P1;
    g = rotl<u64>(g, 11) * P1;
    p++;
  }
  pairSecond = avalanche(g);
  return avalanche(h);
}
