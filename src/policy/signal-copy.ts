/**
 * A copy of a signal with another confidence or progress, as the policy weighs it (`kindWeights`) and the
 * evidence screen marks it: its documented fields, its pattern still read from the signal copied, when
 * needed (a built-in signal makes its pattern on demand). Copies of copies read through to the first.
 */
import type { LoopSignal, Progress } from '../types.js';

/** A signal's documented fields with `confidence`, `progress` and `progressGated` replaced. */
export class SignalCopy implements LoopSignal {
  readonly kind: string;
  readonly detector: string;
  readonly loopStart: number | undefined;
  readonly unit: readonly number[] | undefined;
  readonly repeatCount: number | undefined;
  readonly fuzzy: boolean | undefined;
  readonly chunk: string | undefined;
  readonly #of: LoopSignal;

  constructor(
    of: LoopSignal,
    readonly confidence: number,
    readonly progress: Progress | undefined,
    readonly progressGated: boolean | undefined,
  ) {
    this.#of = of;
    this.kind = of.kind;
    this.detector = of.detector;
    this.loopStart = of.loopStart;
    this.unit = of.unit;
    this.repeatCount = of.repeatCount;
    this.fuzzy = of.fuzzy;
    this.chunk = of.chunk;
  }

  get pattern(): string {
    return this.#of.pattern;
  }
}
