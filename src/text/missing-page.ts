/**
 * A page fetch the web answered "not there" (HTTP 404, 410) or "not to you" (403: the site refuses the
 * fetcher, as publishers and bot-guarded sites do): a probe that found nothing, not the agent's wall. An
 * agent researching on the web guesses where a page lives (`github.com/org/skills`, then the raw file, then
 * a mirror) and fetches what a search named; some of those pages are gone or closed to it. Those are
 * different probes finding nothing, as reads of missing files and `ls` of missing paths are
 * (missing-read.ts, failure-kinds.ts): different such fetches are no dead end. The same page fetched again
 * and again is still a loop: the detectors of repeated calls see it.
 *
 * Read only of a fetch tool (Claude Code's `WebFetch`, Gemini CLI's `web_fetch`, an MCP server's `fetch` or
 * `web_fetch`: {@link FETCH_TOOL}) whose whole failure is the HTTP client's status line (Claude Code:
 * "Request failed with status code 404"): the same words from the agent's own program (a script calling its
 * API, run in a shell) are that program failing, a real failure. Any other status (400: the request was
 * wrong; 401: a login wanted, a person's; 429, 5xx: the infrastructure's) is read as before. Reads at most
 * {@link PAGE_LOOK} characters.
 */

/** Characters of a failure's text read at most. */
export const PAGE_LOOK = 256;

/** A tool that fetches a web page: its whole name, or an MCP tool's own name after its server's `__`. */
const FETCH_TOOL = /(?:^|__)(?:web_?fetch|fetch)$/i;

/** Characters of a tool's name read at most (a longer name is no fetch tool's: the text is capped before the pattern). */
export const TOOL_LOOK = 256;

/** An HTTP client's failure at a page not there or refused, alone (an `Error: ` label and white space aside). */
const NOT_SERVED = /^\s*(?:error:\s*)?request failed with status code (?:403|404|410)\.?\s*$/i;

/** Whether a text is only the client's status line (looked at in its first PAGE_LOOK characters). */
const notServed = (text: string): boolean => text.length <= PAGE_LOOK && NOT_SERVED.test(text);

/**
 * Whether a failed call of `tool` is a page fetch that found nothing: its error says only that the page is
 * not there or refused, and its result, if any, says no more.
 */
export function fetchFoundNothing(tool: string, error: string, result: string | undefined): boolean {
  return tool.length <= TOOL_LOOK && FETCH_TOOL.test(tool) && notServed(error) && (result === undefined || result === error || notServed(result));
}
