/**
 * Call previews: the one-line `tool {"args":...}` text messages name calls by, cut to a fixed length
 * (never inside a secret), written only as far as the cut reaches. Their control and bidirectional
 * characters are written as escapes (terminal-text.ts): a message reaches the person's terminal through
 * the agent (a hook's `systemMessage`), and a tool named `Bash\x1b[2J` or a path holding U+202E cleared
 * the screen or read reversed there (the JSON of args escapes C0 only).
 */
import { collapsedJsonText } from './json-text-preview.js';
import { collapsedText } from './preview-text.js';
import { CUT_MARGIN, cutText } from './shown-text.js';
import { terminalSafe } from './terminal-text.js';

/** Characters of argument text shown in a call preview. */
export const PREVIEW_ARGS_LENGTH = 80;
/** Characters of a tool name shown in previews and call references (`CallRef.tool`); longer names are cut with `…`. */
export const SHOWN_TOOL_LENGTH = 256;

/** A compact, single-line preview of a call: `tool {"args":...}`, the tool name cut to {@link SHOWN_TOOL_LENGTH}. */
export function previewCall(tool: string, args: unknown): string {
  const name = terminalSafe(cutText(tool, SHOWN_TOOL_LENGTH));
  return args === undefined ? name : `${name} ${previewArgs(args)}`;
}

/**
 * The args part of a call preview: their text on one line (white space runs collapsed), cut to
 * {@link PREVIEW_ARGS_LENGTH} characters (never inside a secret: see `cutText`).
 */
export function previewArgs(args: unknown): string {
  // written only as far as the preview and the secrets across its cut reach (an 8 KB file body costs its
  // first characters): one character more than that says whether there is more
  const need = PREVIEW_ARGS_LENGTH + CUT_MARGIN;
  let shown = collapsedText(args, need, typeof args === 'string');
  if (shown === null) {
    // not JSON data: as JSON.stringify writes it (BigInt as digits), or String() when it writes nothing
    let text: string;
    try {
      text = JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(args);
    } catch {
      text = '[unserialisable args]';
    }
    shown = collapsedText(text, need, true) as string;
  }
  return terminalSafe(cutText(shown, PREVIEW_ARGS_LENGTH, shown.length > need));
}

/**
 * `previewCall(tool, JSON.parse(text))` for args given as JSON text (an object or array, valid JSON, as a
 * record's bytes hold them), read from the text without parsing it; null where the parsed args' key order
 * is not the text's (json-text-preview.ts): the caller then parses.
 */
export function previewJsonCall(tool: string, text: string): string | null {
  const need = PREVIEW_ARGS_LENGTH + CUT_MARGIN;
  const shown = collapsedJsonText(text, need);
  if (shown === null) return null;
  return `${terminalSafe(cutText(tool, SHOWN_TOOL_LENGTH))} ${terminalSafe(cutText(shown, PREVIEW_ARGS_LENGTH, shown.length > need))}`;
}
