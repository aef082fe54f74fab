/**
 * Text from the inputs as a terminal (or a JSON reader's terminal) is shown it. Session ids, tool names,
 * outcomes and files may hold control characters: ESC starts the sequences that move the cursor, clear the
 * screen, set the window title or open a link (OSC 8, ended by BEL), NUL and the C1 controls (U+0080 to
 * U+009F, CSI and OSC among them) act on some terminals too, and the bidirectional overrides and isolates
 * make text read in another order than it is stored. {@link terminalSafe} writes each of them as an escape
 * (`\x1b`, `\u202e`), so what is printed is what was read, visibly, and acts on nothing; line breaks and
 * tabs too, so a value stays on its line and in its column. {@link cutSafe} then cuts between code points,
 * never inside such an escape. {@link jsonSafe} does the same for JSON text, whose own escapes cover only
 * C0: the others become `\uXXXX` escapes, which a JSON reader reads back as the same characters.
 */

/** What {@link terminalSafe} escapes: C0, DEL, C1, the bidirectional marks, embeddings, overrides and isolates, and the line and paragraph separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What {@link jsonSafe} escapes: what JSON.stringify leaves as it is of {@link UNSAFE}. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: number, digits: number): string => c.toString(16).padStart(digits, '0');
/** JSON's short escapes for the line breaks and tabs: the redaction rules read them as white space (a `.netrc` entry on several lines), as they read JSON text. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeOf = (ch: string): string => {
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) return short;
  const c = ch.charCodeAt(0);
  return c <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
};
const unicodeEscape = (ch: string): string => `\\u${hex(ch.charCodeAt(0), 4)}`;

/** `text` with every control, bidirectional control and line separator written as an escape (`\x1b`, `\n`, `\u202e`): line breaks and tabs as JSON writes them. */
export function terminalSafe(text: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text) ? text.replace(UNSAFE, escapeOf) : text;
}

/** JSON text with the characters JSON.stringify leaves raw that a terminal acts on (C1, DEL, bidirectional controls, U+2028/U+2029) written as `\uXXXX`. */
export function jsonSafe(json: string): string {
  JSON_UNSAFE.lastIndex = 0;
  return JSON_UNSAFE.test(json) ? json.replace(JSON_UNSAFE, unicodeEscape) : json;
}

/** An escape of {@link terminalSafe}'s cut short at the end of a text. */
const PARTIAL_ESCAPE = /\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})?$/;

/**
 * The first `n` UTF-16 units of `text` or fewer: not past half a surrogate pair, nor into an escape of
 * {@link terminalSafe} that the cut would break (`\x1` of `\x1b`).
 */
export function headSafe(text: string, n: number): string {
  if (n >= text.length) return text;
  let end = Math.max(0, n);
  const c = text.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  const head = text.slice(0, end);
  const partial = PARTIAL_ESCAPE.exec(head.slice(-6));
  return partial === null ? head : head.slice(0, head.length - partial[0].length);
}

/**
 * `text` (already {@link terminalSafe}) in `width` characters: as it is when it fits, else cut with `…` at
 * the end, or with `fromEnd` at the start (a file keeps its end), between code points and outside escapes.
 */
export function cutSafe(text: string, width: number, fromEnd = false): string {
  if (text.length <= width) return text;
  const keep = Math.max(0, width - 1);
  if (!fromEnd) return `${headSafe(text, keep)}…`;
  let start = text.length - keep;
  const c = text.charCodeAt(start);
  if (c >= 0xdc00 && c <= 0xdfff) start++;
  // an escape cut at its start (`1b` of `\x1b`, `n` of `\n`): begin after it
  const back = text.lastIndexOf('\\', start);
  if (back >= 0 && start - back < 6 && /^\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/.test(text.slice(back, back + 6))) {
    const e = text.charCodeAt(back + 1);
    const len = e === 0x78 ? 4 : e === 0x75 ? 6 : 2;
    if (back + len > start) start = back + len;
  }
  return `…${text.slice(start)}`;
}
