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
import { type HistoryReader, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';

/** Runs since a fresh start after which a call's old repetitions count again. */
export const RETURNS = 2;

/** Whether the call at `last` ran at least RETURNS times since `freshAt` (reads back to `freshAt` at most). */
export function returned(h: HistoryReader, last: number, freshAt: number): boolean {
  let runs = 0;
  for (let i = last - 1; i >= freshAt && i >= h.oldest; i--) {
    if (h.same(Ring.SIG, i, last) && ++runs >= RETURNS) return true;
  }
  return false;
}

/**
 * The signals of the call at `last` that count after a fresh start at call `freshAt` (0: none): all of
 * them, unless the call ran fewer than RETURNS times since, when those about loops begun before `freshAt`
 * are left out.
 */
export function afterFreshStart(signals: readonly LoopSignal[], h: HistoryReader, last: number, freshAt: number): readonly LoopSignal[] {
  if (freshAt <= 0 || !signals.some((s) => (s.loopStart ?? last) < freshAt) || returned(h, last, freshAt)) return signals;
  return sinceFreshStart(signals, last, freshAt);
}

/** The signals about loops begun at or after a fresh start at call `freshAt`, of the call at `last`. */
export function sinceFreshStart(signals: readonly LoopSignal[], last: number, freshAt: number): readonly LoopSignal[] {
  return signals.filter((s) => (s.loopStart ?? last) >= freshAt);
}
