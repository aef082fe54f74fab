/**
 * Recognises an edit its tool refused because the text it was to replace is not in the file: Claude Code's
 * "String to replace not found in file.", Codex's `apply_patch` "Failed to find expected lines in <path>",
 * Gemini CLI's "Failed to edit, could not find the string to replace." and "0 occurrences found for
 * old_string", OpenHands' "No replacement was performed, old_str `...` did not appear verbatim in <path>".
 * Nothing was written; the edit's own argument (its old text, a patch's context lines) did not match what the
 * file holds, most often because an earlier edit changed it, or the agent wrote it from memory. The agent's
 * answer is another edit made with the text it reads again: the outcome facts (src/policy/outcome-facts.ts)
 * read such a failed write as args refused (CallFact.INVALID_ARGS), so that a dead end of such slips,
 * each answered by edits that applied, is no wall (src/policy/evidence-screen.ts's formSlipsAnswered), while
 * the same slip again on a file nothing changed stays one.
 *
 * Other refusals of an edit are not these: a file that already exists (`create` over it), a parameter
 * missing, a file not read yet; nor is a text found more than once ("Multiple occurrences"), which asks for
 * more context, not another text. Reads at most {@link EDIT_MISMATCH_LOOK} characters.
 */
import { anyPattern } from './any-pattern.js';

/** Characters of an error text read. */
export const EDIT_MISMATCH_LOOK = 512;

/** What a refusal of an edit whose old text is not in the file says, one pattern per tool's wording. */
export const EDIT_MISMATCH_PATTERNS: readonly RegExp[] = Object.freeze([
  // Claude Code's Edit / MultiEdit: "<tool_use_error>String to replace not found in file.\nString: ..."
  /\bString\s+to\s+replace\s+not\s+found\b/i,
  // Codex's apply_patch: "apply_patch verification failed: Failed to find expected lines in <path>:"
  /\bFailed\s+to\s+find\s+expected\s+lines\b/i,
  // Gemini CLI's replace: "Failed to edit, could not find the string to replace."
  /\bcould\s+not\s+find\s+the\s+string\s+to\s+replace\b/i,
  // Gemini CLI's replace: "Failed to edit, 0 occurrences found for old_string (...)"
  /\b0\s+occurrences\s+found\s+for\s+old_string\b/i,
  // OpenHands' str_replace_editor: "No replacement was performed, old_str `x` did not appear verbatim in <path>."
  /\bdid\s+not\s+appear\s+verbatim\b/i,
]);

/** EDIT_MISMATCH_PATTERNS asked as one (any-pattern.ts). */
const anyOf = anyPattern(EDIT_MISMATCH_PATTERNS);

/** Whether an error says an edit's old text is not in its file (see above). */
export function editTextNotFound(error: string): boolean {
  const t = error.length > EDIT_MISMATCH_LOOK ? error.slice(0, EDIT_MISMATCH_LOOK) : error;
  return anyOf(t);
}
