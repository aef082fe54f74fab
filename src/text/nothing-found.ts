/**
 * Recognises results that say nothing was found: "No results", "0 matches", "not found", "nothing to
 * show", an empty list or object. Similar retries that keep getting such answers are failing, even when
 * the tool reports them as successes; identical successes of other kinds ("OK", "File written") are not.
 */

/** Characters of a result looked at. */
const LOOK = 300;

const PHRASE =
  /\b(?:no|0|zero)\s+(?:\w+\s+)?(?:results?|matches|matching|items?|records?|rows?|entries|files?|hits|documents?|flights?|users?|orders?|products?|options?)\b(?:\s+(?:were|was)\s+found)?|\b(?:not|nothing)\s+found\b|\bcould not find\b|\bno such\b|\bdoes not exist\b|\bnothing to show\b/i;
const EMPTY_VALUE = /^\s*(?:\[\s*\]|\{\s*\}|null|none|empty|\(empty\)|""|'')\s*$/i;

/** Whether a result (text, or a value shown as JSON) says that nothing was found. */
export function saysNothingFound(result: unknown): boolean {
  if (Array.isArray(result)) return result.length === 0;
  if (typeof result === 'object' && result !== null) {
    try {
      if (Object.keys(result).length === 0) return true;
    } catch {
      return false;
    }
    return false;
  }
  if (typeof result !== 'string') return false;
  const t = result.length > LOOK ? result.slice(0, LOOK) : result;
  return EMPTY_VALUE.test(t) || PHRASE.test(t);
}
