/**
 * A fresh start (LoopDetector.freshStart): the session is given a way back after it was blocked or
 * stopped, when the user gives new instructions (a new prompt), when the agent changed the workspace after
 * a block (a successful new edit), or when a person says so (`loopwatch hook reset`).
 *
 * ```
 *   calls 0 .. H-1 (before)           | fresh start at H         | calls H ..
 *   history kept: a loop that comes   | ladder: first rung       | a call that ran fewer than RETURNS times
 *   back is found again               | blocked calls, strikes:  |   since H: signals about loops begun
 *                                     |   forgotten              |   before H are left out
 *                                     |                          | then: the old repetitions count again,
 *                                     |                          |   the ladder climbs from its first rung
 * ```
 *
 * So the first runs of a check after new instructions or new work are not greeted as a loop (`npm test`
 * after the fix, and again ten calls later), while a call that keeps coming back is found again sooner
 * than a new loop would be. Proposals waiting for their outcome stay: their records still pair with them.
 */
import type { PolicyLog } from '../policy/policy-log.js';
import type { LoopSignal } from '../types.js';

/** Runs since a fresh start after which a call's old repetitions count again. */
export const RETURNS = 2;

/**
 * Whether the call at `last` ran at least RETURNS times since `freshAt`, by the signatures of the session's
 * call log (reads back to `freshAt` at most, and no further than the log keeps calls). The log, not the
 * detectors' rings: in a batch the module's rings already hold the session's later calls (and a ring may
 * keep fewer calls than the log), so a read of them depended on how the calls were batched.
 */
export function returned(log: PolicyLog, last: number, freshAt: number): boolean {
  const sig = log.signatureLow(last);
  if (sig === undefined) return false;
  let runs = 0;
  for (let i = last - 1; i >= freshAt; i--) {
    const s = log.signatureLow(i);
    if (s === undefined) return false;
    if (s === sig && ++runs >= RETURNS) return true;
  }
  return false;
}

/**
 * The signals of the call at `last` that count after a fresh start at call `freshAt` (0: none): all of
 * them, unless the call ran fewer than RETURNS times since, when those about loops begun before `freshAt`
 * are left out.
 */
export function afterFreshStart(signals: readonly LoopSignal[], log: PolicyLog, last: number, freshAt: number): readonly LoopSignal[] {
  if (freshAt <= 0 || !signals.some((s) => (s.loopStart ?? last) < freshAt) || returned(log, last, freshAt)) return signals;
  return sinceFreshStart(signals, last, freshAt);
}

/** The signals about loops begun at or after a fresh start at call `freshAt`, of the call at `last`. */
export function sinceFreshStart(signals: readonly LoopSignal[], last: number, freshAt: number): readonly LoopSignal[] {
  return signals.filter((s) => (s.loopStart ?? last) >= freshAt);
}
