/**
 * A byte-exact packing of similar args' larger summaries (summary-ring.ts keeps those over
 * {@link PACK_OVER} bytes packed when that is smaller): LZ77 in the sequence format of LZ4's block format
 * (Yann Collet, https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md), greedy, one hash table of
 * 4-byte groups, matches at most 65,535 bytes back (a summary is at most 4,096 bytes).
 *
 * ```
 *   sequence: token (literals << 4 | match length - 4, each 15 = more in the bytes after: 255, 255, ..., < 255)
 *             [more literals' length]  literals  offset u16 LE  [more match length]
 *   the last sequence: token and literals only (no offset)
 * ```
 *
 * A summary over 768 B holds more than one long string's kept units (text: an edit's old and new text, say),
 * which packs to about half. Packing every summary over 256 B (one long string is enough: the traces' calls,
 * 713 B mean) kept 1,842 rather than 2,551 B of blocks a session after 100 real
 * calls but cost ~10% a call with every detector; over 768 B ~2.7% for 2,136 B of summary chunks (2,454 before;
 * branch mem39, docs/speed.md). Unpacking gives back the very bytes packed, so every comparison reads what it
 * read before.
 */

/** Summaries longer than this are packed (when packing makes them smaller): see the header for why 768. */
export const PACK_OVER = 768;

/** Bits of the hash table's index. */
const HASH_BITS = 10;
/** Where the hash table last saw each 4-byte group's hash (-1: not in this packing; filled at each packing's start). */
const seen = new Int32Array(1 << HASH_BITS);
/** The group seen there: a candidate is told from a collision without reading its bytes. */
const seenGroup = new Int32Array(1 << HASH_BITS);

/** The 4 bytes at `i` as one number. */
function group(a: Uint8Array, i: number): number {
  return (a[i] as number) | ((a[i + 1] as number) << 8) | ((a[i + 2] as number) << 16) | ((a[i + 3] as number) << 24);
}

/** Writes a length's bytes past the 15 its token holds; returns the next place in `out`. */
function moreLength(out: Uint8Array, o: number, n: number): number {
  let r = n - 15;
  while (r >= 255) {
    out[o++] = 255;
    r -= 255;
  }
  out[o++] = r;
  return o;
}

/**
 * Packs the `n` bytes at `from` of `src` into `out` from 0; returns the packed length, or -1 when it would
 * not be smaller than `n` (then `out` holds nothing of use). `out` must hold `n` bytes.
 */
export function packSummary(src: Uint8Array, from: number, n: number, out: Uint8Array): number {
  // one native fill of 4 KB: cheaper than telling this packing's entries from older ones at every byte
  seen.fill(-1);
  const end = from + n;
  // a match starts at least 5 bytes before the end (LZ4's rule: the last bytes are literals)
  const last = end - 5;
  let o = 0;
  let anchor = from;
  let i = from;
  // the group at i, rolled on a byte at a time past bytes no match starts at (read afresh after a match)
  let v = i < last ? group(src, i) : 0;
  while (i < last) {
    const k = Math.imul(v, -1640531535) >>> (32 - HASH_BITS);
    const c = seen[k] as number;
    const cv = seenGroup[k] as number;
    seen[k] = i;
    seenGroup[k] = v;
    if (c < 0 || cv !== v) {
      i++;
      v = (v >>> 8) | ((src[i + 3] as number) << 24);
      continue;
    }
    let length = 4;
    while (i + length < end && src[c + length] === src[i + length]) length++;
    const literals = i - anchor;
    // token, literals, their length's bytes (at most literals / 128 + 1), offset, the match length's bytes: never past n
    if (o + 1 + literals + (literals >> 7) + 1 + 2 + ((length - 4) >> 7) + 1 >= n) return -1;
    out[o++] = (Math.min(literals, 15) << 4) | Math.min(length - 4, 15);
    if (literals >= 15) o = moreLength(out, o, literals);
    for (let j = 0; j < literals; j++) out[o++] = src[anchor + j] as number;
    const back = i - c;
    out[o++] = back & 0xff;
    out[o++] = back >>> 8;
    if (length - 4 >= 15) o = moreLength(out, o, length - 4);
    i += length;
    anchor = i;
    if (i < last) v = group(src, i);
  }
  const literals = end - anchor;
  if (o + 1 + literals + (literals >> 7) + 1 >= n) return -1;
  out[o++] = Math.min(literals, 15) << 4;
  if (literals >= 15) o = moreLength(out, o, literals);
  for (let j = 0; j < literals; j++) out[o++] = src[anchor + j] as number;
  return o;
}

/**
 * Unpacks the `m` bytes at `from` of `packed` (what packSummary wrote) into `out` from 0; returns the bytes
 * written. `out` must hold the bytes packed.
 */
export function unpackSummary(packed: Uint8Array, from: number, m: number, out: Uint8Array): number {
  const end = from + m;
  let i = from;
  let o = 0;
  while (i < end) {
    const token = packed[i++] as number;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        b = packed[i++] as number;
        literals += b;
      } while (b === 255);
    }
    if (literals <= 16) for (let j = 0; j < literals; j++) out[o++] = packed[i++] as number;
    else {
      out.set(packed.subarray(i, i + literals), o);
      i += literals;
      o += literals;
    }
    if (i >= end) break;
    let c = o - ((packed[i] as number) | ((packed[i + 1] as number) << 8));
    i += 2;
    let length = token & 15;
    if (length === 15) {
      let b: number;
      do {
        b = packed[i++] as number;
        length += b;
      } while (b === 255);
    }
    length += 4;
    if (length > 16 && o - c >= length) {
      // a long match clear of the bytes it writes: one native copy
      out.copyWithin(o, c, c + length);
      o += length;
    } else for (let j = 0; j < length; j++) out[o++] = out[c++] as number; // a match may overlap the bytes it writes
  }
  return o;
}
