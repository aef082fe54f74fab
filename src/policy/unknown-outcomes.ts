/**
 * A break needs evidence that the session is not progressing. When no outcome of a cycle's calls is known
 * (the host gives none: call requests seen before they run, calls checked without their results), the
 * repetition itself is all the evidence there is, and two or three turns of a cycle are not enough: three
 * calls taken in turn three times may be three polls (Gemini CLI's suite counts `testTool(value1)`,
 * `testTool(value2)`, `anotherTool(value1)` three times over as no loop). A break on such a cycle waits
 * until its unit has come `UNKNOWN_OUTCOME_BREAK` times (the 5th run of each call: where two-phase's
 * evidence rule, src/live/evidence.ts, blocks an identical call, and where Gemini CLI stops one); until
 * then it is a warning. One call repeated is left to the ladder as before (it climbs to a break at its 5th
 * run by default); text has no outcomes to know; signals that say nothing of progress (custom detectors)
 * are left alone.
 */
import { UNKNOWN_OUTCOME_RUNS } from '../live/evidence.js';
import type { LoopSignal } from '../types.js';

/** Repetitions of a cycle, none of its calls with a known outcome, that a break needs. */
export const UNKNOWN_OUTCOME_BREAK = UNKNOWN_OUTCOME_RUNS + 1;

/**
 * Whether a break on `signals` (primary first) lacks evidence: the primary is a cycle repeated fewer than
 * UNKNOWN_OUTCOME_BREAK times, and no signal knows an outcome of its calls.
 */
export function cycleWithoutOutcomes(primary: LoopSignal, signals: readonly LoopSignal[]): boolean {
  if (primary.kind !== 'cycle' || (primary.repeatCount ?? 0) >= UNKNOWN_OUTCOME_BREAK) return false;
  for (const s of signals) if (s.progress !== 'unknown') return false;
  return true;
}
