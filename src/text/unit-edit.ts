/**
 * The edit similarity of `edit-similarity.ts` over code units held in arrays (what a summary keeps of a
 * string, `args-summary.ts`) rather than strings: the same samples, the same arithmetic in the same order,
 * so the same answers to the last bit.
 */
import { EDIT_SAMPLE, levenshteinUnits as levenshtein, levenshteinUnitsWithin as levenshteinWithin } from './edit-similarity.js';

/** A string's edit-distance sample: at most EDIT_SAMPLE units (its first and last EDIT_SAMPLE / 2), and its full length. */
export class UnitSample {
  /** The sample's units, `units[0, n)`. */
  readonly units = new Uint16Array(EDIT_SAMPLE);
  n = 0;
  /** Length of the full string. */
  length = 0;
}

function sameUnits(a: UnitSample, b: UnitSample): boolean {
  if (a.n !== b.n) return false;
  for (let i = 0; i < a.n; i++) if (a.units[i] !== b.units[i]) return false;
  return true;
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
