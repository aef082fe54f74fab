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

/**
 * How every line of {@link NOTE_LINE} begins: its field's name, a colon and a space. A text whose first line
 * that says anything (white space aside: `\s` and trim() take the same set) begins otherwise is no note, so
 * one anchored look rules out most outputs before the `(empty)` look reads the whole head (that look was about
 * 0.5 us of the 1.1 us CLEAN adds to a real call: its texts hold many `(`).
 */
const NOTE_START = /^\s*(?:output|stdout|stderr|error|command|directory): /i;

/** A line that says the output was empty (at least one such line is needed). */
const EMPTY_LINE = /^(?:output|stdout): \(empty\)$/i;

/** `)`, and the letters of `empty` in lower case (a letter's code with 0x20 set is either case of it). */
const CLOSE = 0x29;
const EMPTY = [0x65, 0x6d, 0x70, 0x74, 0x79];

/**
 * Whether `text` holds `(empty)`, its letters in any case: what `/\(empty\)/i` finds (without the `u` flag no
 * character past ASCII folds to one of them), from each `(` that indexOf finds, rather than the expression's
 * try at every character (it was about a fifth of reading CLEAN's facts on the traces, in a CPU profile).
 */
export function holdsEmptyMark(text: string): boolean {
  for (let at = text.indexOf('('); at >= 0 && at + 6 < text.length; at = text.indexOf('(', at + 1)) {
    if (text.charCodeAt(at + 6) !== CLOSE) continue;
    let k = 0;
    while (k < 5 && (text.charCodeAt(at + 1 + k) | 0x20) === EMPTY[k]) k++;
    if (k === 5) return true;
  }
  return false;
}

/** Whether a successful shell command's output is Gemini CLI's note that it printed nothing. */
export function notesNoOutput(text: string): boolean {
  // most outputs say something: one look at how the first line begins, then one for the note's words
  if (text.length > EMPTY_NOTE_LOOK || !NOTE_START.test(text) || !holdsEmptyMark(text)) return false;
  let empty = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!NOTE_LINE.test(line)) return false;
    if (EMPTY_LINE.test(line)) empty = true;
  }
  return empty;
}
