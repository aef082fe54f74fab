/**
 * Another call proposed after one call failed again and again is weighed on its outcome, not on that call's.
 *
 * An agent reads a missing file three times (the same call, the same error: an exact repeat, warned, then
 * blocked), then reads another file of the same folder. Its text is close to the failed read's (the same
 * path but one word), so a fuzzy signal (semantic, similar args) finds it "a paraphrase of 3 of the last 3
 * actions", and at a proposal those failures were kept as a stall of failures (the evidence screen's
 * ranEnough): the new read was warned at confidence 1.00, "since call #0", for the loop it leaves. Those
 * failures are the loop of one call, the exact repeat's business, weighed there; they are not several
 * attempts at one idea each failing. Before it runs, the other call's outcome is not known: it is weighed
 * on it once recorded, where a failure again is a stall of failures as before.
 *
 * ```
 *   read ✗ a   read ✗ a   read ✗ a   read ? b      another call after one call's failures: weighed on its outcome
 *   read ✗ a   read ✗ c   read ✗ d   read ? b      similar calls each failing: a stall of failures, as before
 *   read ✗ a   read ✗ a   read ✗ a   read ? a      the same call again: not this rule (not fuzzy; exact repeat)
 * ```
 *
 * Reads only what the host keeps (signatures and CallFact bits): both engines alike.
 */
import { CallFact } from './call-facts.js';
import type { PolicyLog } from './policy-log.js';
import type { ScreenFacts } from './screen-facts.js';

/**
 * Whether the proposal at `index` of a fuzzy signal (its `unit`, call indices, the proposal among them) comes
 * after the failures of one call only: some calls of the unit failed, every one of them the same call (one
 * signature), and the proposal is not that call. Then those failures are no stall of the proposal's own: the
 * caller weighs it on the similar calls that did not fail.
 */
export function anotherCallAfterOneFailing(log: PolicyLog, facts: ScreenFacts, unit: readonly number[], index: number): boolean {
  const sig = log.signatureLow(index);
  if (sig === undefined) return false;
  let failing: number | undefined;
  for (const i of unit) {
    if (i === index || (facts.of(i) & CallFact.FAILED) === 0) continue;
    const s = log.signatureLow(i);
    if (s === undefined || s === sig || (failing !== undefined && s !== failing)) return false;
    failing = s;
  }
  return failing !== undefined;
}
