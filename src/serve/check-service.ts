/**
 * What `loopwatch serve` does with a call once its request is read: the calls go to one LoopEngine in the
 * calling thread (on this 2-core machine the engine beats the pool; docs/service.md has the figures), and
 * come back as plain JSON-able results. The HTTP routes and the NATS workers are codecs around this.
 */
import { isLoopwatchError } from '../errors.js';
import type { LoopEngine } from '../engine/loop-engine.js';
import { redactSecrets } from '../text/redact.js';
import type { Verdict } from '../types.js';
import type { ServiceCall } from './call-schema.js';

/** One call's answer: its id (when the call had one) and verdict, or the error it met. */
export type CallResult =
  | { readonly id?: string; readonly verdict: Verdict | null }
  | { readonly id?: string; readonly error: { readonly code: string; readonly message: string; readonly field?: string } };

/** The answer of an error, as data (loopwatch errors keep their code and field; secrets in the message redacted). */
export function errorResult(id: string | undefined, e: unknown): CallResult {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = isLoopwatchError(err) ? err.code : 'ERR_LOOPWATCH_INTERNAL';
  const field = (err as { field?: unknown }).field;
  return { ...(id === undefined ? {} : { id }), error: { code, message: redactSecrets(err.message), ...(typeof field === 'string' ? { field } : {}) } };
}

/** Checks calls on one engine and answers as data. */
export class CheckService {
  /** Calls checked, verdicts given and calls that failed, since start. */
  readonly counts = { calls: 0, verdicts: 0, failed: 0 };

  constructor(readonly engine: LoopEngine) {}

  /** One call: its verdict (null when the session is not looping). Throws for a call the engine refuses. */
  check(call: ServiceCall): CallResult {
    this.counts.calls++;
    const verdict = this.engine.check(call.session, call);
    if (verdict !== null) this.counts.verdicts++;
    return call.id === undefined ? { verdict } : { id: call.id, verdict };
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
      if (v !== null) this.counts.verdicts++;
      return id === undefined ? { verdict: v } : { id, verdict: v };
    });
  }
}
