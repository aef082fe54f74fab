/**
 * Dead end: the same error at least `threshold` times among the last `window` calls (the current one
 * included), by exact text or, with `matchClass`, by class: the text with numbers, paths, ids and quoted
 * parts masked, so the same wall hit with varying arguments counts. Infrastructure failures (rate limits,
 * HTTP 429/5xx, timeouts, connection resets) never count. Confidence `0.6 + 0.1 * (count - threshold)`
 * (corteX's DeadEndDetector).
 *
 * Progress: when calls failed more than once each and every such call's error text changed along the way
 * (tests re-run after each edit: "5 failed", "5 failed", then "3 failed"), the world is moving and the
 * signal is `changing`; otherwise it is `stalled`. A call failing again right after itself, with nothing
 * done between, changed only if its error class did (a moving line number, a new temporary path or an
 * attempt counter is not progress).
 */
import type { DeadEndOptions } from '../options/detector-options.js';
import { OutcomeFlag, Ring } from '../state/call-history.js';
import { oneLine } from '../text/shown-text.js';
import type { LoopSignal, Progress } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Rewindable } from '../state/rewindable.js';
import type { Detector, ObservedCall } from './detector.js';

const PREVIEW = 100;

/** The signal for the errors of `unit` (ascending, the current call last) among the last `span` calls. */
export function deadEndSignal(o: DeadEndOptions, errorText: string, unit: readonly number[], span: number, progress: Progress): LoopSignal {
  // the pattern made on read, from the error's text (a string: nothing of the log's)
  return withPattern({
    kind: 'dead_end',
    detector: 'dead_end',
    confidence: clampConfidence(0.6 + 0.1 * (unit.length - o.threshold)),
    loopStart: unit[0] as number,
    unit,
    repeatCount: unit.length,
    progress,
    progressGated: true,
  }, () => {
    const shown = oneLine(errorText, PREVIEW);
    // an error with no text is a call that failed without a word (an exit status alone): say so, not a blank
    return shown === '' ? `${unit.length} calls in the last ${span} failed with no output` : `the same error ${unit.length} times in the last ${span} calls: ${shown}`;
  });
}

/** Detects an agent hitting the same error again and again. */
export class DeadEndDetector implements Detector, Rewindable {
  readonly name = 'dead_end';
  private lastError = '';

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: DeadEndOptions,
  ) {}

  private counts(index: number): boolean {
    const f = this.ctx.history.flagsOf(index);
    return (f & OutcomeFlag.ERROR) !== 0 && (f & OutcomeFlag.INFRA) === 0;
  }

  record(call: ObservedCall): void {
    this.lastError = call.errorText ?? '';
  }

  private undo: string | null = null;

  /** Remembers what the next record() changes (see Rewindable). */
  mark(): void {
    this.undo = this.lastError;
  }

  /** Undoes the record() made since mark(). */
  rollback(): void {
    if (this.undo === null) return;
    this.lastError = this.undo;
    this.undo = null;
  }

  check(): LoopSignal | null {
    const h = this.ctx.history;
    const last = h.count - 1;
    if (last < 0 || !this.counts(last)) return null;
    const ring = this.o.matchClass ? Ring.MASKED : Ring.ERROR;
    // by class, failures that say nothing was found are one class whatever they echo ("Could not find [A]")
    const nothing = this.o.matchClass ? h.flagsOf(last) & OutcomeFlag.NOTHING : 0;
    const hits: number[] = [];
    const floor = Math.max(h.count - this.o.window, h.oldest);
    for (let i = floor; i < last; i++) if (this.counts(i) && (h.same(ring, i, last) || (h.flagsOf(i) & nothing) !== 0)) hits.push(i);
    if (hits.length + 1 < this.o.threshold) return null;
    const all = [...hits, last];
    return deadEndSignal(this.o, this.lastError, all, last - floor + 1, this.sameCallChanged(all) ? 'changing' : 'stalled');
  }

  /**
   * Whether some call failed more than once, and every call that did saw its error change from one failure
   * to the next (by text; by class when it failed back to back).
   */
  private sameCallChanged(calls: readonly number[]): boolean {
    const h = this.ctx.history;
    let repeated = false;
    const done = new Set<number>();
    for (let a = 0; a < calls.length; a++) {
      if (done.has(a)) continue;
      let group = 0;
      let changed = false;
      let prev = calls[a] as number;
      for (let b = a + 1; b < calls.length; b++) {
        const cur = calls[b] as number;
        if (!h.same(Ring.SIG, calls[a] as number, cur)) continue;
        done.add(b);
        group++;
        if (!h.same(cur === prev + 1 ? Ring.MASKED : Ring.ERROR, prev, cur)) changed = true;
        prev = cur;
      }
      if (group === 0) continue;
      repeated = true;
      if (!changed) return false;
    }
    return repeated;
  }

  reset(): void {
    this.lastError = '';
    this.undo = null;
  }
}
