/**
 * A dead end met again before it runs. A dead end (the same wall hit with other arguments each time:
 * "Could not find [A]", then [B], then [C]) shows only in outcomes, so the detectors find it when a call
 * is recorded. Its next attempt is a new call (new arguments), which neither the same call's evidence
 * (evidence.ts) nor a broken call's (broken-call.ts) covers, so two-phase it always ran: the record's
 * break came one call too late to stop anything.
 *
 * Proposed, such an attempt is judged by the calls that ran. It meets the wall when
 * - the session's latest recorded verdict was a dead end (LiveState.lastVerdict), and
 * - the calls right before it, `threshold` of them (dead_end's), are all of its tool and all failed with
 *   one class of error (the same masked error, or each saying nothing was found), none for the world's
 *   reasons (a rate limit, a timeout).
 *
 * Then the calls that ran are evidence enough to block it (a ladder's break is not turned into a warning);
 * and when that dead end reached a break, the proposal carries the signal below (kind `dead_end`), so it
 * meets the break even when nothing else flags it. Work between the attempts (an edit before each re-run
 * of a failing test, another tool's call) ends the wall: only an agent knocking on it again and again,
 * nothing else done, is stopped. Measured on the public traces: two-phase step-limit runs broken 38.3% ->
 * 46.4%, finished runs broken unchanged (19), the devset unchanged (see docs/evaluation.md).
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
 * The calls of the wall the call at `last` (the proposal, in the rings) would hit again, ascending: the
 * `threshold` calls right before it when they are all of its tool and all failed with one class of error
 * (the same masked error, or each saying nothing was found); null when they are not.
 */
export function wallRuns(h: HistoryReader, last: number, threshold: number): number[] | null {
  if (threshold < 1 || last - threshold < h.oldest) return null;
  const first = last - 1;
  const runs: number[] = [];
  for (let i = first; i >= last - threshold; i--) {
    const f = h.flagsOf(i);
    if (!h.same(Ring.TOOL, i, last) || !failedOwn(f)) return null;
    if (i !== first && !h.same(Ring.MASKED, i, first) && (f & h.flagsOf(first) & OutcomeFlag.NOTHING) === 0) return null;
    runs.push(i);
  }
  return runs.reverse();
}

/** The signal of the proposal at `last` that meets the wall of `runs` (wallRuns), after the dead end broke. */
export function wallSignal(runs: readonly number[], last: number, preview: string): LoopSignal {
  const unit = [...runs, last];
  return {
    kind: 'dead_end',
    detector: WALL_DETECTOR,
    pattern: `${preview} tries again the wall of a dead end that reached a break (its last ${runs.length} calls failed the same way)`,
    confidence: 1,
    loopStart: unit[0] as number,
    unit,
    repeatCount: unit.length,
    progress: 'stalled',
  };
}
