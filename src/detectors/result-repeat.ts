/**
 * Result repeat: calls, the same or different, that keep producing the same result: no new information.
 * Counts, among the last `window` calls (the current one included), the successful non-empty results
 * equal to the current one by fingerprint or, with `masked`, equal once volatile parts are masked
 * (near-identical: "0 results at 10:01:22" / "at 10:01:29"). Errors are the dead-end detector's concern.
 *
 * Different calls may legitimately get the same acknowledgement ("OK", "File written"), so this is weak
 * evidence on its own: confidence 0.4, below the default policy's `minConfidence` of 0.5. It fires alone
 * only under a lower `minConfidence`; otherwise it corroborates other detectors.
 */
import type { ResultRepeatOptions } from '../options/detector-options.js';
import { OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import type { DetectorContext } from './context.js';
import type { Detector } from './detector.js';

/** Confidence of a result-repeat signal. */
export const RESULT_REPEAT_CONFIDENCE = 0.4;

/** The signal for `unit` (ascending, the current call last): the same result among the last `span` calls. */
export function resultRepeatSignal(unit: readonly number[], span: number): LoopSignal {
  return {
    kind: 'result_repeat',
    detector: 'result_repeat',
    pattern: `the same result came back ${unit.length} times in the last ${span} calls`,
    confidence: RESULT_REPEAT_CONFIDENCE,
    loopStart: unit[0] as number,
    unit,
    repeatCount: unit.length,
    progress: 'stalled',
    progressGated: false,
  };
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
    return resultRepeatSignal([...hits, last], last - floor + 1);
  }

  reset(): void {}
}
