/**
 * Recognises lines of structured text that legitimately repeat and are not chanting: code fences and
 * what they enclose, table rows, list items, headings, block quotes and dividers.
 */

const FENCE = /^\s{0,3}(?:```|~~~)/;
const TABLE = /^\s*\|/;
const LIST = /^\s*(?:[-*+•]|\d{1,3}[.)])\s/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const QUOTE = /^\s{0,3}>/;
const DIVIDER = /^\s*(?:[-*_=]\s*){3,}$/;

/** Tracks fenced code blocks across lines and says which lines are prose. */
export class StructureFilter {
  private inFence = false;

  /** Whether `line` is prose to be checked for chanting (updates the fence state). */
  isProse(line: string): boolean {
    if (FENCE.test(line)) {
      this.inFence = !this.inFence;
      return false;
    }
    if (this.inFence) return false;
    return !(TABLE.test(line) || LIST.test(line) || HEADING.test(line) || QUOTE.test(line) || DIVIDER.test(line));
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
