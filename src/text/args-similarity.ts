/**
 * Structural similarity of two argument values, in [0, 1]:
 *
 * - two strings: normalised edit similarity, except 0 when what differs between them contains a whole
 *   word of either (`basic.py` / `core.py`, `/src` / `/src/pkg`, `page 1` / `page 2`): that is another
 *   target, not a variant of the same one (`foo` / `fo0`, `Stoopid` / `Stupid`);
 * - two arrays: 0 when their lengths differ, else the mean similarity of their elements;
 * - two objects: the share of all keys (of either) whose values are present in both and similar
 *   (similarity >= `fieldThreshold`);
 * - anything else: 1 when canonically equal (`1` and `1.0` are equal), else 0.
 *
 * Nesting is followed to `MAX_ARGS_DEPTH`; deeper values are compared by canonical fingerprint, and so are
 * values whose parts cannot be read (a getter or Proxy trap that throws). Never throws.
 * `argsSimilarityAtLeast` gives the same answer to "is it at least `min`?" while stopping as soon as
 * `min` is out of reach (string comparisons in a band, objects once too many keys have failed).
 */
import { hashValue } from '../fingerprint/canonical-hash.js';
import { RestoredValue } from '../fingerprint/restored-value.js';
import { u64 } from '../fingerprint/u64.js';
import { editSimilarity, sampleSimilarityAtLeast, textSample } from './edit-similarity.js';

/** Nesting followed before values are compared by fingerprint only. */
export const MAX_ARGS_DEPTH = 16;

/**
 * Objects compared key by key: not arrays, Maps, Sets, typed arrays, or values restored as a fingerprint.
 * Throws for a Proxy whose traps throw (callers compare such a value by fingerprint).
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set) && !ArrayBuffer.isView(v) && !(v instanceof RestoredValue);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  if (ta === typeof b) {
    // canonically equal numbers and booleans are === (but NaN, one value canonically)
    if (ta === 'number') return a !== a && b !== b;
    if (ta === 'boolean') return false;
  }
  return fingerprintEqual(a, b);
}

function fingerprintEqual(a: unknown, b: unknown): boolean {
  const al = hashValue(a);
  const ah = u64.hi;
  const bl = hashValue(b);
  return al === bl && ah === u64.hi;
}

/** Similarity of two argument values (see the module comment). */
export function argsSimilarity(a: unknown, b: unknown, fieldThreshold: number, depth = 0): number {
  return similarity(a, b, fieldThreshold, depth, 0);
}

/** The similarity when it is at least `min`, else some value below `min`. */
export function argsSimilarityAtLeast(a: unknown, b: unknown, fieldThreshold: number, min: number): number {
  return similarity(a, b, fieldThreshold, 0, min);
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

/** Whether `s[from, to)` contains a whole word of `s` (a maximal run of word characters). */
function holdsWholeWord(s: string, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    if (!isWordChar(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const starts = i === 0 || !isWordChar(s.charCodeAt(i - 1));
    let end = i;
    while (end < s.length && isWordChar(s.charCodeAt(end))) end++;
    if (starts && end <= to) return true;
    i = end;
  }
  return false;
}

/** Whether the part where `a` and `b` differ (between their common prefix and suffix) holds a whole word. */
export function replacesWholeWord(a: string, b: string): boolean {
  const n = a.length < b.length ? a.length : b.length;
  let p = 0;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let q = 0;
  while (q < n - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q)) q++;
  return holdsWholeWord(a, p, a.length - q) || holdsWholeWord(b, p, b.length - q);
}

function objectSimilarity(a: Record<string, unknown>, b: Record<string, unknown>, fieldThreshold: number, depth: number, min: number): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  // the union of keys: those of a, and those of b that a lacks
  let union = ka.length;
  for (let i = 0; i < kb.length; i++) if (!Object.prototype.propertyIsEnumerable.call(a, kb[i] as string)) union++;
  if (union === 0) return 1;
  const allowedMisses = min <= 0 ? union : union - Math.ceil(min * union - 1e-9);
  let misses = union - ka.length; // keys only b has never match
  if (misses > allowedMisses) return 0;
  let matching = 0;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (Object.prototype.propertyIsEnumerable.call(b, k) && similarity(a[k], b[k], fieldThreshold, depth + 1, fieldThreshold) >= fieldThreshold) {
      matching++;
    } else if (++misses > allowedMisses) {
      return 0;
    }
  }
  return matching / union;
}

function similarity(a: unknown, b: unknown, fieldThreshold: number, depth: number, min: number): number {
  if (a === b) return 1;
  if (typeof a === 'string' && typeof b === 'string') {
    if (replacesWholeWord(a, b)) return 0;
    if (min <= 0) return editSimilarity(a, b);
    return sampleSimilarityAtLeast(textSample(a), textSample(b), min);
  }
  if (depth >= MAX_ARGS_DEPTH) return sameValue(a, b) ? 1 : 0;
  try {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return 0;
      if (a.length === 0) return 1;
      let total = 0;
      for (let i = 0; i < a.length; i++) total += similarity(a[i], b[i], fieldThreshold, depth + 1, 0);
      return total / a.length;
    }
    if (isPlainObject(a) && isPlainObject(b)) return objectSimilarity(a, b, fieldThreshold, depth, min);
  } catch {
    // a value whose parts cannot be read (a getter or Proxy trap that throws) is compared whole, by
    // fingerprint, as a snapshot keeps it (value-codec.ts)
  }
  return sameValue(a, b) ? 1 : 0;
}
