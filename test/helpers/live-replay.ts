/**
 * Replays scripted calls in two-phase order through anything with propose() and record(): each call is
 * proposed, and recorded with its outcome only when it was allowed to run (a denied call never ran).
 */
import type { LiveCall, LiveDecision } from '../../src/index.js';
import type { ScriptedCall } from './live-scenarios.js';

/** What one scripted call got: the proposal's decision, and the record's when it ran. */
export interface ReplayStep {
  readonly propose: LiveDecision;
  readonly record: LiveDecision | null;
}

/** The two-phase surface of a LoopDetector (sync) or a session of an engine. */
export interface TwoPhase {
  propose(call: LiveCall): LiveDecision;
  record(call: LiveCall): LiveDecision;
}

/** Replays the calls; `ids` gives each call an id (`c0`, `c1`, ...). */
export function replay(d: TwoPhase, calls: readonly ScriptedCall[], ids = true): ReplayStep[] {
  return calls.map((c, i) => {
    const call: LiveCall = { tool: c.tool, args: c.args, ...(ids ? { id: `c${i}` } : {}) };
    const propose = d.propose(call);
    if (propose.action === 'deny' || propose.action === 'stop') return { propose, record: null };
    const record = d.record({ ...call, ...(c.error === undefined ? { result: c.result } : { error: c.error }) });
    return { propose, record };
  });
}

/** The steps' proposal actions, as `index:action` for the ones that were not `allow`. */
export function actions(steps: readonly ReplayStep[]): string[] {
  return steps.flatMap((s, i) => (s.propose.action === 'allow' ? [] : [`${i}:${s.propose.action}`]));
}
