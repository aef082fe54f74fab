/**
 * Result repeat: calls, the same or different, that keep producing the same result: no new information.
 * Counts, among the last `window` calls (the current one included), the successful non-empty results
 * equal to the current one by fingerprint or, with `masked`, equal once volatile parts are masked
 * (near-identical: "0 results at 10:01:22" / "at 10:01:29"). Errors are the dead-end detector's concern.
 *
 * Different calls may legitimately get the same acknowledgement ("OK", "File written"), so this is weak
 * evidence on its own: confidence 0.4, below the default policy's `minConfidence` of 0.5. It fires alone
 * only under a lower `minConfidence`; otherwise it corroborates other detectors. Except when it goes on:
 * `threshold + 2` different calls of one tool getting exactly the same answer (not one saying nothing was
 * found, nor a brief acknowledgement under 64 bytes) are a loop of their own (see {@link resultRepeatSignal}).
 */
import type { ResultRepeatOptions } from '../options/detector-options.js';
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Detector } from './detector.js';

/** Confidence of a result-repeat signal. */
export const RESULT_REPEAT_CONFIDENCE = 0.4;
/** Varied calls of one tool with the very same answer, beyond `threshold`, that are a loop of their own. */
export const VARIED_CALLS_EXTRA = 2;

/** Calls of a unit with the current call's tool and exact answer, and whether they are different calls. */
export interface VariedSameAnswer {
  readonly count: number;
  readonly varied: boolean;
}

/**
 * How many calls of `unit` are the current call's tool with exactly its result (an answer: not one saying
 * nothing was found, nor a brief acknowledgement), and whether they are different calls: varied calls that
 * keep getting the very same answer.
 */
export function variedSameAnswer(h: HistoryReader, unit: readonly number[]): VariedSameAnswer {
  const last = unit[unit.length - 1] as number;
  // an answer saying nothing was found, or a brief acknowledgement ("OK", "available"), is no answer
  if ((h.flagsOf(last) & (OutcomeFlag.NOTHING | OutcomeFlag.BRIEF)) !== 0) return { count: 0, varied: false };
  let count = 0;
  let varied = false;
  for (const i of unit) {
    if (i < h.oldest || !h.same(Ring.TOOL, i, last) || !h.same(Ring.OUTCOME, i, last)) continue;
    count++;
    if (!h.same(Ring.SIG, i, last)) varied = true;
  }
  return { count, varied };
}

/**
 * The signal for `unit` (ascending, the current call last): the same result among the last `span` calls.
 * `same`: what variedSameAnswer says of the unit (the WebAssembly module counts it itself). When
 * `threshold + VARIED_CALLS_EXTRA` of them are different calls of one tool getting exactly the same
 * answer (`ls`, `ls -la`, `find . -name ...` all answering the same listing), repeated outcomes are a
 * loop of their own: confidence 0.5, plus 0.05 per further one.
 */
export function resultRepeatSignal(same: VariedSameAnswer, o: ResultRepeatOptions, unit: readonly number[], span: number): LoopSignal {
  const loop = same.varied && same.count >= o.threshold + VARIED_CALLS_EXTRA;
  const count = same.count;
  // the pattern made on read (most of these signals are set aside: docs/speed.md, "sigcost")
  return withPattern({
    kind: 'result_repeat',
    detector: 'result_repeat',
    confidence: loop ? clampConfidence(0.5 + 0.05 * (count - o.threshold - VARIED_CALLS_EXTRA)) : RESULT_REPEAT_CONFIDENCE,
    loopStart: unit[0] as number,
    unit,
    repeatCount: unit.length,
    progress: 'stalled' as const,
    progressGated: false,
  }, () => (loop ? `${count} different calls got the very same answer in the last ${span} calls` : `the same result came back ${unit.length} times in the last ${span} calls`));
}

/** Detects results that keep coming back the same. */
export class ResultRepeatDetector implements Detector {
  readonly name = 'result_repeat';

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: ResultRepeatOptions,
  ) {}

  private counts(index: number): boolean {
    const f = this.ctx.history.flagsOf(index);
    return (f & OutcomeFlag.KNOWN) !== 0 && (f & (OutcomeFlag.ERROR | OutcomeFlag.EMPTY)) === 0;
  }

  record(): void {}

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const last = h.count - 1;
    if (last < 0 || !this.counts(last)) return null;
    const hits: number[] = [];
    const floor = Math.max(0, last - this.o.window + 1, h.oldest);
    for (let i = floor; i < last; i++) {
      if (!this.counts(i)) continue;
      if (h.same(Ring.OUTCOME, i, last) || (this.o.masked && h.same(Ring.MASKED, i, last))) hits.push(i);
    }
    if (hits.length + 1 < this.o.threshold) return null;
    const unit = [...hits, last];
    return resultRepeatSignal(variedSameAnswer(h, unit), this.o, unit, last - floor + 1);
  }

  reset(): void {}
}
