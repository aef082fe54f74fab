/**
 * Gemini CLI's answer for a shell command that printed nothing: `Output: (empty)` (its footer, the exit code
 * and process group, taken off by the reader: src/formats/gemini-parts.ts shellOutcome), or, in 2025
 * versions, `Command: ...`, `Directory: ...`, `Stdout: (empty)`, `Stderr: (empty)`, `Error: (none)`. It is
 * the CLI's note of no output, as Claude Code's `(Bash completed with no output)` is (a harness note:
 * failure-report.ts NOTES); a command that succeeded printing nothing has passed (a restart, a reload, a
 * silent check), not described a behaviour. Reads at most {@link EMPTY_NOTE_LOOK} characters.
 */

/** Characters of an output read at most. */
export const EMPTY_NOTE_LOOK = 4096;

/** A line of the note: the output empty, or (2025 versions) the command, its folder, empty streams, no error. */
const NOTE_LINE = /^(?:output: \(empty\)|stdout: \(empty\)|stderr: \(empty\)|error: \(none\)|command: .*|directory: .*)$/i;

/** A line that says the output was empty (at least one such line is needed). */
const EMPTY_LINE = /^(?:output|stdout): \(empty\)$/i;

/** Whether a successful shell command's output is Gemini CLI's note that it printed nothing. */
export function notesNoOutput(text: string): boolean {
  // most outputs say something: one look for the note's words first
  if (text.length > EMPTY_NOTE_LOOK || !/\(empty\)/i.test(text)) return false;
  let empty = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!NOTE_LINE.test(line)) return false;
    if (EMPTY_LINE.test(line)) empty = true;
  }
  return empty;
}
