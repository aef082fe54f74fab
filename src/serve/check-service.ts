/**
 * What `loopwatch serve` does with a call once its request is read: the calls go to one LoopEngine in the
 * calling thread (on this 2-core machine the engine beats the pool; docs/service.md has the figures), and
 * come back as plain JSON-able results. The HTTP routes and the NATS workers are codecs around this.
 */
import { isLoopwatchError } from '../errors.js';
import type { LoopEngine } from '../engine/loop-engine.js';
import { redactSecrets } from '../text/redact.js';
import type { Verdict } from '../types.js';
import type { LiveDecision } from '../live/live-call.js';
import { BUILT_IN_KINDS } from '../metrics/engine-metrics.js';
import { countInto } from '../metrics/tally.js';
import type { PhasedCall, ServiceCall } from './call-schema.js';

/** One call's answer: its id (when the call had one) and verdict, or the error it met. */
export type CallResult =
  | { readonly id?: string; readonly verdict: Verdict | null }
  | { readonly id?: string; readonly error: { readonly code: string; readonly message: string; readonly field?: string } };

/** The answer of an error, as data (loopwatch errors keep their code and field; secrets in the message and field redacted). */
export function errorResult(id: string | undefined, e: unknown): CallResult {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = isLoopwatchError(err) ? err.code : 'ERR_LOOPWATCH_INTERNAL';
  const field = (err as { field?: unknown }).field;
  return { ...(id === undefined ? {} : { id }), error: { code, message: redactSecrets(err.message), ...(typeof field === 'string' ? { field: redactSecrets(field) } : {}) } };
}

/** Checks calls on one engine and answers as data. */
export class CheckService {
  /** Calls checked, verdicts given and calls that failed, since start. */
  readonly counts = { calls: 0, verdicts: 0, failed: 0 };
  /** Verdicts by `kind/action` (built-in kinds, else `custom`), for /metrics. */
  readonly verdicts = new Map<string, number>();
  /** Two-phase decisions by `phase/action`, for /metrics. */
  readonly decisions = new Map<string, number>();

  constructor(readonly engine: LoopEngine) {}

  /** One call: its verdict (null when the session is not looping). Throws for a call the engine refuses. */
  check(call: ServiceCall): CallResult {
    this.counts.calls++;
    const verdict = this.engine.check(call.session, call);
    if (verdict !== null) this.countVerdict(verdict);
    return call.id === undefined ? { verdict } : { id: call.id, verdict };
  }

  /** Before a call runs: the session's LiveDecision for it (LoopEngine.propose). Throws for a call the engine refuses. */
  propose(call: ServiceCall): LiveDecision {
    return this.decided(this.engine.propose(call.session, call));
  }

  /** After a call ran, with its outcome: the session's LiveDecision (LoopEngine.record). */
  record(call: ServiceCall): LiveDecision {
    return this.decided(this.engine.record(call.session, call));
  }

  /** Two-phase calls of many sessions, in order; a failed call's place holds its error. */
  decideBatch(calls: readonly PhasedCall[]): (LiveDecision | CallResult)[] {
    return this.engine.decideBatch(calls).map((d, i) => {
      if (d instanceof Error) {
        this.counts.calls++;
        this.counts.failed++;
        return errorResult((calls[i] as PhasedCall).id, d);
      }
      return this.decided(d);
    });
  }

  private decided(d: LiveDecision): LiveDecision {
    this.counts.calls++;
    countInto(this.decisions, `${d.phase}/${d.action}`);
    // a call's verdict counts once: when it is recorded, or when its proposal blocked it
    if (d.verdict !== null && (d.phase === 'record' || d.action === 'deny' || d.action === 'stop')) this.countVerdict(d.verdict);
    return d;
  }

  private countVerdict(v: Verdict): void {
    this.counts.verdicts++;
    countInto(this.verdicts, `${BUILT_IN_KINDS.has(v.kind) ? v.kind : 'custom'}/${v.action}`);
  }

  /** Calls of many sessions, in order: each gets what check() one by one gives; a failed call's place holds its error. */
  checkBatch(calls: readonly ServiceCall[]): CallResult[] {
    const out = this.engine.checkBatch(calls);
    this.counts.calls += calls.length;
    return out.map((v, i) => {
      const id = (calls[i] as ServiceCall).id;
      if (v instanceof Error) {
        this.counts.failed++;
        return errorResult(id, v);
      }
      if (v !== null) this.countVerdict(v);
      return id === undefined ? { verdict: v } : { id, verdict: v };
    });
  }
}
