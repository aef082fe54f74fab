/**
 * A bounded copy of an args value for later comparison, so a caller mutating its objects afterwards
 * cannot change history. Plain objects and arrays are copied (strings are immutable and shared);
 * beyond `MAX_SNAPSHOT_NODES` nodes or `MAX_SNAPSHOT_DEPTH` levels a value is kept as its fingerprint, and so
 * is an array whose elements would take the copy past MAX_WALK_ELEMENTS in all (a sparse array of length
 * 2^32-1 was copied hole by hole: minutes, with `normalizeVolatile`). The parts kept as fingerprints are
 * each a walk: once they have cost OPAQUE_WORK_MAX nodes in all (a value reusing one large object in every
 * part), the whole args is kept as its fingerprint; so is it once the strings masked and the parts hashed
 * have cost MAX_WALK_UNITS units in all (fingerprint/unit-budget.ts: one string of 1 MB in every element of
 * an array was masked once per element).
 */
import { MAX_WALK_ELEMENTS } from '../fingerprint/element-budget.js';
import { hashValue } from '../fingerprint/canonical-hash.js';
import { PartsWork } from '../fingerprint/parts-work.js';
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

/** Thrown once a copy's fingerprints and masked strings have spent their work (PartsWork). */
const SPENT = new Error('snapshot spent');

/** Copies `v` within the bounds; `transform` (volatile masking) is applied to every string. */
export function snapshotArgs(v: unknown, transform: ((s: string) => string) | null): unknown {
  const budget = { nodes: MAX_SNAPSHOT_NODES, elements: MAX_WALK_ELEMENTS };
  const work = new PartsWork();
  const part = (x: object): string => {
    if (work.spent()) throw SPENT;
    const f = fingerprintOf(x);
    work.walked();
    return f;
  };
  const copy = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') {
      if (transform === null) return x;
      if (!work.read(x.length)) throw SPENT;
      return transform(x);
    }
    if (typeof x !== 'object' || x === null) return x;
    if (--budget.nodes < 0 || depth >= MAX_SNAPSHOT_DEPTH) return part(x);
    try {
      if (Array.isArray(x)) {
        if (x.length > budget.elements) return part(x);
        budget.elements -= x.length;
        return x.map((el) => copy(el, depth + 1));
      }
      if (x instanceof Map || x instanceof Set || ArrayBuffer.isView(x) || x instanceof RestoredValue) return part(x);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x)) out[k] = copy((x as Record<string, unknown>)[k], depth + 1);
      return out;
    } catch (e) {
      if (e === SPENT) throw e;
      return part(x);
    }
  };
  try {
    return copy(v, 0);
  } catch (e) {
    if (e !== SPENT) throw e;
    return fingerprintOf(v);
  }
}
