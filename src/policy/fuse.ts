/**
 * Fusion of the signals of one call into one confidence: the mean of the signals' confidences plus
 * `bonus` per agreeing detector beyond the first, capped at 1 (corteX's multi-detector agreement rule).
 * With `first`, the first signal in detector order stands alone (chimera's CompositeDetector).
 *
 * The verdict's kind is the most specific signal's (`primary: 'specific'`): `SPECIFICITY` lists the
 * built-in kinds from the narrowest claim (the very same call back to back) to the broadest (similar
 * text); custom kinds come after them, in detector order. With `primary: 'confident'` it is the most
 * confident signal's (ties in detector order).
 */
import { clampConfidence } from '../detectors/context.js';
import type { FusionMode, PrimaryMode } from '../options/options.js';
import type { LoopSignal } from '../types.js';

/** Built-in kinds, most specific first. */
export const SPECIFICITY: readonly string[] = [
  'exact_repeat',
  'cycle',
  'frequency',
  'state_repeat',
  'dead_end',
  'similar_args',
  'semantic',
  'result_repeat',
  'chanting',
];

function rank(kind: string): number {
  const r = SPECIFICITY.indexOf(kind);
  return r < 0 ? SPECIFICITY.length : r;
}

/** The most specific signal, the fused confidence and the contributing signals, most specific first. */
export interface Fused {
  readonly primary: LoopSignal;
  readonly confidence: number;
  readonly signals: readonly LoopSignal[];
}

/** Fuses the signals (non-empty, in detector order). */
export function fuse(signals: readonly LoopSignal[], mode: FusionMode, bonus: number, primary: PrimaryMode = 'specific'): Fused {
  if (mode === 'first') {
    const first = signals[0] as LoopSignal;
    return { primary: first, confidence: clampConfidence(first.confidence), signals: [first] };
  }
  const ordered = signals
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (primary === 'specific' ? rank(a.s.kind) - rank(b.s.kind) : b.s.confidence - a.s.confidence) || a.i - b.i)
    .map((x) => x.s);
  let total = 0;
  for (const s of ordered) total += s.confidence;
  const confidence = clampConfidence(total / ordered.length + bonus * (ordered.length - 1));
  return { primary: ordered[0] as LoopSignal, confidence, signals: ordered };
}
