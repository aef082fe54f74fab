/**
 * A bound on the values of a JSON text before it is parsed whole. A JSON text of many tiny values holds
 * far more memory parsed than as text: 60 MB of `[],[],...` (20 million empty arrays, under the 64 MiB
 * `maxLineBytes`) took `scan` to 2.7 GB and 97 s. The count is of the bytes that start a value or a
 * member outside strings (`[`, `{` and `,`), an upper bound on the values and containers, taken in one
 * pass over the text and only when the text is long enough to pass the bound at all.
 *
 * ```
 *   {"a":[1,2,{"b":[]}]}     { [ , , { [   -> 6 (6 values: the object, the array, 1, 2, {"b":...}, [])
 *   "x,[{"                   inside a string: not counted
 * ```
 */

/** Most values (counted as above) a JSON text read whole may hold: 4 million. */
export const MAX_JSON_VALUES = 4_000_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/**
 * The values of the JSON text `text` (counted as in the header), stopping past `max`: at most `max + 1`.
 * One pass over the text.
 */
export function countJsonValues(text: string, max: number = MAX_JSON_VALUES): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if ((c === COMMA || c === OPEN_ARRAY || c === OPEN_OBJECT) && ++count > max) return count;
  }
  return count;
}

/**
 * Whether the JSON text `text` holds more than `max` values (see the header). Cost: nothing for a text of
 * at most `max` characters (each counted byte is a character), one pass otherwise, stopping at the bound.
 */
export function hasMoreValuesThan(text: string, max: number = MAX_JSON_VALUES): boolean {
  return text.length > max && countJsonValues(text, max) > max;
}
