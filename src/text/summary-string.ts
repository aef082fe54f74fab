/**
 * Strings in args summaries (args-summary.ts) compared as args-similarity.ts compares strings: equal,
 * another target (the part where they differ holds a whole word), else their edit similarity, from what a
 * summary keeps of each (all its units, or the first and last STRING_KEPT with hashes and word bounds).
 */
import { NO_RUN, STRING_KEPT, S_LONG, isWordUnit } from './args-summary.js';
import { EDIT_SAMPLE } from './edit-similarity.js';
import { stringLength, stringWide, u32, unitsAt } from './summary-read.js';
import { UnitSample, unitSimilarity, unitSimilarityAtLeast } from './unit-edit.js';
import { BASE_1, BASE_2, joinHash, unitsHash } from './unit-hash.js';

/**
 * A string node as comparisons read it: its length, and the units it keeps (all of them, or the first and
 * last STRING_KEPT), copied out once.
 */
class StringView {
  readonly units = new Uint16Array(2 * STRING_KEPT);
  length = 0;
  long = false;
  /** Units [0, head) and [tailFrom, length) are kept (all of them for a string kept whole). */
  head = 0;
  tailFrom = 0;
  prefix1 = 0;
  prefix2 = 0;
  suffix1 = 0;
  suffix2 = 0;
  headRunEnd = 0;
  midRunStart = 0;
  midRunEnd = 0;
  beforeTail = false;

  load(b: Uint8Array, p: number): void {
    const long = b[p] === S_LONG;
    const n = stringLength(b, p);
    const wide = stringWide(b, p);
    this.length = n;
    this.long = long;
    const q = unitsAt(b, p);
    let kept: number;
    if (long) {
      this.prefix1 = u32(b, p + 6);
      this.prefix2 = u32(b, p + 10);
      this.suffix1 = u32(b, p + 14);
      this.suffix2 = u32(b, p + 18);
      this.headRunEnd = u32(b, p + 22);
      this.midRunStart = u32(b, p + 26);
      this.midRunEnd = u32(b, p + 30);
      this.beforeTail = b[p + 34] === 1;
      this.head = STRING_KEPT;
      this.tailFrom = n - STRING_KEPT;
      kept = 2 * STRING_KEPT;
    } else {
      this.head = n;
      this.tailFrom = 0;
      kept = n;
    }
    const u = this.units;
    if (wide) for (let i = 0; i < kept; i++) u[i] = (b[q + 2 * i] as number) | ((b[q + 2 * i + 1] as number) << 8);
    else for (let i = 0; i < kept; i++) u[i] = b[q + i] as number;
  }

  /** Unit `i` (one the view keeps: `i < head` or `i >= tailFrom`). */
  at(i: number): number {
    if (!this.long || i < STRING_KEPT) return this.units[i] as number;
    return this.units[STRING_KEPT + i - this.tailFrom] as number;
  }

  /** The hash (unit-hash.ts) of units [0, x), for x at or past `tailFrom`. */
  prefixHash(x: number, base: number): number {
    if (!this.long) return unitsHash(this.units, 0, x, base);
    const tail = unitsHash(this.units, STRING_KEPT, STRING_KEPT + x - this.tailFrom, base);
    return joinHash(base === BASE_1 ? this.prefix1 : this.prefix2, base, tail, x - this.tailFrom);
  }

  /** The hash of the last t units, for `length - t` within the units kept at the start. */
  suffixHash(t: number, base: number): number {
    const n = this.length;
    if (!this.long) return unitsHash(this.units, n - t, n, base);
    const head = unitsHash(this.units, n - t, STRING_KEPT, base);
    return joinHash(head, base, base === BASE_1 ? this.suffix1 : this.suffix2, n - STRING_KEPT);
  }

  /** The edit-distance sample (edit-similarity.ts `textSample`). */
  sample(into: UnitSample): void {
    const n = this.length;
    into.length = n;
    if (n <= EDIT_SAMPLE) {
      for (let i = 0; i < n; i++) into.units[i] = this.units[i] as number;
      into.n = n;
      return;
    }
    const half = EDIT_SAMPLE / 2;
    for (let i = 0; i < half; i++) into.units[i] = this.at(i);
    for (let i = 0; i < half; i++) into.units[half + i] = this.at(n - half + i);
    into.n = EDIT_SAMPLE;
  }
}

const va = new StringView();
const vb = new StringView();
const sa = new UnitSample();
const sb = new UnitSample();

function sameString(a: StringView, b: StringView): boolean {
  if (a.length !== b.length || a.long !== b.long) return false;
  if (a.long && (a.prefix1 !== b.prefix1 || a.prefix2 !== b.prefix2)) return false;
  const kept = a.long ? 2 * STRING_KEPT : a.length;
  for (let i = 0; i < kept; i++) if (a.units[i] !== b.units[i]) return false;
  return true;
}

/**
 * `holdsWholeWord(s, from, to)` of args-similarity.ts, from what the view keeps: `from` and `to` are
 * within the units kept; the loop reaches the part not kept only right after the units kept at the start,
 * where the first whole word after them is known (or that none starts before the units kept at the end,
 * where the loop reads on).
 */
function holdsWholeWord(s: StringView, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    if (s.long && i >= STRING_KEPT && i < s.tailFrom) {
      if (s.midRunStart === NO_RUN) {
        i = s.tailFrom;
        continue;
      }
      if (s.midRunStart >= to) return false;
      if (s.midRunEnd <= to) return true;
      i = s.midRunEnd;
      continue;
    }
    if (!isWordUnit(s.at(i))) {
      i++;
      continue;
    }
    const starts = i === 0 || !(s.long && i === s.tailFrom ? s.beforeTail : isWordUnit(s.at(i - 1)));
    let end = i;
    if (s.long && i < STRING_KEPT) {
      while (end < STRING_KEPT && isWordUnit(s.at(end))) end++;
      if (end === STRING_KEPT) end = s.headRunEnd;
    } else {
      while (end < s.length && isWordUnit(s.at(end))) end++;
    }
    if (starts && end <= to) return true;
    i = end;
  }
  return false;
}

/** Whether the first `x` units of two strings agree, by their hashes. */
function samePrefix(a: StringView, b: StringView, x: number): boolean {
  return a.prefixHash(x, BASE_1) === b.prefixHash(x, BASE_1) && a.prefixHash(x, BASE_2) === b.prefixHash(x, BASE_2);
}

/** Whether the last `t` units of two strings agree, by their hashes. */
function sameSuffix(a: StringView, b: StringView, t: number): boolean {
  return a.suffixHash(t, BASE_1) === b.suffixHash(t, BASE_1) && a.suffixHash(t, BASE_2) === b.suffixHash(t, BASE_2);
}

/**
 * `replacesWholeWord(a, b)`: whether the part where they differ holds a whole word of either. Where they
 * stop agreeing is found in the units kept, or past them by the hashes (which say where the two agree
 * again, within the units kept); when neither can say, the change lies out of sight, and it is taken to
 * hold a whole word (see args-summary.ts).
 */
function replacesWholeWord(a: StringView, b: StringView): boolean {
  const n = a.length < b.length ? a.length : b.length;
  // the common prefix
  let lim = n;
  if (a.head < lim) lim = a.head;
  if (b.head < lim) lim = b.head;
  let p = 0;
  while (p < lim && a.at(p) === b.at(p)) p++;
  if (p === lim && lim < n) {
    // from x on, both are kept to their ends
    const x = a.tailFrom > b.tailFrom ? a.tailFrom : b.tailFrom;
    if (x > n) return true;
    if (x > p) {
      if (!samePrefix(a, b, x)) return true;
      p = x;
    }
    while (p < n && a.at(p) === b.at(p)) p++;
  }
  // the common suffix, within what follows the prefix
  const qmax = n - p;
  let qlim = qmax;
  if (a.length - a.tailFrom < qlim) qlim = a.length - a.tailFrom;
  if (b.length - b.tailFrom < qlim) qlim = b.length - b.tailFrom;
  let q = 0;
  while (q < qlim && a.at(a.length - 1 - q) === b.at(b.length - 1 - q)) q++;
  if (q === qlim && qlim < qmax) {
    // below length - t, both are kept down to their starts
    const ta = a.length - a.head;
    const tb = b.length - b.head;
    const t = ta > tb ? ta : tb;
    if (t > n) return true;
    if (t > q) {
      if (!sameSuffix(a, b, t)) return true;
      // agreeing on the last t units, they agree on all that follows the prefix when t reaches it
      q = t > qmax ? qmax : t;
    }
    while (q < qmax && a.at(a.length - 1 - q) === b.at(b.length - 1 - q)) q++;
  }
  return holdsWholeWord(a, p, a.length - q) || holdsWholeWord(b, p, b.length - q);
}

/** Whether comparisons whose lengths alone put them below `min` stop before reading units (off only in tests). */
let lengthExit = true;
/** Comparisons stopped by their lengths alone (for tests). */
let lengthExits = 0;

/**
 * Turns the length exit off (`false`) or back on, to test that it never changes an answer; returns how
 * many comparisons it has stopped so far.
 * @internal For tests.
 */
export function setLengthExit(on: boolean): number {
  lengthExit = on;
  return lengthExits;
}

/** Similarity of the string nodes at `ap` of `ab` and `bp` of `bb` (`min` as argsSimilarityAtLeast takes it). */
export function stringSimilarity(ab: Uint8Array, ap: number, bb: Uint8Array, bp: number, min: number): number {
  if (min > 0 && lengthExit) {
    // strings of lengths l < L are not equal, and their edit similarity is at most l / L (the distance is at
    // least L - l; past EDIT_SAMPLE units, unitSimilarityAtLeast returns 0 below that ratio): when that is
    // below min (with a margin for rounding), the answer is below min whatever their units, so none is read
    const la = stringLength(ab, ap);
    const lb = stringLength(bb, bp);
    if (la !== lb && (la < lb ? la / lb : lb / la) < min - 1e-9) {
      lengthExits++;
      return 0;
    }
  }
  va.load(ab, ap);
  vb.load(bb, bp);
  if (sameString(va, vb)) return 1;
  if (replacesWholeWord(va, vb)) return 0;
  va.sample(sa);
  vb.sample(sb);
  return min <= 0 ? unitSimilarity(sa, sb) : unitSimilarityAtLeast(sa, sb, min);
}

