/**
 * What `loopwatch calibrate` knows of each built-in detector, in one table: the option whose threshold it
 * emulates from recorded signals, the count that threshold is compared with, and the detector's documented
 * confidence formula. A change to a detector's formula or threshold rule is one edit here; the fidelity
 * test (test/calibrate-fidelity) checks every recorded signal against its formula, and the simulation's
 * outcomes against real replays.
 *
 * A threshold is emulated when a detector's signal under a higher threshold `t` is exactly the signal
 * recorded under a lower one, kept when its count reaches `t`, with the confidence the formula gives for
 * `t`. Kinds where that does not hold are fitted by weight only (`policy.kindWeights`):
 *
 * | kind | threshold emulated | count | confidence |
 * |---|---|---|---|
 * | exact_repeat | `exactRepeat.threshold` | run (`repeatCount`) | `0.8 + 0.05 (count - t)` |
 * | frequency | `frequency.threshold` | occurrences (`repeatCount`) | `0.5 + 0.1 (count - t)` |
 * | cycle | weight only: the smallest period repeated `repetitions` times is reported, so a signal recorded under fewer repetitions can hide a longer period's | | |
 * | semantic | `semantic.minSimilar` | similar earlier actions (`repeatCount - 1`) | `0.4 + 0.2 count` |
 * | similar_args | `similarArgs.threshold` | similar calls (`repeatCount`) | `0.5 + 0.1 (count - t)` |
 * | result_repeat | weight only: its confidence counts different calls getting the very same answer, which the signal does not carry | | |
 * | dead_end | `deadEnd.threshold` | same errors (`repeatCount`) | `0.6 + 0.1 (count - t)` |
 * | state_repeat | `stateRepeat.threshold` | sightings (`repeatCount`) | `0.5 + 0.15 (count - t)` |
 * | chanting | weight only: a text detector, its repetitions are not calls | | |
 *
 * Windows are not emulated (a shorter window changes the repetitions a signal's progress is read over),
 * so a fit keeps the starting point's windows.
 */
import { clampConfidence } from '../detectors/context.js';
import type { DetectorsOptions } from '../options/options.js';
import type { LoopSignal } from '../types.js';

/** How one kind's signals are re-scored for another threshold of its detector. */
export interface KindFormula {
  /** The signal kind. */
  readonly kind: string;
  /** The detector that gives it (its key in `options.detectors`). */
  readonly detector: keyof DetectorsOptions;
  /** The detector option holding the emulated threshold, or null when the kind is fitted by weight only. */
  readonly field: string | null;
  /** The count the threshold is compared with (a signal fires when it reaches the threshold). */
  count(s: LoopSignal): number;
  /** The confidence of a signal with `count` under threshold `t`: the detector's documented formula. */
  confidence(count: number, t: number): number;
  /** Why the threshold is emulated as it is, or why not. */
  readonly why: string;
}

const repeats = (s: LoopSignal): number => s.repeatCount ?? 1;
const none = (): number => NaN;

/** The built-in kinds, in detector order. */
export const KIND_FORMULAS: readonly KindFormula[] = Object.freeze([
  { kind: 'exact_repeat', detector: 'exactRepeat', field: 'threshold', count: repeats, confidence: (c: number, t: number) => clampConfidence(0.8 + 0.05 * (c - t)), why: 'the run at the tail does not depend on the threshold' },
  { kind: 'frequency', detector: 'frequency', field: 'threshold', count: repeats, confidence: (c: number, t: number) => clampConfidence(0.5 + 0.1 * (c - t)), why: 'the occurrences in the window do not depend on the threshold' },
  { kind: 'cycle', detector: 'cycle', field: null, count: none, confidence: none, why: 'the smallest period repeated `repetitions` times wins, so fewer repetitions can report another period' },
  { kind: 'semantic', detector: 'semantic', field: 'minSimilar', count: (s: LoopSignal) => repeats(s) - 1, confidence: (c: number) => clampConfidence(0.4 + 0.2 * c), why: 'the similar actions in the window do not depend on minSimilar' },
  { kind: 'similar_args', detector: 'similarArgs', field: 'threshold', count: repeats, confidence: (c: number, t: number) => clampConfidence(0.5 + 0.1 * (c - t)), why: 'the similar calls in the window do not depend on the threshold' },
  { kind: 'result_repeat', detector: 'resultRepeat', field: null, count: none, confidence: none, why: 'its confidence counts different calls with the very same answer, which the signal does not carry' },
  { kind: 'dead_end', detector: 'deadEnd', field: 'threshold', count: repeats, confidence: (c: number, t: number) => clampConfidence(0.6 + 0.1 * (c - t)), why: 'the same errors in the window do not depend on the threshold' },
  { kind: 'state_repeat', detector: 'stateRepeat', field: 'threshold', count: repeats, confidence: (c: number, t: number) => clampConfidence(0.5 + 0.15 * (c - t)), why: 'the sightings in the window do not depend on the threshold' },
  { kind: 'chanting', detector: 'chanting', field: null, count: none, confidence: none, why: 'a text detector: its repetitions are not calls' },
]);

/** The formula of `kind`, if it is a built-in kind. */
export function formulaOf(kind: string): KindFormula | undefined {
  return KIND_FORMULAS.find((f) => f.kind === kind);
}

/** The formulas whose threshold is emulated. */
export const EMULATED: readonly KindFormula[] = KIND_FORMULAS.filter((f) => f.field !== null);
