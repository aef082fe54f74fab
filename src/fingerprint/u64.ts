/**
 * Unsigned 64-bit arithmetic on pairs of 32-bit words, without BigInt and without allocation.
 *
 * Every operation takes its operands as `(hi, lo)` words, returns the low word of the result and leaves
 * the high word in {@link u64.hi}. Callers read `u64.hi` right after the call, before the next operation:
 *
 * ```
 * const lo = mul(ah, al, bh, bl); const hi = u64.hi;
 * ```
 *
 * This is the arithmetic the xxh64 reference and the structural combinators are written in; the
 * AssemblyScript twin uses native `u64` and must produce the same bits.
 */

/** Result register: the high word of the last operation. */
export const u64 = { hi: 0 };

const TWO32 = 4294967296;

/** `a + b` mod 2^64. */
export function add(ah: number, al: number, bh: number, bl: number): number {
  const lo = al + bl;
  const carry = lo >= TWO32 ? 1 : 0;
  u64.hi = (ah + bh + carry) >>> 0;
  return lo >>> 0;
}

/** `a * b` mod 2^64. */
export function mul(ah: number, al: number, bh: number, bl: number): number {
  // High word of the 32x32 product of the low words, from 16-bit limbs (every partial product < 2^32).
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p10 = a1 * b0;
  const p01 = a0 * b1;
  const carry = (((a0 * b0) >>> 16) + (p10 & 0xffff) + (p01 & 0xffff)) >>> 16;
  const mulhi = a1 * b1 + (p10 >>> 16) + (p01 >>> 16) + carry;
  u64.hi = (mulhi + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
  return Math.imul(al, bl) >>> 0;
}

/** Rotate left by `r` bits, 0 < r < 64. */
export function rotl(h: number, l: number, r: number): number {
  if (r >= 32) {
    const t = h;
    h = l;
    l = t;
    r -= 32;
  }
  if (r === 0) {
    u64.hi = h >>> 0;
    return l >>> 0;
  }
  u64.hi = ((h << r) | (l >>> (32 - r))) >>> 0;
  return ((l << r) | (h >>> (32 - r))) >>> 0;
}

/** `a ^ (a >>> s)` for 0 < s < 64: the shift-xor step of the avalanche. */
export function xorShr(h: number, l: number, s: number): number {
  let sh: number;
  let sl: number;
  if (s >= 32) {
    sh = 0;
    sl = h >>> (s - 32);
  } else {
    sh = h >>> s;
    sl = ((l >>> s) | (h << (32 - s))) >>> 0;
  }
  u64.hi = (h ^ sh) >>> 0;
  return (l ^ sl) >>> 0;
}

/** Two lowercase hex digits for each byte value. */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Formats a 64-bit value as 16 lowercase hex digits (bits above 32 of either word ignored). A byte at a
 * time from a table: ~120 ns against ~500 for two `toString(16).padStart(8)` (node 20), and propose()
 * makes one per call.
 */
export function toHex(hi: number, lo: number): string {
  const t = BYTE_HEX;
  return (
    (t[(hi >>> 24) & 255] as string) +
    (t[(hi >>> 16) & 255] as string) +
    (t[(hi >>> 8) & 255] as string) +
    (t[hi & 255] as string) +
    (t[(lo >>> 24) & 255] as string) +
    (t[(lo >>> 16) & 255] as string) +
    (t[(lo >>> 8) & 255] as string) +
    (t[lo & 255] as string)
  );
}

/** Converts a 64-bit value to a BigInt (for tests and display only; never on a hot path). */
export function toBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
