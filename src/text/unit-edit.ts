/**
 * The edit similarity of `edit-similarity.ts` over code units held in arrays (what a summary keeps of a
 * string, `args-summary.ts`) rather than strings: the same samples, the same arithmetic in the same order,
 * so the same answers to the last bit.
 */
import { EDIT_SAMPLE } from './edit-similarity.js';

/** A string's edit-distance sample: at most EDIT_SAMPLE units (its first and last EDIT_SAMPLE / 2), and its full length. */
export class UnitSample {
  /** The sample's units, `units[0, n)`. */
  readonly units = new Uint16Array(EDIT_SAMPLE);
  n = 0;
  /** Length of the full string. */
  length = 0;
}

let row = new Int32Array(EDIT_SAMPLE + 1);
let prevRow = new Int32Array(EDIT_SAMPLE + 2);
let curRow = new Int32Array(EDIT_SAMPLE + 2);

function sameUnits(a: UnitSample, b: UnitSample): boolean {
  if (a.n !== b.n) return false;
  for (let i = 0; i < a.n; i++) if (a.units[i] !== b.units[i]) return false;
  return true;
}

function levenshtein(a: Uint16Array, an: number, b: Uint16Array, bn: number): number {
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

function levenshteinWithin(a: Uint16Array, an: number, b: Uint16Array, bn: number, d: number): number {
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

/** `sampleSimilarityAtLeast` (edit-similarity.ts) of two unit samples. */
export function unitSimilarityAtLeast(a: UnitSample, b: UnitSample, min: number): number {
  const max = a.length > b.length ? a.length : b.length;
  const small = a.length > b.length ? b.length : a.length;
  if (max === 0) return 1;
  if (small === 0) return 0;
  if (a.length === b.length && sameUnits(a, b)) return 1;
  const ratio = max <= EDIT_SAMPLE ? 1 : small / max;
  if (ratio < min) return 0;
  const smax = a.n > b.n ? a.n : b.n;
  const d = Math.floor((1 - min / ratio) * smax + 1e-9);
  const dist = levenshteinWithin(a.units, a.n, b.units, b.n, d);
  if (dist < 0) return 0;
  return (1 - dist / smax) * ratio;
}

/** `sampleSimilarity` (edit-similarity.ts) of two unit samples. */
export function unitSimilarity(a: UnitSample, b: UnitSample): number {
  const max = a.length > b.length ? a.length : b.length;
  const min = a.length > b.length ? b.length : a.length;
  if (max === 0) return 1;
  if (min === 0) return 0;
  if (a.length === b.length && sameUnits(a, b)) return 1;
  const smax = a.n > b.n ? a.n : b.n;
  const sim = 1 - levenshtein(a.units, a.n, b.units, b.n) / smax;
  return max <= EDIT_SAMPLE ? sim : sim * (min / max);
}
