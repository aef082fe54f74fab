/**
 * Reading an args summary's bytes (args-summary.ts): its little-endian words and where each node ends,
 * shared by the comparison (summary-similarity.ts, summary-string.ts) and the check of a snapshot's
 * summaries (summary-check.ts).
 */
import { LONG_HEADER, STRING_KEPT, S_ARRAY, S_LONG, S_NUMBER, S_OBJECT, S_OPAQUE, S_STRING } from './args-summary.js';

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** The little-endian u32 at `p`. */
export function u32(b: Uint8Array, p: number): number {
  return ((b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24)) >>> 0;
}

/** The little-endian f64 at `p`. */
export function f64At(b: Uint8Array, p: number): number {
  for (let i = 0; i < 8; i++) f64Bytes[i] = b[p + i] as number;
  return f64[0] as number;
}

/** The offset just past the node at `p`. */
export function nodeEnd(b: Uint8Array, p: number): number {
  switch (b[p]) {
    case S_NUMBER:
    case S_OPAQUE:
      return p + 9;
    case S_STRING:
      return p + 6 + u32(b, p + 1) * ((b[p + 5] as number) + 1);
    case S_LONG:
      return p + LONG_HEADER + 2 * STRING_KEPT * ((b[p + 5] as number) + 1);
    case S_ARRAY:
    case S_OBJECT:
      return p + u32(b, p + 1);
    default:
      return p + 1;
  }
}
