/**
 * Cycle / oscillation: a unit of `p` calls (minPeriod <= p <= maxPeriod) repeated back to back at least
 * `repetitions` times at the tail of the history (A-B-A-B, A-B-C-A-B-C).
 *
 * ```
 *   ... x  A B C  A B C  A B C        tail periodic with p = 3: key[i] == key[i + p] for i in span
 *          ^start          ^last      span extended backwards while it stays periodic (within window)
 * ```
 *
 * The smallest matching period wins. A unit must be primitive (not itself a repetition of a shorter
 * unit), so A-A-A-A is an exact repeat, not a cycle. Keys are call signatures, or tool names with
 * `key: 'tool'`. Confidence `0.5 + 0.15 * (repeats - repetitions)` (corteX's oscillation rule).
 */
import type { CycleOptions } from '../options/detector-options.js';
import { Ring, type RingId } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal, Progress } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern, range } from './context.js';
import type { Detector } from './detector.js';
import { cycleProgress } from './progress.js';
import { callName } from '../text/call-number.js';

/** The signal for a unit of `period` calls ending at `last`, periodic since `start`. */
export function cycleSignal(log: CallLog, o: CycleOptions, last: number, start: number, period: number, progress: Progress): LoopSignal {
  const repeats = Math.floor((last - start + 1) / period);
  const unit = range(last - period + 1, last);
  const names = () => unit.map((i) => (o.key === 'tool' ? (log.ref(i)?.tool ?? callName(i)) : log.preview(i)));
  return withPattern({
    kind: 'cycle',
    detector: 'cycle',
    confidence: clampConfidence(0.5 + 0.15 * (repeats - o.repetitions)),
    loopStart: start,
    unit,
    repeatCount: repeats,
    progress,
    progressGated: true,
  }, () => `${names().join(' → ')} repeated ${repeats} times (period ${period})`);
}

/** Detects a unit of calls repeating back to back. */
export class CycleDetector implements Detector {
  readonly name = 'cycle';

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: CycleOptions,
  ) {}

  record(): void {}

  private keys(): RingId {
    return this.o.key === 'tool' ? Ring.TOOL : Ring.SIG;
  }

  /** Whether the unit of `p` calls ending at `last` repeats with a shorter period dividing `p`. */
  private primitive(last: number, p: number): boolean {
    const h = this.ctx.history;
    const ring = this.keys();
    for (let d = 1; d < p; d++) {
      if (p % d !== 0) continue;
      let periodic = true;
      for (let i = last - p + 1; i + d <= last; i++) {
        if (!h.same(ring, i, i + d)) {
          periodic = false;
          break;
        }
      }
      if (periodic) return false;
    }
    return true;
  }

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const ring = this.keys();
    const last = h.count - 1;
    const floor = Math.max(h.count - this.o.window, h.oldest);
    const available = last - floor + 1;
    for (let p = this.o.minPeriod; p <= this.o.maxPeriod; p++) {
      const need = p * this.o.repetitions;
      if (need > available) break;
      let periodic = true;
      for (let i = last - need + 1; i + p <= last; i++) {
        if (!h.same(ring, i, i + p)) {
          periodic = false;
          break;
        }
      }
      if (!periodic || !this.primitive(last, p)) continue;
      let start = last - need + 1;
      while (start - 1 >= floor && h.same(ring, start - 1, start - 1 + p)) start--;
      const repeats = Math.floor((last - start + 1) / p);
      return cycleSignal(this.ctx.log, this.o, last, start, p, cycleProgress(h, last, p, repeats));
    }
    return null;
  }

  reset(): void {}
}
