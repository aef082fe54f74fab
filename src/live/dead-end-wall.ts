/**
 * A dead end met again before it runs. A dead end (the same wall hit with other arguments each time:
 * "Could not find [A]", then [B], then [C]) shows only in outcomes, so the detectors find it when a call
 * is recorded. Its next attempt is a new call (new arguments), which neither the same call's evidence
 * (evidence.ts) nor a broken call's (broken-call.ts) covers, so two-phase it always ran: the record's
 * break came one call too late to stop anything, and a ladder's break at the proposal became a warning.
 *
 * Proposed, such an attempt is judged by the calls that ran. It meets the wall when
 * - the session's latest recorded verdict was a dead end (LiveState.latestVerdictKind), and
 * - the calls right before it, `threshold` of them (dead_end's), are all of its tool and all failed with
 *   one class of error (the same masked error, or each saying nothing was found), none for the world's
 *   reasons (a rate limit, a timeout).
 *
 * Then the proposal carries the signal below (kind `dead_end`, the session's own evidence, never weighed)
 * and the calls that ran are evidence enough to block it: the ladder decides, as for any proposal (a warning
 * on its lower rungs, a block on `break`). Work between the attempts (an edit before each re-run of a
 * failing test, another tool's call) ends the wall: only an agent knocking on it again and again, nothing
 * else done, is stopped. Measured on the public traces (docs/evaluation.md): step-limit runs broken
 * two-phase 38.3% -> 50.8% (with evidence.ts's rule for answers alike, 47.5%; ReAct's 32.9% -> 65.7%),
 * one finished run more broken (19 -> 20), the devset unchanged.
 */
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';

/** The detector named by the signal of a proposal that meets a dead end's wall (the session's own evidence). */
export const WALL_DETECTOR = 'dead_end_again';

/** Whether a call's flags say it failed for the agent's own reasons (not infrastructure). */
function failedOwn(flags: number): boolean {
  return (flags & (OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === OutcomeFlag.ERROR;
}

/**
 * How many calls right before the call at `last` (the proposal, in the rings), at most `max`, are all of
 * its tool and all failed with the class of error of the latest of them (the same masked error, or each
 * saying nothing was found).
 */
export function wallLength(h: HistoryReader, last: number, max: number): number {
  const first = last - 1;
  let n = 0;
  for (let i = first; i >= h.oldest && n < max; i--) {
    const f = h.flagsOf(i);
    if (!h.same(Ring.TOOL, i, last) || !failedOwn(f)) break;
    if (i !== first && !h.same(Ring.MASKED, i, first) && (f & h.flagsOf(first) & OutcomeFlag.NOTHING) === 0) break;
    n++;
  }
  return n;
}

/**
 * The signal of the proposal at `last` when the `threshold` calls right before it hit one wall (wallLength):
 * its unit those calls and the proposal; null when they did not.
 */
export function wallSignal(h: HistoryReader, last: number, threshold: number, preview: string): LoopSignal | null {
  if (threshold < 1 || wallLength(h, last, threshold) < threshold) return null;
  return wallSignalOf(last, threshold, preview);
}

/** The signal of the proposal at `last` after `threshold` calls that hit one wall (checked by the caller). */
export function wallSignalOf(last: number, threshold: number, preview: string): LoopSignal {
  const unit: number[] = [];
  for (let i = last - threshold; i <= last; i++) unit.push(i);
  return {
    kind: 'dead_end',
    detector: WALL_DETECTOR,
    pattern: `${preview} tries again the wall of a dead end (the last ${threshold} calls failed the same way)`,
    confidence: 1,
    loopStart: last - threshold,
    unit,
    repeatCount: unit.length,
    progress: 'stalled',
  };
}
