/**
 * Results of file-reading tools that are a file's content: Claude Code's `Read` (numbered lines), Gemini
 * CLI's `read_file` and `read_many_files`, an editor's view (OpenHands' and SWE-agent's `str_replace_editor
 * view`, SWE-agent's `open`, `goto`, `scroll_up`, `scroll_down`). What such a result says is what the file
 * says: a plan with a task "Test capacity limit enforcement (room full error)", a log read back, a test file
 * naming `TypeError`. It reports no outcome of the call (no failure, no pass, no work under way), as a shell
 * command that only prints files reports none (file-read.ts); the outcome facts read it so
 * (src/policy/outcome-facts.ts).
 *
 * The read tools of {@link READ_TOOLS} flag their failures (Claude Code's `is_error`, Gemini CLI's status
 * `error`), so a call of theirs without an error is a read that succeeded, whatever its text. An editor's
 * view answers a failure in text alone (`ERROR:\nInvalid view_range ...`, `File x not found`): only a result
 * that begins with the view's own header of file content ({@link VIEW_HEADERS}) is content.
 * Reads only the head of a result: a fixed prefix, and the header's first line up to {@link HEADER_LOOK}
 * characters.
 */

/** Tools whose every result without an error is a file's content (their failures come flagged as errors). */
export const READ_TOOLS: readonly string[] = Object.freeze(['Read', 'read_file', 'read_many_files']);

/** Tools that view a file in an editor and answer a failure as text (only a result with a header of VIEW_HEADERS is content). */
export const VIEW_TOOLS: readonly string[] = Object.freeze(['str_replace_editor', 'open', 'goto', 'scroll_up', 'scroll_down']);

/**
 * How a view's result of file content begins: `str_replace_editor view`'s "Here's the result of running
 * `cat -n` on PATH:" or its note on a file too large to show whole, SWE-agent's window "[File: PATH (N lines
 * total)]" (the window's header then also holds " lines total)]" on its first line).
 */
export const VIEW_HEADERS: readonly string[] = Object.freeze(["Here's the result of running `cat -n` on ", '<NOTE>This file is too large to display entirely.', '[File: ']);

/** Characters of a view's first line read at most for SWE-agent's window header. */
export const HEADER_LOOK = 1024;

/** The end of SWE-agent's window header on its first line. */
const WINDOW_END = ' lines total)]';

/** Whether a result of tool `tool` without an error, beginning with `head`, is a file's content (see the file's comment). */
export function isFileContent(tool: string, head: string): boolean {
  if (READ_TOOLS.includes(tool)) return true;
  if (!VIEW_TOOLS.includes(tool)) return false;
  const header = VIEW_HEADERS.find((h) => head.startsWith(h));
  if (header === undefined) return false;
  if (header !== '[File: ') return true;
  const line = head.slice(0, HEADER_LOOK);
  const end = line.indexOf('\n');
  return (end < 0 ? line : line.slice(0, end)).trimEnd().endsWith(WINDOW_END);
}
