/**
 * Result repeat: calls, the same or different, that keep producing the same or a near-identical result:
 * no new information. Counts, among the last `window` calls (the current one included), the successful
 * non-empty results equal to the current one by fingerprint, or with edit similarity >= `similarity`.
 * Errors are the dead-end detector's concern and are not counted here.
 *
 * Different calls may legitimately get the same acknowledgement ("OK", "File written"), so this is weak
 * evidence on its own: confidence 0.4, below the default policy's `minConfidence` of 0.5. It fires alone
 * only under a lower `minConfidence`; otherwise it corroborates other detectors.
 */
import type { ResultRepeatOptions } from '../options/detector-options.js';
import { OutcomeFlag } from '../state/call-history.js';
import { type TextSample, sampleSimilarityAtLeast, textSample } from '../text/edit-similarity.js';
import type { LoopSignal } from '../types.js';
import type { DetectorContext } from './context.js';
import type { Detector, ObservedCall } from './detector.js';

/** Confidence of a result-repeat signal. */
export const RESULT_REPEAT_CONFIDENCE = 0.4;

/** The text of a result for comparison. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(result);
  } catch {
    return String(result);
  }
}

/** Detects results that keep coming back the same. */
export class ResultRepeatDetector implements Detector {
  readonly name = 'result_repeat';
  private readonly samples: (TextSample | null)[];
  private n = 0;

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: ResultRepeatOptions,
  ) {
    this.samples = new Array<TextSample | null>(o.window).fill(null);
  }

  private counts(index: number): boolean {
    const f = this.ctx.history.flagsOf(index);
    return (f & OutcomeFlag.KNOWN) !== 0 && (f & (OutcomeFlag.ERROR | OutcomeFlag.EMPTY)) === 0;
  }

  record(call: ObservedCall): void {
    const usable = call.event.result !== undefined && this.counts(call.index);
    this.samples[this.n % this.samples.length] = usable && this.o.similarity < 1 ? textSample(resultText(call.event.result)) : null;
    this.n++;
  }

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const last = this.n - 1;
    if (last < 0 || !this.counts(last)) return null;
    const cur = this.samples[last % this.samples.length] ?? null;
    const hits: number[] = [];
    const floor = Math.max(0, last - this.o.window + 1, h.oldest);
    for (let i = floor; i < last; i++) {
      if (!this.counts(i)) continue;
      if (h.same(h.outcome, i, last)) {
        hits.push(i);
        continue;
      }
      const other = this.samples[i % this.samples.length] ?? null;
      if (cur !== null && other !== null && sampleSimilarityAtLeast(cur, other, this.o.similarity) >= this.o.similarity) hits.push(i);
    }
    const count = hits.length + 1;
    if (count < this.o.threshold) return null;
    const unit = [...hits, last];
    return {
      kind: 'result_repeat',
      detector: this.name,
      pattern: `the same result came back ${count} times in the last ${last - floor + 1} calls`,
      confidence: RESULT_REPEAT_CONFIDENCE,
      loopStart: hits[0] as number,
      unit,
      repeatCount: count,
      progress: 'stalled',
      progressGated: false,
    };
  }

  reset(): void {
    this.n = 0;
    this.samples.fill(null);
  }
}
