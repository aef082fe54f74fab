/**
 * A call that reached a break when it last ran, proposed again. Some loops show only in a call's outcome
 * (the same call with the same result: state or result repeat; the same error: dead end), so the detectors
 * find them when the call is recorded, never when it is proposed: the proposal has no outcome yet. A
 * record's break cannot stop a call that already ran; without this, the next proposal of the very same
 * call would be allowed (no signal), and a loop of outcome-only evidence would never be blocked live,
 * whatever the ladder said. So when the session's latest recorded verdict was a break about the same call
 * and its latest two runs answered alike (ranAlikeLastTwice), its proposal carries this signal,
 * with evidence, and the policy decides it as it decides any proposal (a break blocks it, a call waiting on
 * a person is asked about). A verdict about other work, or `cooldown` quiet calls, end it.
 * LiveState keeps the call (a blocked-call entry blocked 0 times), so a session's snapshot holds it.
 *
 * Only a call whose latest two runs answered exactly alike carries it (the same output, or the same error
 * text). A dead end counts errors of one class: a failing test whose message moves after each edit (the
 * work may be about to fix it) is not carried; measured on the public traces, carrying every failure again
 * (evidence.ts's sameCallStalled) broke a finished run more.
 */
import { sameOutcome } from '../detectors/progress.js';
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';

/** The detector named by the signal of a call proposed again after it broke (the session's own evidence). */
export const BROKEN_DETECTOR = 'broke_when_ran';

/** Earlier runs of the call named in its signal's unit at most. */
const UNIT_RUNS = 8;

/**
 * The signal of the call at `last` (the proposal, in the rings), which broke when it last ran: its kind
 * `dead_end` when its latest run failed, else `state_repeat` (it ran twice alike); its unit the latest
 * runs of the same call and the proposal.
 */
export function brokenCallSignal(h: HistoryReader, last: number, preview: string): LoopSignal {
  const runs: number[] = [];
  let failed = false;
  for (let i = last - 1; i >= h.oldest && runs.length < UNIT_RUNS; i--) {
    if (!h.same(Ring.SIG, i, last)) continue;
    if (runs.length === 0) failed = (h.flagsOf(i) & (OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === OutcomeFlag.ERROR;
    runs.push(i);
  }
  runs.reverse();
  runs.push(last);
  return {
    kind: failed ? 'dead_end' : 'state_repeat',
    detector: BROKEN_DETECTOR,
    pattern: `${preview} reached a break when it last ran and is proposed again`,
    confidence: 1,
    loopStart: runs[0] as number,
    unit: runs,
    repeatCount: runs.length,
    progress: 'stalled',
  };
}

/**
 * Whether the latest two runs of the call at `last` (the proposal) got the same outcome (exact text): the
 * same call answered the same twice, the evidence of a state or result repeat (not a dead end's: an error
 * of the same class, which work between the runs may be about to fix).
 */
export function ranAlikeLastTwice(h: HistoryReader, last: number): boolean {
  let later = -1;
  for (let i = last - 1; i >= h.oldest; i--) {
    if (!h.same(Ring.SIG, i, last)) continue;
    if ((h.flagsOf(i) & OutcomeFlag.KNOWN) === 0) return false;
    if (later >= 0) return sameOutcome(h, i, later, false);
    later = i;
  }
  return false;
}
