/**
 * Normalised edit similarity: `1 - levenshtein(a, b) / max(|a|, |b|)`, in [0, 1], over UTF-16 code units.
 *
 * Long strings are compared on a sample, so a comparison costs at most `SAMPLE^2` steps: a string longer
 * than `SAMPLE` code units is replaced by its first and last `SAMPLE / 2`, and the result is scaled by the
 * ratio of the full lengths (two strings of very different lengths are never near-identical).
 */

/** Code units compared at most per string. */
export const EDIT_SAMPLE = 200;

let row = new Int32Array(EDIT_SAMPLE + 1);
let prevRow = new Int32Array(EDIT_SAMPLE + 2);
let curRow = new Int32Array(EDIT_SAMPLE + 2);

/** What a comparison keeps of a string: at most `EDIT_SAMPLE` code units, and the full length. */
export interface TextSample {
  /** The string itself, or its first and last `EDIT_SAMPLE / 2` code units. */
  readonly text: string;
  /** Length of the full string. */
  readonly length: number;
}

/** The sample of a string that comparisons use. */
export function textSample(s: string): TextSample {
  const text = s.length <= EDIT_SAMPLE ? s : s.slice(0, EDIT_SAMPLE / 2) + s.slice(s.length - EDIT_SAMPLE / 2);
  return { text, length: s.length };
}

/** A string's UTF-16 code units in `into` (grown when too short); returns the array holding them. */
function unitsOf(s: string, into: Uint16Array): Uint16Array {
  const out = into.length >= s.length ? into : new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

let unitsA: Uint16Array = new Uint16Array(EDIT_SAMPLE);
let unitsB: Uint16Array = new Uint16Array(EDIT_SAMPLE);

/** The Levenshtein distance of `a[0, an)` and `b[0, bn)`, code units in arrays. */
export function levenshteinUnits(a: Uint16Array, an: number, b: Uint16Array, bn: number): number {
  if (an < bn) {
    const t = a;
    a = b;
    b = t;
    const tn = an;
    an = bn;
    bn = tn;
  }
  const m = bn;
  if (m === 0) return an;
  if (row.length < m + 1) row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= an; i++) {
    let prev = row[0] as number;
    row[0] = i;
    const ca = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const cur = row[j] as number;
      const sub = prev + (ca === b[j - 1] ? 0 : 1);
      const del = cur + 1;
      const ins = (row[j - 1] as number) + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      prev = cur;
    }
  }
  return row[m] as number;
}

/**
 * Whether the Levenshtein distance of `a[0, an)` and `b[0, bn)` is at most `d`, computing only the diagonal
 * band of width `2d + 1` (Ukkonen), and the distance itself when it is within `d` (else -1).
 */
export function levenshteinUnitsWithin(a: Uint16Array, an: number, b: Uint16Array, bn: number, d: number): number {
  if (an < bn) {
    const t = a;
    a = b;
    b = t;
    const tn = an;
    an = bn;
    bn = tn;
  }
  const n = an;
  const m = bn;
  if (n - m > d) return -1;
  if (m === 0) return n;
  if (prevRow.length < m + 2) {
    prevRow = new Int32Array(m + 2);
    curRow = new Int32Array(m + 2);
  }
  const INF = n + m + 1;
  let prev = prevRow;
  let cur = curRow;
  for (let j = 0; j <= m; j++) prev[j] = j <= d ? j : INF;
  prev[m + 1] = INF;
  for (let i = 1; i <= n; i++) {
    const lo = i - d > 1 ? i - d : 1;
    const hi = i + d < m ? i + d : m;
    cur[lo - 1] = lo - 1 === 0 ? i : INF;
    if (hi < m) cur[hi + 1] = INF;
    const ca = a[i - 1];
    let best = lo - 1 === 0 ? i : INF;
    for (let j = lo; j <= hi; j++) {
      const sub = (prev[j - 1] as number) + (ca === b[j - 1] ? 0 : 1);
      const del = (prev[j] as number) + 1;
      const ins = (cur[j - 1] as number) + 1;
      const v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > d) return -1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  const dist = prev[m] as number;
  return dist <= d ? dist : -1;
}

/** The Levenshtein distance of two strings' code units. */
function levenshtein(a: string, b: string): number {
  unitsA = unitsOf(a, unitsA);
  unitsB = unitsOf(b, unitsB);
  return levenshteinUnits(unitsA, a.length, unitsB, b.length);
}

/** levenshteinUnitsWithin of two strings' code units. */
function levenshteinWithin(a: string, b: string, d: number): number {
  unitsA = unitsOf(a, unitsA);
  unitsB = unitsOf(b, unitsB);
  return levenshteinUnitsWithin(unitsA, a.length, unitsB, b.length, d);
}

/**
 * The similarity of two samples when it is at least `min`; otherwise some value below `min` (the work
 * stops as soon as `min` is out of reach). `sampleSimilarity(a, b) >= min` iff this is `>= min`.
 */
export function sampleSimilarityAtLeast(a: TextSample, b: TextSample, min: number): number {
  const max = a.length > b.length ? a.length : b.length;
  const small = a.length > b.length ? b.length : a.length;
  if (max === 0) return 1;
  if (small === 0) return 0;
  if (a.text === b.text && a.length === b.length) return 1;
  const ratio = max <= EDIT_SAMPLE ? 1 : small / max;
  if (ratio < min) return 0;
  const smax = a.text.length > b.text.length ? a.text.length : b.text.length;
  // need (1 - dist / smax) * ratio >= min  <=>  dist <= (1 - min / ratio) * smax
  const d = Math.floor((1 - min / ratio) * smax + 1e-9);
  const dist = levenshteinWithin(a.text, b.text, d);
  if (dist < 0) return 0;
  return (1 - dist / smax) * ratio;
}

/** Normalised edit similarity of two samples (see the module comment). */
export function sampleSimilarity(a: TextSample, b: TextSample): number {
  const max = a.length > b.length ? a.length : b.length;
  const min = a.length > b.length ? b.length : a.length;
  if (max === 0) return 1;
  if (min === 0) return 0;
  if (a.text === b.text && a.length === b.length) return 1;
  const smax = a.text.length > b.text.length ? a.text.length : b.text.length;
  const sim = 1 - levenshtein(a.text, b.text) / smax;
  return max <= EDIT_SAMPLE ? sim : sim * (min / max);
}

/** Normalised edit similarity of two strings (1 for equal strings, including two empty ones). */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  return sampleSimilarity(textSample(a), textSample(b));
}
