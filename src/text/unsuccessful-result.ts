/**
 * Recognises a result that reports its own failure as data: a JSON object whose top level says
 * `"success": false` or `"ok": false` (`{"success":false,"message":"Cannot clean up team with 1 active
 * member"}`), as many tools and MCP servers answer rather than raising an error. Such a call failed as
 * surely as one with an error. Only a whole object of at most {@link UNSUCCESSFUL_LOOK} characters is read,
 * and only its top level (a listing whose items say `"ok": false` reports on those items, not itself).
 */

/** Longest result text read, in characters. */
export const UNSUCCESSFUL_LOOK = 2048;

/** Whether a value (a parsed result) is an object whose top level says it did not succeed. */
function saysFalse(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  return o.success === false || o.ok === false;
}

/**
 * Whether a result (a text of at most UNSUCCESSFUL_LOOK characters, or an object as given) reports that the
 * call did not succeed.
 */
export function reportsUnsuccessful(result: unknown): boolean {
  if (typeof result !== 'string') {
    try {
      return saysFalse(result);
    } catch {
      return false; // a getter that throws reads as nothing
    }
  }
  if (result.length > UNSUCCESSFUL_LOOK || !result.includes('false')) return false;
  const t = result.trimStart();
  if (!t.startsWith('{')) return false;
  try {
    return saysFalse(JSON.parse(t));
  } catch {
    return false;
  }
}
