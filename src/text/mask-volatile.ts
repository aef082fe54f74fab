/**
 * Masks the parts of a text that vary between otherwise identical messages: quoted parts, URLs, paths,
 * hex ids and UUIDs, and numbers. Two errors with the same masked text are the same *class* of error
 * ("NameError: name 'x' is not defined" and "... name 'y' ...").
 */

/** Characters of text masked at most; the rest is dropped. */
export const MASK_MAX_LENGTH = 2000;

const QUOTED = /"[^"\n]{0,200}"|'[^'\n]{0,200}'|`[^`\n]{0,200}`/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
const PATH = /(?:[A-Za-z]:)?(?:~|\.{1,2})?(?:[\\/][\w.@+-]+)+[\\/]?|\b[\w.@+-]+(?:[\\/][\w.@+-]+)+[\\/]?/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX = /\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi;
const NUMBER = /\d+(?:\.\d+)?/g;
const SPACE = /\s+/g;

/** Returns `text` with its volatile parts replaced by placeholders and white space collapsed. */
export function maskVolatile(text: string): string {
  const t = text.length > MASK_MAX_LENGTH ? text.slice(0, MASK_MAX_LENGTH) : text;
  return t
    .replace(QUOTED, '<q>')
    .replace(URL, '<url>')
    .replace(UUID, '<id>')
    .replace(PATH, '<path>')
    .replace(HEX, '<id>')
    .replace(NUMBER, '<n>')
    .replace(SPACE, ' ')
    .trim();
}
