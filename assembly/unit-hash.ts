// The polynomial hashes of src/text/unit-hash.ts over bytes, for similar args' summaries of long strings
// (src/text/args-summary.ts): the host writes a string whose code units are all below 128 as one byte a
// unit, and one call hashes its start, middle and end in both bases, eight units a step.
//
//   H(u_0 .. u_{m-1}) = sum u_i B^(m-1-i) mod 2^32
//
// Eight lanes (two vectors) per base: lane j of a step t holds the sum over the units 8t + j, each step
// multiplying by B^8, so after T steps H(first 8T units) = sum_j lane_j * B^(7-j); the last m mod 8 units
// go one at a time (H(x ++ u) = H(x) * B + u). The same sums modulo 2^32 as the host's loop, so the same
// hashes to the bit (test/similar-args-module-hash.test.ts).

/** The bases of src/text/unit-hash.ts. */
const BASE_1: u32 = 0x01000193;
const BASE_2: u32 = 0x5bd1e995;

/** `b^e mod 2^32`. */
export function power(b: u32, e: u32): u32 {
  let r: u32 = 1;
  let x = b;
  while (e != 0) {
    if ((e & 1) != 0) r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

/** The weights of the lanes when the steps are summed: [b^3, b^2, b, 1]. */
function weights(b: u32): v128 {
  let w = i32x4.splat(1);
  w = i32x4.replace_lane(w, 2, b);
  w = i32x4.replace_lane(w, 1, b * b);
  w = i32x4.replace_lane(w, 0, b * b * b);
  return w;
}

/** The sum of a vector's lanes (mod 2^32). */
// @ts-ignore: decorator
@inline function lanes(v: v128): u32 {
  return <u32>(i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3));
}

/** H of bytes [p, p + n) in both bases, stored as u32 at `out` (base 1) and `out + 4` (base 2). */
function hashRun(p: usize, n: u32, out: usize): void {
  const b1 = BASE_1;
  const b2 = BASE_2;
  let h1: u32 = 0;
  let h2: u32 = 0;
  let i: u32 = 0;
  if (n >= 16) {
    const m1 = i32x4.splat(power(b1, 8));
    const m2 = i32x4.splat(power(b2, 8));
    let a1 = i32x4.splat(0);
    let c1 = i32x4.splat(0);
    let a2 = i32x4.splat(0);
    let c2 = i32x4.splat(0);
    for (; i + 8 <= n; i += 8) {
      const v = v128.load8x8_u(p + <usize>i);
      const lo = i32x4.extend_low_i16x8_u(v);
      const hi = i32x4.extend_high_i16x8_u(v);
      a1 = i32x4.add(i32x4.mul(a1, m1), lo);
      c1 = i32x4.add(i32x4.mul(c1, m1), hi);
      a2 = i32x4.add(i32x4.mul(a2, m2), lo);
      c2 = i32x4.add(i32x4.mul(c2, m2), hi);
    }
    // units 8t .. 8t + 3 weigh b^4 more than units 8t + 4 .. 8t + 7
    const w1 = weights(b1);
    const w2 = weights(b2);
    const q1 = power(b1, 4);
    const q2 = power(b2, 4);
    h1 = lanes(i32x4.add(i32x4.mul(a1, i32x4.mul(w1, i32x4.splat(q1))), i32x4.mul(c1, w1)));
    h2 = lanes(i32x4.add(i32x4.mul(a2, i32x4.mul(w2, i32x4.splat(q2))), i32x4.mul(c2, w2)));
  }
  for (; i < n; i++) {
    const u = <u32>load<u8>(p + <usize>i);
    h1 = h1 * b1 + u;
    h2 = h2 * b2 + u;
  }
  store<u32>(out, h1);
  store<u32>(out, h2, 4);
}

/**
 * The hashes a long string's summary is made of, over its `n` bytes at `p` (one a unit): of units [0, k),
 * [k, n - k) and [n - k, n), each in both bases, as six u32 at `out` (head 1, head 2, middle 1, middle 2,
 * tail 1, tail 2). `n` is at least `2 * k`.
 */
export function longStringHashes(p: usize, n: u32, k: u32, out: usize): void {
  hashRun(p, k, out);
  hashRun(p + <usize>k, n - 2 * k, out + 8);
  hashRun(p + <usize>(n - k), k, out + 16);
}
