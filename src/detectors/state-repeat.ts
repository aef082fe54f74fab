/**
 * State repeat: the same (action, outcome) state seen at least `threshold` times among the last `window`
 * states. The action is the event's description when given, else the call's signature; the outcome is
 * the result (or error). Calls with no known outcome or an infrastructure failure make no state.
 * Confidence `0.5 + 0.15 * (count - threshold)` (corteX's ExactHashDetector).
 */
import { Tag, combine2 } from '../fingerprint/combine.js';
import { hashString } from '../fingerprint/canonical-hash.js';
import { u64 } from '../fingerprint/u64.js';
import type { StateRepeatOptions } from '../options/detector-options.js';
import { OutcomeFlag } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence } from './context.js';
import type { Detector, ObservedCall } from './detector.js';

/** Detects the agent coming back to a state it has already been in. */
export class StateRepeatDetector implements Detector {
  readonly name = 'state_repeat';
  private readonly states: Uint32Array;
  private readonly calls: Int32Array;
  private n = 0;
  private current = -1;

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: StateRepeatOptions,
  ) {
    this.states = new Uint32Array(o.window * 2);
    this.calls = new Int32Array(o.window);
  }

  record(call: ObservedCall): void {
    const h = this.ctx.history;
    const f = h.flagsOf(call.index);
    this.current = -1;
    if ((f & OutcomeFlag.KNOWN) === 0 || (f & OutcomeFlag.INFRA) !== 0) return;
    const s = h.slot(call.index) * 2;
    let ah: number;
    let al: number;
    const description = call.event.description;
    if (description !== undefined) {
      al = hashString(description);
      ah = u64.hi;
    } else {
      ah = h.sig[s] as number;
      al = h.sig[s + 1] as number;
    }
    const l = combine2(Tag.STATE, ah, al, h.outcome[s] as number, h.outcome[s + 1] as number);
    const slot = this.n % this.o.window;
    this.states[slot * 2] = u64.hi;
    this.states[slot * 2 + 1] = l;
    this.calls[slot] = call.index;
    this.current = slot;
    this.n++;
  }

  check(): LoopSignal | null {
    if (this.current < 0) return null;
    const kept = Math.min(this.n, this.o.window);
    const hi = this.states[this.current * 2];
    const lo = this.states[this.current * 2 + 1];
    let count = 0;
    let first = this.calls[this.current] as number;
    for (let k = 0; k < kept; k++) {
      if (this.states[k * 2] === hi && this.states[k * 2 + 1] === lo) {
        count++;
        const at = this.calls[k] as number;
        if (at < first) first = at;
      }
    }
    if (count < this.o.threshold) return null;
    const last = this.calls[this.current] as number;
    return {
      kind: 'state_repeat',
      detector: this.name,
      pattern: `${this.ctx.log.preview(last)} reached the same state ${count} times (same action, same outcome)`,
      confidence: clampConfidence(0.5 + 0.15 * (count - this.o.threshold)),
      loopStart: first,
      unit: [last],
      repeatCount: count,
      progress: 'stalled',
      progressGated: false,
    };
  }

  reset(): void {
    this.n = 0;
    this.current = -1;
  }
}
