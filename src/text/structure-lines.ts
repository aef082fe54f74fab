/**
 * Recognises lines of structured text that legitimately repeat and are not chanting: code fences and
 * what they enclose, table rows, list items, headings, block quotes, dividers and log lines (a timestamp or
 * an upper-case level first). A closing fence followed by text on the same line (a stream whose fence was
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
/** A line start that may still become a divider (only divider characters and white space so far). */
const MAYBE_DIVIDER = /^\s*(?:[-*_=]\s*)*$/;

/** Characters after leading white space that decide a line start once it arrives in pieces. */
export const DECIDING_PREFIX = 16;

/** Tracks fenced code blocks across lines and says which lines (or which part of a line) are prose. */
export class StructureFilter {
  private inFence = false;

  /**
   * Where the prose of `line` begins (updates the fence state): 0 for a prose line, the end of the fence
   * marker for a line that closes a block and goes on with text, -1 for a line that is not prose.
   */
  proseFrom(line: string): number {
    if (FENCE.test(line)) {
      const closing = this.inFence;
      this.inFence = !this.inFence;
      if (!closing) return -1;
      const mark = (FENCE_MARK.exec(line) as RegExpExecArray)[0].length;
      return line.slice(mark).trim() === '' ? -1 : mark;
    }
    if (this.inFence) return -1;
    const structured = TABLE.test(line) || LIST.test(line) || HEADING.test(line) || QUOTE.test(line) || DIVIDER.test(line) || LOG.test(line);
    return structured ? -1 : 0;
  }

  /** Whether `line` is prose to be checked for chanting (updates the fence state). */
  isProse(line: string): boolean {
    return this.proseFrom(line) === 0;
  }

  /**
   * Whether the start of a line that has not ended yet is enough to classify it: DECIDING_PREFIX
   * characters after its leading white space that cannot still become a divider.
   */
  static decided(start: string): boolean {
    const t = start.trimStart();
    return t.length >= DECIDING_PREFIX && !MAYBE_DIVIDER.test(t);
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
