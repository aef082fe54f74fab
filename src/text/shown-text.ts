/**
 * Text shown to people and models (call previews, error and chunk excerpts, verdict patterns, snippets of
 * received values in error messages) is cut to a length before anything else reads it, so what it costs
 * does not grow with the text it comes from.
 */

/** `text`, or its first `max - 1` characters and `…` when it is longer than `max` (`max` at least 1). */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * `text` on one line (white space runs as one space, none at either end), cut to `max` characters. Reads at
 * most `4 * max` characters of `text`: text that is mostly white space shows less of itself.
 */
export function oneLine(text: string, max: number): string {
  const more = text.length > 4 * max;
  const line = (more ? text.slice(0, 4 * max) : text).replace(/\s+/g, ' ').trim();
  return more && line.length < max ? `${line}…` : cutText(line, max);
}
