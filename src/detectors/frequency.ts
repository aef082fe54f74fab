/**
 * Frequency: the same call at least `threshold` times among the last `window` calls (the current one
 * included), consecutive or not. Confidence `0.5 + 0.1 * (count - threshold)`.
 *
 * When every gap between two occurrences holds a fresh call (one not made earlier in the window), the
 * agent is acting between the repeats (edit, re-run the tests, edit, re-run): identical outcomes then
 * count as `mixed` rather than `stalled`, and anything else as `changing`.
 */
import type { FrequencyOptions } from '../options/detector-options.js';
import { Ring } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal, Progress } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Detector } from './detector.js';
import { repeatProgress } from './progress.js';

function softened(p: Progress): Progress {
  return p === 'stalled' ? 'mixed' : 'changing';
}

/** The signal for `count` occurrences of the call at `last` among the last `span` calls, from `start`. */
export function frequencySignal(log: CallLog, o: FrequencyOptions, last: number, start: number, count: number, span: number, progress: Progress): LoopSignal {
  return withPattern({
    kind: 'frequency',
    detector: 'frequency',
    confidence: clampConfidence(0.5 + 0.1 * (count - o.threshold)),
    loopStart: start,
    unit: [last],
    repeatCount: count,
    progress,
    progressGated: true,
  }, () => `${log.preview(last)} called ${count} times in the last ${span} calls`);
}

/** Detects a call that keeps coming back within a window. */
export class FrequencyDetector implements Detector {
  readonly name = 'frequency';

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: FrequencyOptions,
  ) {}

  record(): void {}

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const last = h.count - 1;
    if (last < 0) return null;
    const floor = Math.max(h.count - this.o.window, h.oldest);
    const hits: number[] = [];
    for (let i = floor; i <= last; i++) if (h.same(Ring.SIG, i, last)) hits.push(i);
    if (hits.length < this.o.threshold) return null;
    const progress = this.freshBetween(hits, floor) ? softened(repeatProgress(h, hits)) : repeatProgress(h, hits);
    return frequencySignal(this.ctx.log, this.o, last, hits[0] as number, hits.length, last - floor + 1, progress);
  }

  /** Whether every gap between consecutive occurrences holds a call not made earlier in the window. */
  private freshBetween(hits: readonly number[], floor: number): boolean {
    const h = this.ctx.history;
    for (let k = 1; k < hits.length; k++) {
      let fresh = false;
      for (let i = (hits[k - 1] as number) + 1; i < (hits[k] as number) && !fresh; i++) {
        let seen = false;
        for (let j = floor; j < i && !seen; j++) seen = h.same(Ring.SIG, j, i);
        fresh = !seen;
      }
      if (!fresh) return false;
    }
    return true;
  }

  /** Whether any call in the window occurs `threshold` times or more (the ToolLoopDetector `is_stuck` view). */
  anyAtThreshold(): boolean {
    const h = this.ctx.history;
    const floor = Math.max(h.count - this.o.window, h.oldest);
    for (let i = floor; i < h.count; i++) {
      let n = 0;
      for (let j = floor; j < h.count; j++) if (h.same(Ring.SIG, i, j)) n++;
      if (n >= this.o.threshold) return true;
    }
    return false;
  }

  reset(): void {}
}
