/**
 * An edit proposed after failed edits and a look at the workspace is a new attempt, not the stall again.
 *
 * An agent's edit fails ("String to replace not found", a patch that did not apply, "0 occurrences found"),
 * maybe twice; it reads the file (or searches it), then proposes an edit of the same place with the text it
 * now sees. Similar to the failed ones (semantic, similar args), that proposal was warned before it ran, as a
 * stall of failures; most such edits apply (s17's reading of the real-session sets: 7 of 16 warned, each after
 * a read or with its path corrected). Its outcome is not known yet: it is weighed on it once recorded (a
 * failure then is a stall of failures as before, warned at its record; a success shows progress).
 *
 * ```
 *   Edit ✗   Edit ✗   Read ✓   Edit ?      the failures were looked into: the proposal waits for its outcome
 *   Edit ✗   Edit ✗   Edit ?               tried again blind: a stall of failures, warned at the proposal
 *   Edit ✗   Read ✓   Edit ✗ (the same)    the same failed edit sent again: no new attempt, warned
 * ```
 *
 * A look is a call that ran after the latest failed edit of the unit, in a later model turn (a read made
 * beside the failed edit, in its turn, was decided before its failure was seen), and succeeded without
 * changing the workspace (a read, a search, a listing). Only fuzzy signals at a proposal are weighed so
 * (the evidence screen's ranEnough); the same call again (exact repeat, frequency, a dead end's wall) is not.
 * Reads only what the host keeps (signatures, CallFact bits, turns): both engines alike.
 */
import { CallFact } from './call-facts.js';
import type { PolicyLog } from './policy-log.js';
import type { ScreenFacts } from './screen-facts.js';

/** Facts of a call that ran, succeeded and changed nothing (a look), checked as a mask: none of these set. */
const NOT_A_LOOK = CallFact.FAILED | CallFact.WRITE | CallFact.PROPOSED | CallFact.DECLINED | CallFact.INFRA;

/**
 * Whether the proposal at `index` of a fuzzy signal (its `unit`, ascending call indices, the proposal among
 * them) comes after failed edits looked into: some calls of the unit failed, every one of them a write
 * (CallFact.FAILED and WRITE), the proposal is none of them again (another signature), and after the latest
 * of them, before the proposal, a call in a later turn succeeded without changing the workspace. Then those
 * failures are no stall of the proposal's own: the caller weighs it on the calls that did not fail.
 */
export function proposedAfterALook(log: PolicyLog, facts: ScreenFacts, unit: readonly number[], index: number): boolean {
  const sig = log.signatureLow(index);
  if (sig === undefined) return false;
  let latest = -1;
  for (const i of unit) {
    if (i === index) continue;
    const f = facts.of(i);
    if ((f & CallFact.FAILED) === 0) continue;
    if ((f & CallFact.WRITE) === 0 || log.signatureLow(i) === sig) return false;
    if (i > latest) latest = i;
  }
  if (latest < facts.oldest) return false;
  const turn = facts.turnOf(latest);
  for (let c = latest + 1; c < index; c++) {
    if ((facts.of(c) & NOT_A_LOOK) !== 0 || log.signatureLow(c) === undefined) continue;
    const t = facts.turnOf(c);
    if (turn === undefined || t === undefined || t !== turn) return true;
  }
  return false;
}
