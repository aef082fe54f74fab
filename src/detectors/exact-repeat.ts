/**
 * Exact repeat: the same call (same canonical signature) several times in a row.
 * Fires while the run at the tail is at least `threshold` long; the run is counted up to `window` calls.
 * Confidence `0.8 + 0.05 * (run - threshold)`: identical calls back to back are strong evidence.
 */
import type { ExactRepeatOptions } from '../options/detector-options.js';
import { Ring } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal, Progress } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern, range } from './context.js';
import type { Detector } from './detector.js';
import { repeatProgress } from './progress.js';

/** The signal for a run of `run` identical calls from `start` to `last`. */
export function exactRepeatSignal(log: CallLog, o: ExactRepeatOptions, last: number, start: number, run: number, progress: Progress): LoopSignal {
  return withPattern({
    kind: 'exact_repeat',
    detector: 'exact_repeat',
    confidence: clampConfidence(0.8 + 0.05 * (run - o.threshold)),
    loopStart: start,
    unit: [last],
    repeatCount: run,
    progress,
    progressGated: true,
  }, () => `${log.preview(last)} called ${run} times in a row`);
}

/** Detects the same call repeated back to back. */
export class ExactRepeatDetector implements Detector {
  readonly name = 'exact_repeat';

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: ExactRepeatOptions,
  ) {}

  record(): void {}

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const last = h.count - 1;
    if (last < 0) return null;
    const floor = Math.max(h.count - this.o.window, h.oldest);
    let start = last;
    while (start - 1 >= floor && h.same(Ring.SIG, start - 1, last)) start--;
    const run = last - start + 1;
    if (run < this.o.threshold) return null;
    return exactRepeatSignal(this.ctx.log, this.o, last, start, run, repeatProgress(h, range(start, last)));
  }

  reset(): void {}
}
