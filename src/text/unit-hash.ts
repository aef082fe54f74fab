/**
 * Polynomial hashes of runs of UTF-16 code units, modulo 2^32, in two odd bases: a summary of a long
 * string keeps the hashes of its prefix and suffix (args-summary.ts), and a comparison extends them by the
 * units it keeps to test whether two strings agree from or up to some position (summary-similarity.ts).
 * `H(u_0 .. u_{m-1}) = sum u_i B^(m-1-i) mod 2^32`, so
 *
 * ```
 *   H(x ++ y) = H(x) * B^|y| + H(y)        (what extending either way needs)
 * ```
 *
 * Two bases make a 64-bit check; strings built to collide (Thue-Morse sequences) are the known weakness of
 * hashes modulo a power of two, and a collision only makes two different long strings compare as equal.
 */

/** The two bases (odd). */
export const BASE_1 = 0x01000193;
export const BASE_2 = 0x5bd1e995;

/** `B^e mod 2^32`. */
export function powHash(base: number, e: number): number {
  let r = 1;
  let x = base;
  while (e > 0) {
    if ((e & 1) === 1) r = Math.imul(r, x);
    x = Math.imul(x, x);
    e = Math.floor(e / 2);
  }
  return r >>> 0;
}

/** `H(x ++ y)` from `H(x)`, `H(y)` and `|y|`. */
export function joinHash(hx: number, base: number, hy: number, yLength: number): number {
  return (Math.imul(hx, powHash(base, yLength)) + hy) >>> 0;
}

/** `H` of units `s[from, to)` of a string, in one base. */
export function stringHash(s: string, from: number, to: number, base: number): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, base) + s.charCodeAt(i)) | 0;
  return h >>> 0;
}

/** `H` of units `u[from, to)`, in one base. */
export function unitsHash(u: Uint16Array, from: number, to: number, base: number): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, base) + (u[i] as number)) | 0;
  return h >>> 0;
}
