/**
 * What the outcomes of a repeated unit say about progress, read from the call history:
 *
 * - `unknown` when no repetition has a known outcome (calls checked before they ran), or when a proposed
 *   call (checked before it runs) has fewer than two repetitions before it;
 * - `changing` when any repetition failed for infrastructure reasons (the world, not the agent), or
 *   every repetition got an outcome different from the one before it; but not when one call failed so
 *   more than {@link INFRA_RETRIES} times back to back, nothing between (a command that hangs at the tool's
 *   time limit, run again and again unchanged): retries through a rate limit are bounded, and past the bound
 *   the failures compare as any other;
 * - `stalled` when every repetition got the same outcome;
 * - `mixed` otherwise: some outcomes missing, some repeated and some new, or empty acknowledgements.
 *
 * Repeats of one call compare outcomes exactly (the result, else the error text: "5 failed" then
 * "3 failed" is progress), except two failures with nothing between them (back to back, or one period
 * apart in a cycle, where only the cycle's own calls come between): nothing was done that could have
 * changed the outcome, so a different number, temporary path or attempt counter in the error is noise and
 * they compare by error class. Similar but different calls (`byClass`) compare failures by error class
 * (volatile parts masked), since their errors echo their differing arguments, and take two outcomes that
 * both say nothing was found ("Could not find [query A]", "Could not find [query B]") as the same; and for
 * them a stall must be a failing one: every outcome an error, or a result saying nothing was found.
 * Similar calls that all succeed with the same acknowledgement ("OK") are `mixed`; different similar calls
 * that all get the same real answer (more than a brief acknowledgement: paraphrased searches landing on
 * the same page) are `stalled`. A failure and a success are never the same outcome.
 */
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { Progress } from '../types.js';

/**
 * Whether two calls got the same outcome: failures by error class when `byClass` (similar calls) or
 * `errorsByClass` (the same call with nothing done between), else exactly.
 */
export function sameOutcome(h: HistoryReader, a: number, b: number, byClass: boolean, errorsByClass = byClass): boolean {
  const fa = h.flagsOf(a);
  const fb = h.flagsOf(b);
  const ea = (fa & OutcomeFlag.ERROR) !== 0;
  const eb = (fb & OutcomeFlag.ERROR) !== 0;
  if (ea !== eb) return false;
  // two different searches that both found nothing got the same outcome, whatever query their messages echo
  if (byClass && (fa & fb & OutcomeFlag.NOTHING) !== 0) return true;
  return ea && errorsByClass ? h.same(Ring.MASKED, a, b) : h.same(Ring.OUTCOME, a, b);
}

/**
 * Back-to-back failures on the infrastructure of one call (the same arguments, nothing between) that are
 * still retries (a rate limit waited out, a network blip): one more is a loop, the world's failure or not
 * (the same command hanging at the tool's time limit, run again unchanged). The demo's retries through a
 * rate limit take up to 4; the longest such run in the eight sets is 3 (a build cut at 120 s three times,
 * going on each time: holdout7 019ac572), the traces have none (quiet14). assembly/detect.ts INFRA_RETRIES.
 */
export const INFRA_RETRIES = 4;

/**
 * The evidence every classification starts from, or null to compare outcomes. A failure on the
 * infrastructure exempts the repetitions (`changing`), unless `sameCall` (repetitions of one call) and more
 * than {@link INFRA_RETRIES} of them failed so back to back: then they compare as any failures.
 */
function knownOutcomes(h: HistoryReader, all: readonly number[], sameCall = false): Progress | null {
  let known = 0;
  let empty = false;
  let infra = false;
  let chain = 0;
  let stuck = false;
  let prev = -2;
  for (const i of all) {
    const f = h.flagsOf(i);
    if ((f & OutcomeFlag.KNOWN) !== 0) known++;
    if ((f & OutcomeFlag.INFRA) !== 0) {
      infra = true;
      chain = i === prev + 1 && chain > 0 ? chain + 1 : 1;
      if (chain > INFRA_RETRIES) stuck = true;
    } else chain = 0;
    prev = i;
    if ((f & OutcomeFlag.EMPTY) !== 0 && (f & OutcomeFlag.ERROR) === 0) empty = true;
  }
  if (known === 0) return 'unknown';
  if (infra && !(sameCall && stuck)) return 'changing';
  if (known < all.length || empty) return 'mixed';
  return null;
}

/**
 * Whether similar calls that all got the same outcome stalled: every outcome a failure or a result saying
 * nothing was found, or different calls among them getting the very same answer, more than a brief
 * acknowledgement (paraphrased searches landing on the same page). The same "OK" for similar calls, or the
 * same call twice with the same answer, is no stall of similar calls.
 */
function failingOrSameAnswer(h: HistoryReader, all: readonly number[]): boolean {
  if (all.every((i) => (h.flagsOf(i) & (OutcomeFlag.ERROR | OutcomeFlag.NOTHING)) !== 0)) return true;
  if (!all.every((i) => (h.flagsOf(i) & (OutcomeFlag.ERROR | OutcomeFlag.BRIEF | OutcomeFlag.EMPTY)) === 0)) return false;
  const first = all[0] as number;
  return all.some((i) => !h.same(Ring.SIG, first, i));
}

function classify(h: HistoryReader, pairs: readonly (readonly [number, number])[], all: readonly number[], byClass: boolean): Progress {
  const early = knownOutcomes(h, all, !byClass);
  if (early !== null) return early;
  let same = 0;
  // back to back, nothing was done between the two: their failures compare by class
  for (const [a, b] of pairs) if (sameOutcome(h, a, b, byClass, byClass || b === a + 1)) same++;
  if (same === pairs.length) return !byClass || failingOrSameAnswer(h, all) ? 'stalled' : 'mixed';
  if (same === 0) return 'changing';
  return 'mixed';
}

/** Whether a call is a proposal (checked before it runs, so without an outcome yet). */
function isProposed(h: HistoryReader, index: number): boolean {
  return (h.flagsOf(index) & OutcomeFlag.PROPOSED) !== 0;
}

/**
 * Progress over repetitions at the given indices (ascending): of one call, or of similar calls `byClass`.
 * A proposed newest call has no outcome yet: progress is then over the repetitions before it (`unknown`
 * with fewer than two).
 */
export function repeatProgress(h: HistoryReader, indices: readonly number[], byClass = false): Progress {
  let all = indices;
  if (all.length !== 0 && isProposed(h, all[all.length - 1] as number)) {
    all = all.slice(0, -1);
    if (all.length < 2) return 'unknown';
  }
  const pairs: [number, number][] = [];
  for (let k = 1; k < all.length; k++) pairs.push([all[k - 1] as number, all[k] as number]);
  return classify(h, pairs, all, byClass);
}

/**
 * Progress over the repetitions of a unit of `period` calls ending at `last`, `reps` of them: a repetition
 * is stalled when every position got the outcome it got one repetition earlier.
 */
export function cycleProgress(h: HistoryReader, last: number, period: number, reps: number): Progress {
  // a proposed newest call has no outcome yet: its position is left out of the comparisons
  const proposed = isProposed(h, last);
  const all: number[] = [];
  for (let i = last - period * reps + 1; i <= (proposed ? last - 1 : last); i++) all.push(i);
  const early = knownOutcomes(h, all);
  if (early !== null) return early;
  let stalledReps = 0;
  for (let r = 1; r < reps; r++) {
    const end = last - (reps - 1 - r) * period;
    let same = true;
    for (let k = 0; k < period; k++) {
      const i = end - k;
      if (proposed && i === last) continue;
      // one period apart, only the cycle's own calls came between: failures compare by class
      if (!sameOutcome(h, i, i - period, false, true)) {
        same = false;
        break;
      }
    }
    if (same) stalledReps++;
  }
  if (stalledReps === reps - 1) return 'stalled';
  if (stalledReps === 0) return 'changing';
  return 'mixed';
}
