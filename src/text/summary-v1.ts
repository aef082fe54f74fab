/**
 * Args summaries in their first form (snapshot formats 8: what similar args saved before format 9), turned
 * into the form args-summary.ts writes now, node by node, so an old snapshot's summaries compare as
 * summaries made now of the same args. The first form:
 *
 * ```
 *  NULL | FALSE | TRUE      tag
 *  NUMBER                   tag f64                       (now SMALL when an integer from -128 to 127, not -0)
 *  OPAQUE                   tag u32 lo u32 hi             (unchanged)
 *  STRING                   tag u32 length u8 wide units  (now tag u16 (length | wide << 15) units)
 *  LONG                     as now
 *  ARRAY                    tag u32 bytes u32 count node*                           (now u16 each)
 *  OBJECT                   tag u32 bytes u32 count (u32 keyHash, STRING key, node)*   (now no key hash)
 * ```
 */
import { MAX_ARGS_DEPTH } from './args-similarity.js';
import { LONG_HEADER, STRING_KEPT, S_ARRAY, S_FALSE, S_LONG, S_NULL, S_NUMBER, S_OBJECT, S_OPAQUE, S_SMALL, S_STRING, S_TRUE, WIDE_BIT } from './args-summary.js';
import { f64At, u32 } from './summary-read.js';

/** The converted bytes, and where the next byte goes. */
let out = new Uint8Array(256);
let at = 0;

function room(n: number): number {
  if (at + n > out.length) {
    const grown = new Uint8Array(Math.max(2 * out.length, at + n));
    grown.set(out.subarray(0, at));
    out = grown;
  }
  const p = at;
  at += n;
  return p;
}

/** Appends bytes [from, to) of `b` (room first: it may replace `out`). */
function copy(b: Uint8Array, from: number, to: number): void {
  const q = room(to - from);
  out.set(b.subarray(from, to), q);
}

function put16(p: number, v: number): void {
  out[p] = v & 0xff;
  out[p + 1] = v >>> 8;
}

/** Converts the first-form node at `p` (ending by `end`); returns where it ends, or -1 when it is not one. */
function convert(b: Uint8Array, p: number, end: number, depth: number): number {
  if (p >= end || depth > MAX_ARGS_DEPTH + 1) return -1;
  const tag = b[p] as number;
  switch (tag) {
    case S_NULL:
    case S_FALSE:
    case S_TRUE:
      out[room(1)] = tag;
      return p + 1;
    case S_NUMBER: {
      if (p + 9 > end) return -1;
      const v = f64At(b, p + 1);
      if (v === (v << 24) >> 24 && !Object.is(v, -0)) {
        const q = room(2);
        out[q] = S_SMALL;
        out[q + 1] = v & 0xff;
      } else copy(b, p, p + 9);
      return p + 9;
    }
    case S_OPAQUE:
      if (p + 9 > end) return -1;
      copy(b, p, p + 9);
      return p + 9;
    case S_STRING: {
      if (p + 6 > end) return -1;
      const n = u32(b, p + 1);
      const wide = b[p + 5] as number;
      const bytes = n * (wide + 1);
      if (wide > 1 || n >= WIDE_BIT || p + 6 + bytes > end) return -1;
      const q = room(3 + bytes);
      out[q] = S_STRING;
      put16(q + 1, n | (wide === 1 ? WIDE_BIT : 0));
      out.set(b.subarray(p + 6, p + 6 + bytes), q + 3);
      return p + 6 + bytes;
    }
    case S_LONG: {
      if (p + LONG_HEADER > end || (b[p + 5] as number) > 1 || u32(b, p + 1) <= 2 * STRING_KEPT) return -1;
      const q = p + LONG_HEADER + 2 * STRING_KEPT * ((b[p + 5] as number) + 1);
      if (q > end) return -1;
      copy(b, p, q);
      return q;
    }
    case S_ARRAY:
    case S_OBJECT: {
      if (p + 9 > end) return -1;
      const q = p + u32(b, p + 1);
      const count = u32(b, p + 5);
      if (q > end || q < p + 9 || count >= 0x10000) return -1;
      const start = room(5);
      out[start] = tag;
      put16(start + 3, count);
      let r = p + 9;
      for (let i = 0; i < count; i++) {
        if (tag === S_OBJECT) {
          // the key's hash is dropped; the key follows
          if (r + 4 >= q || b[r + 4] !== S_STRING) return -1;
          r = convert(b, r + 4, q, depth + 1);
          if (r < 0) return -1;
        }
        r = convert(b, r, q, depth + 1);
        if (r < 0) return -1;
      }
      if (r !== q || at - start >= 0x10000) return -1;
      put16(start + 1, at - start);
      return q;
    }
    default:
      return -1;
  }
}

/** The summary now of a first-form summary's bytes (a copy), or null when they are not one. */
export function summaryFromV1(bytes: Uint8Array): Uint8Array | null {
  at = 0;
  return convert(bytes, 0, bytes.length, 0) === bytes.length ? out.slice(0, at) : null;
}
