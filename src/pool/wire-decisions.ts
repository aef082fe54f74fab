/**
 * Two-phase decisions across the thread boundary, compact. A LiveDecision's session, phase and call id are
 * what the pool packed, and its message is its verdict's: so a worker sends only its action (and whether it
 * was a late record) as one small number, and only when it is not a plain `allow`; the verdict travels
 * among the batch's verdicts. The pool rebuilds the frozen object the engine would have given.
 */
import { type LiveAction, type LiveDecision, type LivePhase, lateRecord, liveDecision } from '../live/live-call.js';
import type { Verdict } from '../types.js';
import { Op, type OpCode } from './event-packing.js';
import type { RunResult } from './worker-tasks.js';

/** Actions by code; code 0, `allow`, is what a decision without a code is. */
const ACTIONS: readonly LiveAction[] = ['allow', 'warn', 'ask', 'deny', 'stop'];

/** The bit of a late record. */
const LATE = 8;

/** A decision's code: 0 for a plain `allow` (nothing sent). */
export function decisionCode(d: LiveDecision): number {
  return ACTIONS.indexOf(d.action) | (d.late === true ? LATE : 0);
}

/** The decision a code and verdict stand for, in a call of `session` at `phase` with id `id` (an Error for a code no worker sends). */
export function decisionFromWire(session: string, phase: LivePhase, id: string | undefined, code: number, verdict: Verdict | null): LiveDecision | Error {
  if ((code & LATE) !== 0) return lateRecord(session, id);
  const action = ACTIONS[code];
  if (action === undefined) return new Error(`loopwatch: a worker answered with an unknown decision (${code})`);
  return liveDecision(session, phase, id, action, verdict);
}

/**
 * Puts the decisions of a batch's two-phase calls (`ops[k]` PROPOSE or RECORD, of session `sessionOf(k)`,
 * call id `ids.get(k)`) in their places of `out`, which hold their verdicts (or null), or their errors (kept).
 */
export function decisionsInto(out: unknown[], ops: readonly OpCode[], sessionOf: (k: number) => string, ids: ReadonlyMap<number, string> | null, r: Pick<RunResult, 'decisionAt' | 'decisions'>): void {
  const codes = new Map<number, number>();
  for (let k = 0; k < r.decisionAt.length; k++) codes.set(r.decisionAt[k] as number, r.decisions[k] as number);
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if ((op !== Op.PROPOSE && op !== Op.RECORD) || out[k] instanceof Error) continue;
    out[k] = decisionFromWire(sessionOf(k), op === Op.PROPOSE ? 'propose' : 'record', ids?.get(k), codes.get(k) ?? 0, (out[k] as Verdict | null) ?? null);
  }
}
