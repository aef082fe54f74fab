/**
 * Whether bytes are one well-formed args summary (args-summary.ts): what a snapshot's summaries must be
 * before anything compares them, so a corrupt snapshot is refused rather than read out of bounds.
 */
import { MAX_ARGS_DEPTH } from './args-similarity.js';
import { CONTAINER_HEADER, LONG_HEADER, STRING_HEADER, STRING_KEPT, S_ARRAY, S_FALSE, S_LONG, S_NULL, S_NUMBER, S_OBJECT, S_OPAQUE, S_SMALL, S_STRING, S_TRUE } from './args-summary.js';
import { countOf, nodeEnd, u16, u32 } from './summary-read.js';

/** Where a well-formed node at `p` ends (within `end`), or -1. */
function wellFormed(b: Uint8Array, p: number, end: number, depth: number): number {
  if (p >= end || depth > MAX_ARGS_DEPTH + 1) return -1;
  const tag = b[p] as number;
  switch (tag) {
    case S_NULL:
    case S_FALSE:
    case S_TRUE:
      return p + 1;
    case S_SMALL:
      return p + 2 <= end ? p + 2 : -1;
    case S_NUMBER:
    case S_OPAQUE:
      return p + 9 <= end ? p + 9 : -1;
    case S_STRING: {
      if (p + STRING_HEADER > end) return -1;
      const q = nodeEnd(b, p);
      return q <= end ? q : -1;
    }
    case S_LONG: {
      if (p + LONG_HEADER > end || (b[p + 5] as number) > 1 || u32(b, p + 1) <= 2 * STRING_KEPT) return -1;
      const q = nodeEnd(b, p);
      return q <= end ? q : -1;
    }
    case S_ARRAY:
    case S_OBJECT: {
      if (p + CONTAINER_HEADER > end) return -1;
      const q = p + u16(b, p + 1);
      if (q > end || q < p + CONTAINER_HEADER) return -1;
      const count = countOf(b, p);
      let at = p + CONTAINER_HEADER;
      for (let i = 0; i < count; i++) {
        if (tag === S_OBJECT) {
          if (at >= q || b[at] !== S_STRING) return -1;
          at = wellFormed(b, at, q, depth + 1);
          if (at < 0) return -1;
        }
        at = wellFormed(b, at, q, depth + 1);
        if (at < 0) return -1;
      }
      return at === q ? q : -1;
    }
    default:
      return -1;
  }
}

/** Whether `bytes` are one well-formed summary (what a snapshot's must be before anything compares them). */
export function isSummary(bytes: Uint8Array): boolean {
  return wellFormed(bytes, 0, bytes.length, 0) === bytes.length;
}
