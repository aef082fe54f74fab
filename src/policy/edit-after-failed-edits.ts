/**
 * Another edit proposed after failed edits is weighed on its outcome, not on theirs.
 *
 * An agent's edit fails ("String to replace not found", "Found 55 matches of the string to replace", a patch
 * that did not apply, "0 occurrences found"), maybe twice; it reads the file, or the error says what was
 * wrong, and it proposes another edit of the same place. Similar to the failed ones (semantic, similar
 * args), that proposal was warned before it ran, as a stall of failures; most such edits apply (the
 * real-session sets: an edit made with the text read, with more context, with the patch's format fixed).
 * Before it runs its outcome is not known: it is weighed on it once recorded, where a failure again is a
 * stall of failures as before (warned at its record, a dead end of failed edits broken as before).
 *
 * ```
 *   Edit ✗ a   Edit ✗ b   Read ✓   Edit ? c      another edit: weighed once its outcome is known
 *   Edit ✗ a   Edit ✗ b   Edit ? c               (with or without a look between)
 *   Edit ✗ a   Edit ✗ b   Read ✓   Edit ? b      the same failed edit sent again: warned at the proposal
 * ```
 *
 * Only fuzzy signals at a proposal are weighed so (the evidence screen's ranEnough), and only when every
 * failed call of the signal's unit is a write: the same call again (exact repeat, frequency, a dead end's
 * wall), similar commands failing, are weighed as before. Reads only what the host keeps (signatures and
 * CallFact bits): both engines alike.
 */
import { CallFact } from './call-facts.js';
import type { PolicyLog } from './policy-log.js';
import type { ScreenFacts } from './screen-facts.js';

/**
 * Whether the proposal at `index` of a fuzzy signal (its `unit`, call indices, the proposal among them) is
 * another edit after failed ones: some calls of the unit failed, every one of them a write (CallFact.FAILED
 * and WRITE), and the proposal is none of them again (another signature). Then those failures are no stall of
 * the proposal's own: the caller weighs it on the similar calls that did not fail.
 */
export function anotherEditAfterFailed(log: PolicyLog, facts: ScreenFacts, unit: readonly number[], index: number): boolean {
  const sig = log.signatureLow(index);
  if (sig === undefined) return false;
  let failed = false;
  for (const i of unit) {
    if (i === index) continue;
    const f = facts.of(i);
    if ((f & CallFact.FAILED) === 0) continue;
    if ((f & CallFact.WRITE) === 0 || log.signatureLow(i) === sig) return false;
    failed = true;
  }
  return failed;
}
