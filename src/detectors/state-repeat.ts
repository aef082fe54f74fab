/**
 * State repeat: the same (action, outcome) state at least `threshold` times among the last `window` calls.
 * The action is the event's description when given, else the call's signature; the outcome is the result
 * (or error). Calls with no known outcome or an infrastructure failure have no state. One ring slot per
 * call, so a state's position tells the call it came from. Confidence `0.5 + 0.15 * (count - threshold)`
 * (corteX's ExactHashDetector).
 */
import type { StateRepeatOptions } from '../options/detector-options.js';
import type { LoggedCall } from '../session/observed-call.js';
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Rewindable } from '../state/rewindable.js';
import type { Detector } from './detector.js';

/** The signal for the state of the call at `last`, seen `count` times since `first`. */
export function stateRepeatSignal(log: CallLog, o: StateRepeatOptions, last: number, first: number, count: number): LoopSignal {
  return withPattern({
    kind: 'state_repeat',
    detector: 'state_repeat',
    confidence: clampConfidence(0.5 + 0.15 * (count - o.threshold)),
    loopStart: first,
    unit: [last],
    repeatCount: count,
    progress: 'stalled',
    progressGated: false,
  }, () => `${log.preview(last)} reached the same state ${count} times (same action, same outcome)`);
}

/** Detects the agent coming back to a state it has already been in. */
export class StateRepeatDetector implements Detector, Rewindable {
  readonly name = 'state_repeat';
  private readonly states: Uint32Array;
  private n = 0;

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: StateRepeatOptions,
  ) {
    this.states = new Uint32Array(o.window);
  }

  record(call: LoggedCall): void {
    this.states[this.n % this.o.window] = call.stateKey;
    this.n++;
  }

  check(): LoopSignal | null {
    const last = this.n - 1;
    const w = this.o.window;
    const key = this.states[last % w] as number;
    if (last < 0 || key === 0) return null;
    let count = 0;
    let first = last;
    for (let i = Math.max(0, this.n - w); i <= last; i++) {
      if (this.states[i % w] === key) {
        count++;
        if (i < first) first = i;
      }
    }
    if (count < this.o.threshold) return null;
    return stateRepeatSignal(this.ctx.log, this.o, last, first, count);
  }

  private undo: { n: number; state: number } | null = null;

  /** Remembers what the next record() changes (see Rewindable). */
  mark(): void {
    this.undo = { n: this.n, state: this.states[this.n % this.o.window] as number };
  }

  /** Undoes the record() made since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    this.states[u.n % this.o.window] = u.state;
    this.n = u.n;
  }

  reset(): void {
    this.undo = null;
    this.n = 0;
    this.states.fill(0);
  }
}
