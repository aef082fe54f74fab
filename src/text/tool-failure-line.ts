/**
 * A Claude Code tool's failure as the tool said it: white space trimmed, the `<tool_use_error>` tags of its
 * older form unwrapped, and an `Error: ` label before it (a harness's copy) taken off. The readers of one
 * failure sentence (missing-read-tool.ts, answer-too-large.ts) read what is left. The caller caps the text.
 */

/** The tags the older form wraps a tool's failure in. */
const OPEN = '<tool_use_error>';
const CLOSE = '</tool_use_error>';

/** An `Error: ` label before the failure. */
const LABEL = 'Error: ';

/** `text` without its white space at the ends, its `<tool_use_error>` tags and an `Error: ` label. */
export function toolFailureLine(text: string): string {
  let t = text.trim();
  if (t.startsWith(OPEN) && t.endsWith(CLOSE)) t = t.slice(OPEN.length, t.length - CLOSE.length).trim();
  return t.startsWith(LABEL) ? t.slice(LABEL.length) : t;
}
