/**
 * Text shown to people and models (call previews, error and chunk excerpts, verdict patterns, snippets of
 * received values in error messages) is cut to a length before anything else reads it, so what it costs
 * does not grow with the text it comes from.
 *
 * A cut never falls inside a secret: when one runs across (or up to) the cut, the text is cut before it. Redaction
 * comes later, where the text is shown, and is then always handed whole secrets (cutting first and
 * redacting after would show the first half of a key, or a JWT's header, that the rules no longer know).
 * Secrets are looked for in the text up to {@link CUT_MARGIN} characters past the cut, with those still open
 * at that end (a token whose last segment has not come) taken to run on.
 */
import { mayHoldSecret, secretSpans } from './redact.js';

/**
 * Characters read past a cut to find the secrets that run across it: more than the longest a rule looks
 * ahead when its match is not open-ended (a quoted value, 256 characters; fixed-length keys, at most 70).
 */
export const CUT_MARGIN = 320;

/**
 * `text`, or its first `max - 1` characters (fewer rather than cut a secret) and `…` when it is longer than
 * `max` (`max` at least 1). `more`: `text` is itself the beginning of a longer text.
 */
export function cutText(text: string, max: number, more = false): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const end = cut + CUT_MARGIN;
  const window = end < text.length ? text.slice(0, end) : text;
  if (mayHoldSecret(window)) {
    const spans = secretSpans(window, more || window.length < text.length);
    // a secret ending at the cut goes too: what told it from plain text may come after it (a URL
    // password's `@`), and would not be there for redaction to see
    for (let k = 0; k < spans.length && (spans[k] as number) < cut; k += 2) {
      if ((spans[k + 1] as number) >= cut) cut = spans[k] as number;
    }
  }
  return `${text.slice(0, cut)}…`;
}

/**
 * `text` on one line (white space runs as one space, none at either end), cut to `max` characters as
 * {@link cutText} cuts. Reads at most `4 * (max + CUT_MARGIN)` characters of `text`: text that is mostly
 * white space shows less of itself.
 */
export function oneLine(text: string, max: number): string {
  const read = 4 * (max + CUT_MARGIN);
  const more = text.length > read;
  const line = (more ? text.slice(0, read) : text).replace(/\s+/g, ' ').trim();
  return more && line.length < max ? `${line}…` : cutText(line, max, more);
}
