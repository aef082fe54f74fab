/**
 * A bounded copy of an args value for later comparison, so a caller mutating its objects afterwards
 * cannot change history. Plain objects and arrays are copied (strings are immutable and shared);
 * beyond `MAX_SNAPSHOT_NODES` nodes or `MAX_SNAPSHOT_DEPTH` levels a value is kept as its fingerprint, and so
 * is an array whose elements would take the copy past MAX_WALK_ELEMENTS in all (a sparse array of length
 * 2^32-1 was copied hole by hole: minutes, with `normalizeVolatile`).
 */
import { MAX_WALK_ELEMENTS } from '../fingerprint/element-budget.js';
import { hashValue } from '../fingerprint/canonical-hash.js';
import { RestoredValue } from '../fingerprint/restored-value.js';
import { toHex, u64 } from '../fingerprint/u64.js';

/** Nodes copied at most. */
export const MAX_SNAPSHOT_NODES = 2000;
/** Levels copied at most. */
export const MAX_SNAPSHOT_DEPTH = 16;

function fingerprintOf(v: unknown): string {
  const lo = hashValue(v);
  return `#${toHex(u64.hi, lo)}`;
}

/** Copies `v` within the bounds; `transform` (volatile masking) is applied to every string. */
export function snapshotArgs(v: unknown, transform: ((s: string) => string) | null): unknown {
  const budget = { nodes: MAX_SNAPSHOT_NODES, elements: MAX_WALK_ELEMENTS };
  const copy = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') return transform === null ? x : transform(x);
    if (typeof x !== 'object' || x === null) return x;
    if (--budget.nodes < 0 || depth >= MAX_SNAPSHOT_DEPTH) return fingerprintOf(x);
    try {
      if (Array.isArray(x)) {
        if (x.length > budget.elements) return fingerprintOf(x);
        budget.elements -= x.length;
        return x.map((el) => copy(el, depth + 1));
      }
      if (x instanceof Map || x instanceof Set || ArrayBuffer.isView(x) || x instanceof RestoredValue) return fingerprintOf(x);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x)) out[k] = copy((x as Record<string, unknown>)[k], depth + 1);
      return out;
    } catch {
      return fingerprintOf(x);
    }
  };
  return copy(v, 0);
}
