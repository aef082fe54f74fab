/**
 * Recognises lines of structured text that legitimately repeat and are not chanting: code fences and
 * what they enclose, table rows, list items, headings, block quotes, dividers, log lines (a timestamp or
 * an upper-case level first) and field lines (a bold label and its colon first, `**Status**: done` or
 * `**Status:** done`: a report's fields under each of its headings say the same words, and are not chant). A closing fence followed by text on the same line (a stream whose fence was
 * not followed by a line break) closes the block, and the text after it is prose again.
 */

const FENCE = /^\s{0,3}(?:```|~~~)/;
const FENCE_MARK = /^\s{0,3}(?:`{3,}|~{3,})/;
const TABLE = /^\s*\|/;
const LIST = /^\s*(?:[-*+•]|\d{1,3}[.)])\s/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const QUOTE = /^\s{0,3}>/;
const DIVIDER = /^\s*(?:[-*_=]\s*){3,}$/;
const LOG = /^\s*(?:\[?\d{2,4}[-/.:]\d{1,2}|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b)/;
/** A field line: a bold label of at most 60 characters, then its colon (inside or after the bold). */
const FIELD = /^\s*\*\*[^*]{1,60}(?::\*\*|\*\*\s*:)/;
/** Characters of a line start beginning `**` within which it may still become a field line (FIELD's longest start). */
const FIELD_SPAN = 66;
/** A line start that may still become a divider (only divider characters and white space so far). */
const MAYBE_DIVIDER = /^\s*(?:[-*_=]\s*)*$/;

/** MAY_OPEN's mark for the first letter of a log level: only a line going on with a second upper-case letter may be one. */
const LEVEL = 2;
/**
 * The ASCII characters a structured line can begin with after its leading white space (1: may, 0: cannot):
 * fences (` ~), tables (|), list items (- * + and digits), headings (#), quotes (>), dividers (- * _ =) and
 * log lines ([, digits, and the first letters of TRACE DEBUG INFO NOTICE WARN WARNING ERROR FATAL
 * CRITICAL, marked LEVEL: "The" and "I will" are prose). A line beginning with any other ASCII character
 * is prose (or, in a code block, code) whatever follows; characters from U+0080 up (the list bullet,
 * Unicode white space the regexes' \s skips) are read by the regexes.
 */
const MAY_OPEN: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const ch of '`~|-*+#>_=[0123456789') t[ch.charCodeAt(0)] = 1;
  for (const ch of 'TDINWEFC') t[ch.charCodeAt(0)] = LEVEL;
  return t;
})();

/** Character codes classifyBy dispatches on. */
const BACKTICK = 0x60;
const TILDE = 0x7e;
const BAR = 0x7c;
const HASH = 0x23;
const GT = 0x3e;
const DASH = 0x2d;
const STAR = 0x2a;
const PLUS = 0x2b;
const UNDERSCORE = 0x5f;
const EQUALS = 0x3d;
const BRACKET = 0x5b;

/** The line `text[from, to)` (the text itself when it is the line). */
function lineOf(text: string, from: number, to: number): string {
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

/** Whether text[k] (before `to`) is an ASCII upper-case letter. */
function upperAt(text: string, k: number, to: number): boolean {
  if (k >= to) return false;
  const c = text.charCodeAt(k);
  return c >= 0x41 && c <= 0x5a;
}

/** Characters after leading white space that decide a line start once it arrives in pieces. */
export const DECIDING_PREFIX = 16;

/** Whether proseIn decides lines by their first character when it can (off only in tests). */
let fastPath = true;

/**
 * Turns proseIn's first-character decision off (`false`: every line read by the regexes) or back on, to
 * test that it never changes a line's class.
 * @internal For tests.
 */
export function setStructureFastPath(on: boolean): void {
  fastPath = on;
}

/** Tracks fenced code blocks across lines and says which lines (or which part of a line) are prose. */
export class StructureFilter {
  private inFence = false;

  /**
   * Where the prose of `line` begins (updates the fence state): 0 for a prose line, the end of the fence
   * marker for a line that closes a block and goes on with text, -1 for a line that is not prose.
   */
  proseFrom(line: string): number {
    return this.proseIn(line, 0, line.length);
  }

  /**
   * proseFrom() of the line `text[from, to)` (its end of line left out), read where it lies: a line whose
   * first character after ASCII white space can begin none of the structures (most prose) is decided
   * without a regex or a copy of the line; any other is read as proseFrom() always read it.
   */
  proseIn(text: string, from: number, to: number): number {
    let k = from;
    let c = -1;
    while (k < to) {
      c = text.charCodeAt(k);
      if (c !== 0x20 && (c < 0x09 || c > 0x0d)) break;
      k++;
    }
    const opens = k === to ? 0 : c < 0x80 ? (MAY_OPEN[c] as number) : 1;
    if (fastPath && (opens === 0 || (opens === LEVEL && !upperAt(text, k + 1, to)))) return this.inFence ? -1 : 0;
    // an ASCII first character is the first the regexes' \s* leaves too: only the structures it can begin are tried
    if (fastPath && c < 0x80) return this.classifyBy(text, from, to, c, k - from);
    return this.classify(lineOf(text, from, to));
  }

  /**
   * classify() of the line `text[from, to)` whose first character after its leading white space (`blanks`
   * ASCII white space characters) is the ASCII character `c`: the expressions a line beginning with `c`
   * cannot match are not tried (the fence's first: a list item or a log line begins with a character no
   * fence does), and the line is copied only for an expression that reads it.
   */
  private classifyBy(text: string, from: number, to: number, c: number, blanks: number): number {
    if ((c === BACKTICK || c === TILDE) && blanks <= 3) return this.classify(lineOf(text, from, to));
    if (this.inFence) return -1;
    let structured: boolean;
    // (TABLE is `^\s*\|`, QUOTE `^\s{0,3}>`: the character decides them)
    if (c === BAR) structured = true;
    else if (c === GT) structured = blanks <= 3;
    else if (c === HASH) structured = blanks <= 3 && HEADING.test(lineOf(text, from, to));
    else if (c >= 0x30 && c <= 0x39) {
      const line = lineOf(text, from, to);
      structured = LIST.test(line) || LOG.test(line);
    } else if (c === DASH || c === STAR) {
      const line = lineOf(text, from, to);
      structured = LIST.test(line) || DIVIDER.test(line) || (c === STAR && FIELD.test(line));
    } else if (c === PLUS) structured = LIST.test(lineOf(text, from, to));
    else if (c === UNDERSCORE || c === EQUALS) structured = DIVIDER.test(lineOf(text, from, to));
    else if (c === BRACKET || (c >= 0x41 && c <= 0x5a)) structured = LOG.test(lineOf(text, from, to));
    else structured = false;
    return structured ? -1 : 0;
  }

  /** proseFrom() by the regexes alone (what proseIn decides early must agree with it). */
  private classify(line: string): number {
    if (FENCE.test(line)) {
      const closing = this.inFence;
      this.inFence = !this.inFence;
      if (!closing) return -1;
      const mark = (FENCE_MARK.exec(line) as RegExpExecArray)[0].length;
      return line.slice(mark).trim() === '' ? -1 : mark;
    }
    if (this.inFence) return -1;
    const structured = TABLE.test(line) || LIST.test(line) || HEADING.test(line) || QUOTE.test(line) || DIVIDER.test(line) || LOG.test(line) || FIELD.test(line);
    return structured ? -1 : 0;
  }

  /** Whether `line` is prose to be checked for chanting (updates the fence state). */
  isProse(line: string): boolean {
    return this.proseFrom(line) === 0;
  }

  /**
   * Whether the start of a line that has not ended yet is enough to classify it: DECIDING_PREFIX
   * characters after its leading white space that cannot still become a divider, nor a field line (a start
   * beginning `**` is decided once FIELD_SPAN characters are known or its label's colon has come).
   */
  static decided(start: string): boolean {
    const t = start.trimStart();
    if (t.length < DECIDING_PREFIX || MAYBE_DIVIDER.test(t)) return false;
    return !t.startsWith('**') || t.length >= FIELD_SPAN || FIELD.test(t);
  }

  /** Leaves any open code block. */
  reset(): void {
    this.inFence = false;
  }

  /** Whether a code block is open (for snapshots). */
  get fenceOpen(): boolean {
    return this.inFence;
  }

  set fenceOpen(open: boolean) {
    this.inFence = open;
  }
}
