/**
 * A new call proposed after similar calls is weighed on the calls that ran: the proposal alone makes no loop.
 *
 * A signal of similar calls (semantic, similar args) at a proposal counts the proposed call, whose outcome is
 * not known yet. When the proposal is a call not among the similar calls that ran (another query, another
 * script, the list widened), its likeness to them says only that the agent tries that idea another way; that
 * try is one more stall, or the answer, by its outcome. So a proposal warns only for a loop the calls that ran
 * make by themselves: as many of them as the detector's threshold (failed or not), and, when work came
 * between them, a stall over the gaps between those runs, not over the gap up to the proposal, which no run
 * closes yet. Once recorded, the call is weighed with its outcome as any other (a failure again is a stall of
 * failures, warned at its record, as one-phase would).
 *
 * ```
 *   rg ✗ a    rg ✗ b    rg ? c                       two similar failures, a third query: weighed on its outcome
 *   rg ✗ a    rg ✗ b    rg ✗ c    rg ? d             three ran, each failing: the loop stands, warned at the proposal
 *   list ∅    edit  list ∅    edit  list ∅   list* ?  a wider look right after an empty one: weighed on its outcome
 *   rg ✗ a    rg ✗ b    rg ? a                       a call that ran proposed again: not this rule (as before)
 * ```
 *
 * The same call proposed again, and again with nothing between, is not a new call: it is weighed as before.
 * Reads only what the host keeps (signatures and CallFact bits): both engines alike.
 */
import { CallFact } from './call-facts.js';
import type { PolicyLog } from './policy-log.js';
import type { ScreenFacts } from './screen-facts.js';

/**
 * Whether the call at `index` is a proposal (CallFact.PROPOSED) of a call none of the other calls of `unit`
 * (call indices, the proposal among them) was: its signature is none of theirs. False when a signature is
 * not known (the call is then weighed as before).
 */
export function newCallProposed(log: PolicyLog, facts: ScreenFacts, unit: readonly number[], index: number): boolean {
  if ((facts.of(index) & CallFact.PROPOSED) === 0) return false;
  const sig = log.signatureLow(index);
  if (sig === undefined) return false;
  for (const i of unit) {
    if (i === index) continue;
    const s = log.signatureLow(i);
    if (s === undefined || s === sig) return false;
  }
  return true;
}

/**
 * The calls of `reps` (ascending call indices) that ran, for a new call proposed at `index`
 * ({@link newCallProposed}): `reps` without the proposal; else `reps` itself.
 */
export function runsBeforeNewCall(log: PolicyLog, facts: ScreenFacts, reps: readonly number[], index: number): readonly number[] {
  if (reps[reps.length - 1] !== index || !newCallProposed(log, facts, reps, index)) return reps;
  return reps.slice(0, -1);
}
