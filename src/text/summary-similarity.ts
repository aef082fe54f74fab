/**
 * `argsSimilarity` (args-similarity.ts) over two args' summaries (args-summary.ts): the same rules, read
 * from what a summary keeps, so the answers are those of the args themselves except where the summary
 * module says. Nothing is allocated per comparison.
 *
 * A summary is read where it lies: `bytes` with the node at `at` (two summaries may share one buffer).
 */
import { Tag, word } from '../fingerprint/combine.js';
import { hashNumber } from '../fingerprint/canonical-hash.js';
import { u64 } from '../fingerprint/u64.js';
import { S_ARRAY, S_FALSE, S_LONG, S_NULL, S_NUMBER, S_OBJECT, S_OPAQUE, S_SMALL, S_STRING, S_TRUE } from './args-summary.js';
import { countOf, nodeEnd, numberAt, partsAt, u32 } from './summary-read.js';
import { stringSimilarity } from './summary-string.js';

/** The canonical fingerprint's words of a scalar node (NULL, FALSE, TRUE, SMALL, NUMBER, OPAQUE): low returned, high in `fpHi`. */
let fpHi = 0;
function scalarFingerprint(b: Uint8Array, p: number): number {
  switch (b[p]) {
    case S_NULL: {
      const lo = word(Tag.NULL, 0, 0);
      fpHi = u64.hi;
      return lo;
    }
    case S_FALSE: {
      const lo = word(Tag.FALSE, 0, 0);
      fpHi = u64.hi;
      return lo;
    }
    case S_TRUE: {
      const lo = word(Tag.TRUE, 0, 0);
      fpHi = u64.hi;
      return lo;
    }
    case S_SMALL:
    case S_NUMBER: {
      const lo = hashNumber(numberAt(b, p));
      fpHi = u64.hi;
      return lo;
    }
    default:
      fpHi = u32(b, p + 5);
      return u32(b, p + 1);
  }
}

function isScalar(tag: number): boolean {
  return tag === S_NULL || tag === S_FALSE || tag === S_TRUE || tag === S_SMALL || tag === S_NUMBER || tag === S_OPAQUE;
}

function isNumber(tag: number): boolean {
  return tag === S_SMALL || tag === S_NUMBER;
}

/** `sameValue` of args-similarity.ts: scalars by canonical fingerprint; a string or a container never equals another kind. */
function sameValue(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number): boolean {
  const ta = ab[ap] as number;
  const tb = bb[bp] as number;
  if (!isScalar(ta) || !isScalar(tb)) return false;
  if (ta === tb && !isNumber(ta) && ta !== S_OPAQUE) return true;
  if (isNumber(ta) && isNumber(tb)) {
    const x = numberAt(ab, ap);
    const y = numberAt(bb, bp);
    return x === y || (x !== x && y !== y);
  }
  const lo = scalarFingerprint(ab, ap);
  const hi = fpHi;
  return scalarFingerprint(bb, bp) === lo && fpHi === hi;
}

/** Whether the `count` members from `from` of an object node hold key `key` (a STRING node at `kp` of `kb`); its value's offset, or -1. */
function memberValue(b: Uint8Array, from: number, count: number, kb: Uint8Array, kp: number): number {
  let m = from;
  const klen = nodeEnd(kb, kp) - kp;
  for (let i = 0; i < count; i++) {
    const valueAt = nodeEnd(b, m);
    if (valueAt - m === klen) {
      let same = true;
      for (let j = 0; j < klen; j++) {
        if (b[m + j] !== kb[kp + j]) {
          same = false;
          break;
        }
      }
      if (same) return valueAt;
    }
    m = nodeEnd(b, valueAt);
  }
  return -1;
}

function objectSimilarity(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number, fieldThreshold: number, depth: number, min: number): number {
  const ka = countOf(ab, ap);
  const kb = countOf(bb, bp);
  // the union of keys: those of a, and those of b that a lacks
  let union = ka;
  for (let i = 0, m = partsAt(bp); i < kb; i++) {
    const valueAt = nodeEnd(bb, m);
    if (memberValue(ab, partsAt(ap), ka, bb, m) < 0) union++;
    m = nodeEnd(bb, valueAt);
  }
  if (union === 0) return 1;
  const allowedMisses = min <= 0 ? union : union - Math.ceil(min * union - 1e-9);
  let misses = union - ka; // keys only b has never match
  if (misses > allowedMisses) return 0;
  let matching = 0;
  for (let i = 0, m = partsAt(ap); i < ka; i++) {
    const valueAt = nodeEnd(ab, m);
    const other = memberValue(bb, partsAt(bp), kb, ab, m);
    if (other >= 0 && similarity(ab, valueAt, bb, other, fieldThreshold, depth + 1, fieldThreshold) >= fieldThreshold) {
      matching++;
    } else if (++misses > allowedMisses) {
      return 0;
    }
    m = nodeEnd(ab, valueAt);
  }
  return matching / union;
}

function similarity(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number, fieldThreshold: number, depth: number, min: number): number {
  const ta = ab[ap] as number;
  const tb = bb[bp] as number;
  if ((ta === S_STRING || ta === S_LONG) && (tb === S_STRING || tb === S_LONG)) return stringSimilarity(ab, ap, bb, bp, min);
  if (ta === S_ARRAY && tb === S_ARRAY) {
    const n = countOf(ab, ap);
    if (n !== countOf(bb, bp)) return 0;
    if (n === 0) return 1;
    let total = 0;
    let x = partsAt(ap);
    let y = partsAt(bp);
    for (let i = 0; i < n; i++) {
      total += similarity(ab, x, bb, y, fieldThreshold, depth + 1, 0);
      x = nodeEnd(ab, x);
      y = nodeEnd(bb, y);
    }
    return total / n;
  }
  if (ta === S_OBJECT && tb === S_OBJECT) return objectSimilarity(ab, ap, bb, bp, fieldThreshold, depth, min);
  return sameValue(ab, ap, bb, bp) ? 1 : 0;
}

/** argsSimilarity of the args two summaries stand for (the summaries at `ap` of `ab` and `bp` of `bb`). */
export function summarySimilarity(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number, fieldThreshold: number): number {
  return similarity(ab, ap, bb, bp, fieldThreshold, 0, 0);
}

/** argsSimilarityAtLeast of the args two summaries stand for: the similarity when it is at least `min`, else some value below. */
export function summarySimilarityAtLeast(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number, fieldThreshold: number, min: number): number {
  return similarity(ab, ap, bb, bp, fieldThreshold, 0, min);
}

