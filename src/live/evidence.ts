/**
 * Evidence that a proposed call would repeat a loop, read from calls that ran: the policy blocks a call
 * before it runs only with it (a break without it is only a warning). Calls on other paths or targets are
 * other work, so only the same call counts:
 *
 * - it already ran and failed (not for infrastructure reasons: a rate limit or timeout is the world's);
 * - it already ran twice with the same outcome, its runs not interleaved with new work (interleaving.ts:
 *   a call the span had not seen before between each two of them, as a file written anew before each
 *   removal of it): an answer that stays the same while the work around it moves on is warned about, not
 *   blocked before it runs (measured on the public traces: finished runs broken two-phase 19 -> 14);
 * - a signal about identical calls (exact repeat, frequency, cycle, state repeat) shows a stall over the
 *   repetitions that ran (see progress.ts: a proposal's own missing outcome is left out);
 * - it already ran `UNKNOWN_OUTCOME_RUNS` times and no outcome of it was ever given: a host that reports
 *   none (a proxy seeing only requests) leaves the repetition itself as the only evidence, as one-phase
 *   checks do (Gemini CLI stops the 5th identical call request).
 *
 * Each only when the call's latest run is recent: within the policy's cooldown (10 calls by default) of the
 * proposal. A call retried after more calls than that (a Gemini CLI `replace` that had failed twice, tried
 * again after a commit, a push and a CI run 11 calls later, in a real session) is a fresh attempt, warned
 * about and not blocked; the ladder forgets a loop after as many quiet calls. Measured (docs/evaluation.md):
 * devset two-phase broken 1 -> 0, the public traces unchanged.
 */
import { sameOutcome } from '../detectors/progress.js';
import { interleavedWithNewWork } from '../policy/interleaving.js';
import type { PolicyLog } from '../policy/policy-log.js';
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';

/** Kinds whose repetitions are identical calls, so `stalled` means the same call with the same outcome. */
export const SAME_CALL_KINDS: ReadonlySet<string> = new Set(['exact_repeat', 'frequency', 'cycle', 'state_repeat']);

/** Runs of one call, none with an outcome, that are evidence enough to block it (its next is the 5th). */
export const UNKNOWN_OUTCOME_RUNS = 4;

/** Whether the call at `last` ran `UNKNOWN_OUTCOME_RUNS` times or more, never with an outcome given. */
export function repeatedWithoutOutcomes(h: HistoryReader, last: number): boolean {
  let runs = 0;
  for (let i = last - 1; i >= h.oldest; i--) {
    if (!h.same(Ring.SIG, i, last)) continue;
    if ((h.flagsOf(i) & OutcomeFlag.KNOWN) !== 0) return false;
    runs++;
  }
  return runs >= UNKNOWN_OUTCOME_RUNS;
}

/**
 * Whether the call at `last` (the proposal, in the rings) already ran and failed, or ran twice alike, or
 * ran again and again with no outcome ever given.
 */
export function sameCallStalled(h: HistoryReader, last: number): boolean {
  if (repeatedWithoutOutcomes(h, last)) return true;
  let later = -1;
  for (let i = last - 1; i >= h.oldest; i--) {
    if (!h.same(Ring.SIG, i, last)) continue;
    const f = h.flagsOf(i);
    if ((f & OutcomeFlag.KNOWN) === 0) continue;
    if ((f & (OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === OutcomeFlag.ERROR) return true;
    if (later >= 0 && sameOutcome(h, i, later, false)) return true;
    later = i;
  }
  return false;
}

/** Whether the call at `last` (the proposal, in the rings) already ran and failed (not for infrastructure reasons). */
export function sameCallFailed(h: HistoryReader, last: number): boolean {
  for (let i = last - 1; i >= h.oldest; i--) {
    if (h.same(Ring.SIG, i, last) && (h.flagsOf(i) & (OutcomeFlag.KNOWN | OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === (OutcomeFlag.KNOWN | OutcomeFlag.ERROR)) return true;
  }
  return false;
}

/**
 * sameCallStalled, as evidence (see above): a call that failed before, or ran twice alike with no new work
 * between its runs (those the history holds, and the proposal).
 */
export function sameCallStalledAlone(h: HistoryReader, log: PolicyLog, last: number): boolean {
  if (!sameCallStalled(h, last)) return false;
  if (sameCallFailed(h, last)) return true;
  const runs: number[] = [];
  for (let i = h.oldest; i < last; i++) if (h.same(Ring.SIG, i, last)) runs.push(i);
  runs.push(last);
  return !interleavedWithNewWork(log, runs);
}

/** Whether a signal about identical calls shows a stall over the repetitions that ran. */
export function signalsShowStall(signals: readonly LoopSignal[]): boolean {
  for (const s of signals) if (SAME_CALL_KINDS.has(s.kind) && s.progress === 'stalled') return true;
  return false;
}

/**
 * Whether a proposal's signals, or the calls that ran, are evidence enough to block it (see above). With
 * `span` (the policy's cooldown; 0: none), a call whose latest run is more than `span` calls back is a
 * fresh attempt: no evidence.
 */
export function blockingEvidence(signals: readonly LoopSignal[], h: HistoryReader, log: PolicyLog, last: number, span = 0): boolean {
  if (!signalsShowStall(signals) && !sameCallStalledAlone(h, log, last)) return false;
  return span <= 0 || !retriedAfter(h, last, span);
}

/**
 * Whether the call at `last` (the proposal) ran before, its latest run more than `span` calls back: a
 * retry after other work (a failed edit tried again after a commit, a push and a CI run), not a loop
 * going round. The ladder forgets a loop after as many quiet calls (its cooldown).
 */
export function retriedAfter(h: HistoryReader, last: number, span: number): boolean {
  const from = Math.max(h.oldest, last - span);
  for (let i = last - 1; i >= from; i--) if (h.same(Ring.SIG, i, last)) return false;
  for (let i = from - 1; i >= h.oldest; i--) if (h.same(Ring.SIG, i, last)) return true;
  return false;
}
