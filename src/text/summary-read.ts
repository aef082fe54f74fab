/**
 * Reading an args summary's bytes (args-summary.ts): its little-endian words and where each node ends,
 * shared by the comparison (summary-similarity.ts, summary-string.ts) and the check of a snapshot's
 * summaries (summary-check.ts).
 */
import { CONTAINER_HEADER, LONG_HEADER, STRING_HEADER, STRING_KEPT, S_ARRAY, S_LONG, S_NUMBER, S_OBJECT, S_OPAQUE, S_SMALL, S_STRING, WIDE_BIT } from './args-summary.js';

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** The little-endian u32 at `p`. */
export function u32(b: Uint8Array, p: number): number {
  return ((b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24)) >>> 0;
}

/** The little-endian u16 at `p`. */
export function u16(b: Uint8Array, p: number): number {
  return (b[p] as number) | ((b[p + 1] as number) << 8);
}

/** The little-endian f64 at `p`. */
export function f64At(b: Uint8Array, p: number): number {
  for (let i = 0; i < 8; i++) f64Bytes[i] = b[p + i] as number;
  return f64[0] as number;
}

/** The number a SMALL or NUMBER node at `p` holds. */
export function numberAt(b: Uint8Array, p: number): number {
  return b[p] === S_SMALL ? ((b[p + 1] as number) << 24) >> 24 : f64At(b, p + 1);
}

/** The length (in units) of a STRING or LONG node at `p`. */
export function stringLength(b: Uint8Array, p: number): number {
  return b[p] === S_LONG ? u32(b, p + 1) : u16(b, p + 1) & ~WIDE_BIT;
}

/** Whether the units of a STRING or LONG node at `p` take two bytes each. */
export function stringWide(b: Uint8Array, p: number): boolean {
  return b[p] === S_LONG ? b[p + 5] === 1 : (u16(b, p + 1) & WIDE_BIT) !== 0;
}

/** Where the units of a STRING or LONG node at `p` begin. */
export function unitsAt(b: Uint8Array, p: number): number {
  return p + (b[p] === S_LONG ? LONG_HEADER : STRING_HEADER);
}

/** The count of an ARRAY or OBJECT node at `p` (elements, members). */
export function countOf(b: Uint8Array, p: number): number {
  return u16(b, p + 3);
}

/** Where the parts of an ARRAY or OBJECT node at `p` begin. */
export function partsAt(p: number): number {
  return p + CONTAINER_HEADER;
}

/** The offset just past the node at `p`. */
export function nodeEnd(b: Uint8Array, p: number): number {
  switch (b[p]) {
    case S_SMALL:
      return p + 2;
    case S_NUMBER:
    case S_OPAQUE:
      return p + 9;
    case S_STRING: {
      const h = u16(b, p + 1);
      return p + STRING_HEADER + (h & ~WIDE_BIT) * ((h & WIDE_BIT) !== 0 ? 2 : 1);
    }
    case S_LONG:
      return p + LONG_HEADER + 2 * STRING_KEPT * ((b[p + 5] as number) + 1);
    case S_ARRAY:
    case S_OBJECT:
      return p + u16(b, p + 1);
    default:
      return p + 1;
  }
}
