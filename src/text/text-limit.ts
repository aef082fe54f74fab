/**
 * The cap on agent text: an event's `text` and each piece given to `checkText` are read up to
 * {@link TEXT_LIMIT} characters, whatever their length, so a call costs no more for a 10 MB text than for
 * a 64 KB one (results and args are capped the same way: results are masked on their first `MASK_LIMIT`
 * bytes, the semantic detector reads `maxTextLength` bytes of a call's action text).
 */

/**
 * Characters (UTF-16 code units) of an event's `text`, and of each `checkText` piece, that loopwatch reads;
 * the rest is ignored. Room for the longest chant the options allow (`maxPeriod` 4,096 times the default
 * `threshold` of 10) within one call.
 */
export const TEXT_LIMIT = 65_536;

/** `text` cut to {@link TEXT_LIMIT} characters (one less rather than split a surrogate pair). */
export function capText(text: string): string {
  if (text.length <= TEXT_LIMIT) return text;
  const last = text.charCodeAt(TEXT_LIMIT - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? TEXT_LIMIT - 1 : TEXT_LIMIT);
}
