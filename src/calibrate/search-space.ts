/**
 * The parameters `loopwatch calibrate` fits, each with the values it tries and why. A fit starts from the
 * starting point's values (added to a parameter's values when they are not among them) and moves one
 * parameter at a time (see search.ts). Detector thresholds are fitted only where they can be emulated
 * from recorded signals (signal-formulas.ts); windows, similarity cut-offs and the progress mode stay as
 * the starting point has them. A parameter of a detector the starting point turns off is left out.
 */
import type { DetectorsOptions } from '../options/options.js';
import type { LoopAction } from '../types.js';
import { KIND_FORMULAS } from './signal-formulas.js';

/** One parameter's value: a number, or a ladder. */
export type ParamValue = number | readonly LoopAction[];

/** A fitted parameter. */
export interface Param {
  /** Its name: the option's dotted path under the detection options (`policy.minConfidence`). */
  readonly id: string;
  /** Where it lives: `policy` fields, a kind's weight, or a detector's field. */
  readonly at: { readonly policy: string } | { readonly weight: string } | { readonly detector: keyof DetectorsOptions; readonly field: string };
  /** The signal kind it concerns, or null when it concerns every signal (a policy field). */
  readonly kind: string | null;
  /** The values tried, in order. */
  readonly values: readonly ParamValue[];
  /** Why these values. */
  readonly why: string;
}

const ladder = (warnings: number): readonly LoopAction[] => Object.freeze([...Array.from({ length: warnings }, () => 'warn' as const), 'break' as const]);

/** Weights tried for every kind. */
export const KIND_WEIGHT_VALUES: readonly number[] = [0, 0.6, 0.8, 1, 1.2, 1.5];

/**
 * The least weight a fit may give a kind the starting point weighs above 0 (`--min-weight`), unless the
 * starting weight is lower still. A fit's data judge a kind only through the loops they hold: a kind
 * whose loops the data hardly hold (chanting in streamed text, cycles) would be weighed 0 for want of
 * evidence, not on evidence, and a default fitted that way would switch a detector off. 0.8: a fit may
 * quiet a kind by a fifth, never set it aside. 0.6 (the least weight above 0 tried) is too low: the
 * traces and devset fit weighed cycle and chanting 0.6 at that floor, and with chanting at 0.6 three of
 * the twelve loops of Gemini CLI's own test suite (streamed text repeating) went unreported; at 0.8 all
 * twelve are caught (test/peer-suites-gemini-cli). A kind the starting point weighs 0 stays free.
 */
export const DEFAULT_MIN_KIND_WEIGHT = 0.8;

/** The policy's parameters. */
export const POLICY_PARAMS: readonly Param[] = Object.freeze([
  { id: 'policy.ladder', at: { policy: 'ladder' }, kind: null, values: [1, 2, 3, 4, 6].map(ladder), why: 'warnings before the break: 1 breaks at the 2nd verdict, 6 only a loop that goes on' },
  { id: 'policy.minConfidence', at: { policy: 'minConfidence' }, kind: null, values: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], why: 'below 0.4 weak evidence alone (a result repeat) speaks; above 0.9 only long runs do' },
  { id: 'policy.agreementBonus', at: { policy: 'agreementBonus' }, kind: null, values: [0, 0.05, 0.1, 0.2], why: 'how much agreeing detectors add: from nothing to two agreeing detectors worth a full extra repetition' },
  { id: 'policy.noProgressStep', at: { policy: 'noProgressStep' }, kind: null, values: [1, 2, 3], why: 'rungs climbed on the same call with the same result: 1 is no faster than any verdict, 3 breaks on the 2nd such verdict of most ladders' },
  { id: 'policy.interleavedStep', at: { policy: 'interleavedStep' }, kind: null, values: [0.25, 0.34, 0.5, 0.75, 1], why: 'rungs climbed by a repetition with new work between (an edit before each re-run): from a quarter rung to as fast as any verdict' },
  { id: 'policy.cooldown', at: { policy: 'cooldown' }, kind: null, values: [0, 5, 10, 20, 50], why: 'quiet calls after which the ladder starts over: never, or after 5 to 50 calls' },
]);

/** Values tried for an emulated threshold, by detector field. */
const THRESHOLD_VALUES: Readonly<Record<string, readonly number[]>> = {
  'exactRepeat.threshold': [2, 3, 4, 5, 6],
  'frequency.threshold': [2, 3, 4, 5, 6, 8],
  'semantic.minSimilar': [1, 2, 3, 4, 6],
  'similarArgs.threshold': [2, 3, 4, 5, 6, 8],
  'deadEnd.threshold': [2, 3, 4, 5, 6, 8],
  'stateRepeat.threshold': [2, 3, 4, 5, 6, 8],
};

/** Each kind's weight and, where it is emulated, its detector's threshold. */
export const KIND_PARAMS: readonly Param[] = Object.freeze(
  KIND_FORMULAS.flatMap((f): Param[] => {
    const weight: Param = { id: `policy.kindWeights.${f.kind}`, at: { weight: f.kind }, kind: f.kind, values: KIND_WEIGHT_VALUES, why: 'how much the kind counts: 0 sets it aside, 1.5 lets it speak on fewer repetitions' };
    if (f.field === null) return [weight];
    const values = THRESHOLD_VALUES[`${f.detector}.${f.field}`] ?? [];
    return [weight, { id: `detectors.${f.detector}.${f.field}`, at: { detector: f.detector, field: f.field }, kind: f.kind, values, why: `repetitions before the detector speaks, from its minimum to where loops are long (${f.why})` }];
  }),
);

/** Every parameter, policy first. */
export const SEARCH_SPACE: readonly Param[] = Object.freeze([...POLICY_PARAMS, ...KIND_PARAMS]);

/** Whether two values are the same. */
export function sameValue(a: ParamValue, b: ParamValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
