/**
 * Nothing working: call after call failing, each a different one, with nothing succeeding between (quiet45;
 * a real Codex session of holdout5: ten PowerShell commands in a row, each quoted another way, each refused
 * by PowerShell's parser with another message, before the agent read the file instead). No detector sees it:
 * no call repeats (not a frequency, not failing-again.ts's one action failing), no error repeats by text or
 * class (the parser quotes the command it refused: not a dead end). Diagnosing a failing build looks the
 * same for a few calls (a test run, the seed script, the test under node, the test with a database url),
 * so only a long streak is a signal, and a weak one: like failing-again.ts's, it warns, never asks or breaks
 * on its own (the policy sets it aside where another signal is kept: failingAgainAlone).
 *
 * ```
 *  calls:  a✗ b✗ c✗ d✗ e✗ f✗ g✗ h✗        ✗: failed on the agent's own account (not a person's refusal,
 *          └──── LOSING_STREAK ────┘       not the world's failure, not a search that found nothing);
 *  a signal at the LOSING_STREAK-th call in a row (and each LOSING_STREAK more), its calls spread over as
 *  many model turns (calls sent side by side in one turn, all failing, are one try)
 * ```
 *
 * Read when a call is recorded, from what both engines keep (the outcome flags of the calls' words:
 * src/state/recent-words.ts for the module) and the host's facts (CallFact bits and turns), so both engines
 * give the same verdicts. A call proposed and not run is passed over; any other call ends the streak.
 */
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import { CallFact } from './call-facts.js';
import { type CallNames, failingSignal } from './failing-again.js';
import type { ScreenFacts } from './screen-facts.js';

/** Calls in a row, each failing on the agent's own account over as many model turns, that make the signal. */
export const LOSING_STREAK = 8;

/** Calls looked back at, at most, for the streak's start: the streak's length past them is not counted. */
const LOOK_BACK = 4 * LOSING_STREAK;

/** Facts of a failure that is not the agent's own try going wrong (a person's, the world's, a search finding nothing). */
const NOT_OWN = CallFact.DECLINED | CallFact.NEEDS_PERSON | CallFact.INFRA | CallFact.WAITING | CallFact.SILENT;

/**
 * Whether the call at `i` failed on the agent's own account: the call itself failed (an error, not an output
 * that reports one: a log read with its error lines, a source file with its error handling), its facts name
 * no one else's doing, and it is no test run whose tests failed (OutcomeFlag.TESTS, read by both engines from
 * the error as test-place.ts reads it): a failing test is the code's failure, and a suite fixed file by file
 * runs one failing module after another, a new failure each time, as the agent means to.
 */
function failedOwn(h: HistoryReader, facts: ScreenFacts, i: number): boolean {
  if (i < h.oldest || (h.flagsOf(i) & (OutcomeFlag.ERROR | OutcomeFlag.TESTS)) !== OutcomeFlag.ERROR) return false;
  const bits = facts.of(i);
  return (bits & CallFact.FAILED) !== 0 && (bits & NOT_OWN) === 0;
}

/**
 * The calls of the streak the call at `index` ends (ascending, `index` last): the calls before it, back to
 * the first that did not fail on the agent's own account (proposals passed over), at most LOOK_BACK. Empty
 * when the call at `index` did not fail so.
 */
export function losingStreak(h: HistoryReader, facts: ScreenFacts, index: number): number[] {
  if (!failedOwn(h, facts, index)) return [];
  const calls = [index];
  const from = Math.max(h.oldest, facts.oldest, index - LOOK_BACK + 1);
  for (let j = index - 1; j >= from; j--) {
    if ((facts.of(j) & CallFact.PROPOSED) !== 0) continue;
    if (!failedOwn(h, facts, j)) break;
    calls.push(j);
  }
  return calls.reverse();
}

/** The model turns the calls `calls` were sent in (a call of no known turn is a turn of its own). */
function turnsOf(facts: ScreenFacts, calls: readonly number[]): number {
  const turns = new Set<number>();
  let unknown = 0;
  for (const c of calls) {
    const t = facts.turnOf(c);
    if (t === undefined) unknown++;
    else turns.add(t);
  }
  return turns.size + unknown;
}

/**
 * The signal of the call at `index`, just recorded, when it is the LOSING_STREAK-th call in a row to fail on
 * the agent's own account (or each LOSING_STREAK more), the latest LOSING_STREAK of them sent in as many
 * model turns; else null. `log` names the call (only for a signal).
 */
export function losingStreakSignal(h: HistoryReader, facts: ScreenFacts, index: number, log: CallNames): LoopSignal | null {
  // in a batch the rings may already hold later calls: a call whose slot they reused is not read
  if (index < h.oldest || index < facts.oldest) return null;
  const streak = losingStreak(h, facts, index);
  const count = streak.length;
  if (count < LOSING_STREAK || count % LOSING_STREAK !== 0) return null;
  const unit = streak.slice(count - LOSING_STREAK);
  if (turnsOf(facts, unit) < LOSING_STREAK) return null;
  const calls = distinctCalls(h, streak);
  return failingSignal(unit, count, () => `${streakWords(count, calls)}; the latest: ${log.preview(index)}`);
}

/** How many different calls (by signature) the calls `calls` are, compared pair by pair (a streak: at most LOOK_BACK). */
function distinctCalls(h: HistoryReader, calls: readonly number[]): number {
  let distinct = 0;
  for (let a = 0; a < calls.length; a++) {
    let seen = false;
    for (let b = 0; b < a && !seen; b++) seen = h.same(Ring.SIG, calls[a] as number, calls[b] as number);
    if (!seen) distinct++;
  }
  return distinct;
}

/**
 * What a losing streak's signal says of its `count` calls, `calls` of them different: each a different call
 * when they all were, else how many were (a streak may try one call twice among others), and that each failed.
 */
export function streakWords(count: number, calls: number): string {
  const which = calls === count ? `${count} different calls in a row` : `${count} calls in a row (${calls} different ones)`;
  return `${which} each failed, none succeeding between`;
}
