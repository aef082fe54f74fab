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
 *   reasons (a rate limit, a timeout), and none refused by the tool for its args (a schema's validation
 *   error, src/text/invalid-args.ts: the next attempt with changed args answers it; a real Gemini CLI
 *   session was denied the `ask_user` whose header was at last short enough), unless they are writes (a
 *   patch refused for its form, again and again, nothing written between, is a wall: the agent cannot
 *   write it), and
 * - it resembles them: a shell command runs the program they ran (src/text/command-program.ts: `git log`
 *   and `git status` are one wall, `ls -la .claude/` after them is the agent leaving it). Every shell call
 *   is one tool, so the tool alone said nothing there. Any other tool's name already says what it does
 *   (`Read`, `Search`, `replace`), and a dead end is that tool with new arguments each time, so for it the
 *   same tool is enough: asking for args alike would miss the very loop the wall stops.
 *
 * Then the proposal carries the signal below (kind `dead_end`, the session's own evidence, never weighed)
 * and the calls that ran are evidence enough to block it: the ladder decides, as for any proposal (a warning
 * on its lower rungs, a block on `break`). Work between the attempts (an edit before each re-run of a
 * failing test, another tool's call) ends the wall: only an agent knocking on it again and again, nothing
 * else done, is stopped. Measured on the public traces (docs/evaluation.md): step-limit runs broken
 * two-phase 38.3% -> 50.8% (with evidence.ts's rule for answers alike, 47.5%; ReAct's 32.9% -> 65.7%),
 * one finished run more broken (19 -> 20), the devset unchanged.
 */
import { CallFact } from '../policy/call-facts.js';
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';

/** The detector named by the signal of a proposal that meets a dead end's wall (the session's own evidence). */
export const WALL_DETECTOR = 'dead_end_again';

/** Whether a call's flags say it failed for the agent's own reasons (not infrastructure). */
function failedOwn(flags: number): boolean {
  return (flags & (OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === OutcomeFlag.ERROR;
}

/** What the wall reads of the calls that ran, beside the rings: the host's CallFacts (`targetOf` of a failed call is its program key). */
export interface WallFacts {
  /** The program key of the call at `index` when it failed (src/text/command-program.ts's programKey; a failed write naming its file: that file's key, outcome-facts.ts failureTarget), 0 when none is known. */
  targetOf(index: number): number;
  /** The CallFact bits of the call at `index`. */
  of(index: number): number;
}

/**
 * How many calls right before the call at `last` (the proposal, in the rings), at most `max`, are all of
 * its tool and all failed with the class of error of the latest of them (the same masked error, or each
 * saying nothing was found); with `programs` (the calls' facts), none refused for its args, and each ran
 * the proposal's `program` (a call or a proposal whose key is 0, no shell command, is compared by its tool
 * only).
 */
export function wallLength(h: HistoryReader, last: number, max: number, programs: WallFacts | null = null, program = 0): number {
  const first = last - 1;
  let n = 0;
  for (let i = first; i >= h.oldest && n < max; i--) {
    const f = h.flagsOf(i);
    if (!h.same(Ring.TOOL, i, last) || !failedOwn(f)) break;
    if (program !== 0 && programs !== null && !sameProgram(programs.targetOf(i), program)) break;
    // a tool refusing the args (a validation error) is answered by new args: no wall (invalid-args.ts); a write
    // refused (a patch that does not parse) right after writes refused alike is: nothing was written between
    if (programs !== null && (programs.of(i) & (CallFact.INVALID_ARGS | CallFact.WRITE)) === CallFact.INVALID_ARGS) break;
    if (i !== first && !h.same(Ring.MASKED, i, first) && (f & h.flagsOf(first) & OutcomeFlag.NOTHING) === 0) break;
    n++;
  }
  return n;
}

/** Whether a call that ran `key` (0: not known) may be the program `program` (known). */
function sameProgram(key: number, program: number): boolean {
  return key === 0 || key === program;
}

/**
 * The signal of the proposal at `last` when the `threshold` calls right before it hit one wall (wallLength,
 * with the proposal's program key and the calls' keys): its unit those calls and the proposal; null when they did not.
 */
export function wallSignal(h: HistoryReader, last: number, threshold: number, preview: string, programs: WallFacts | null = null, program = 0): LoopSignal | null {
  if (threshold < 1 || wallLength(h, last, threshold, programs, program) < threshold) return null;
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
