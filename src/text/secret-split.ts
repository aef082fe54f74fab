/**
 * Secrets split by U+FFFD. An invalid UTF-8 byte reads as U+FFFD (the MCP proxy's lines, a hook's stdin,
 * serve's bodies, a trace's bytes), so a token with one stray byte inside (`ghp_A1b2…G7h8<0xff>I9j0…`) was
 * two runs no rule knew, and both halves were shown. The rules are also run over the text without its
 * U+FFFD, and what they find there is mapped back onto the text, the U+FFFD inside included:
 *
 * ```
 *  text      x ghp_A1b2\uFFFDC3d4 y   ──rules──> nothing
 *  stripped  x ghp_A1b2C3d4 y         ──rules──> [2, 14) ──mapped back──> [2, 15) in text
 * ```
 * Only texts holding U+FFFD pay for it (one more pass of the rules, linear as they are).
 */

/** The replacement character an invalid byte reads as. */
export const REPLACEMENT = '\uFFFD';

/** `text` without its U+FFFD, and where each of its pieces starts in `text` and in the stripped text. */
interface Stripped {
  readonly text: string;
  /** Start of each piece (between two U+FFFD) in the stripped text, increasing. */
  readonly starts: readonly number[];
  /** Start of each piece in the original text. */
  readonly origins: readonly number[];
}

/** `text` without U+FFFD, with the map back. */
export function stripReplacements(text: string): Stripped {
  const pieces = text.split(REPLACEMENT);
  const starts: number[] = [];
  const origins: number[] = [];
  let at = 0;
  let origin = 0;
  for (const p of pieces) {
    if (p.length > 0) {
      starts.push(at);
      origins.push(origin);
    }
    at += p.length;
    origin += p.length + 1;
  }
  return { text: pieces.join(''), starts, origins };
}

/** The index in the original text of index `i` of the stripped text (a character of it). */
function originOf(s: Stripped, i: number): number {
  let lo = 0;
  let hi = s.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((s.starts[mid] as number) <= i) lo = mid;
    else hi = mid - 1;
  }
  return (s.origins[lo] as number) + i - (s.starts[lo] as number);
}

/**
 * Adds to `out` (start, end pairs) the spans `find` gives over `text` without its U+FFFD, mapped back onto
 * `text` (a span covers the U+FFFD between its first and last characters). Nothing when `text` holds none.
 */
export function splitSecretSpans(text: string, out: number[], find: (stripped: string) => readonly number[]): void {
  if (!text.includes(REPLACEMENT)) return;
  const s = stripReplacements(text);
  if (s.text.length === 0) return;
  const spans = find(s.text);
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k] as number;
    const end = spans[k + 1] as number;
    if (end <= start) continue;
    out.push(originOf(s, start), originOf(s, end - 1) + 1);
  }
}
