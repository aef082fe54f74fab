/**
 * Whether bytes are one well-formed args summary (args-summary.ts): what a snapshot's summaries must be
 * before anything compares them, so a corrupt snapshot is refused rather than read out of bounds.
 */
import { MAX_ARGS_DEPTH } from './args-similarity.js';
import { LONG_HEADER, STRING_KEPT, S_ARRAY, S_FALSE, S_LONG, S_NULL, S_NUMBER, S_OBJECT, S_OPAQUE, S_STRING, S_TRUE } from './args-summary.js';
import { nodeEnd, u32 } from './summary-read.js';

/** Where a well-formed node at `p` ends (within `end`), or -1. */
function wellFormed(b: Uint8Array, p: number, end: number, depth: number): number {
  if (p >= end || depth > MAX_ARGS_DEPTH + 1) return -1;
  const tag = b[p] as number;
  switch (tag) {
    case S_NULL:
    case S_FALSE:
    case S_TRUE:
      return p + 1;
    case S_NUMBER:
    case S_OPAQUE:
      return p + 9 <= end ? p + 9 : -1;
    case S_STRING:
    case S_LONG: {
      if (p + 6 > end || (b[p + 5] as number) > 1) return -1;
      if (tag === S_LONG && (p + LONG_HEADER > end || u32(b, p + 1) <= 2 * STRING_KEPT)) return -1;
      const q = nodeEnd(b, p);
      return q <= end ? q : -1;
    }
    case S_ARRAY:
    case S_OBJECT: {
      if (p + 9 > end) return -1;
      const q = p + u32(b, p + 1);
      if (q > end || q < p + 9) return -1;
      const count = u32(b, p + 5);
      let at = p + 9;
      for (let i = 0; i < count; i++) {
        if (tag === S_OBJECT) {
          if (at + 4 > q || b[at + 4] !== S_STRING) return -1;
          at = wellFormed(b, at + 4, q, depth + 1);
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
