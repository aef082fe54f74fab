/**
 * A tool's answer the harness would not pass on for its size: Claude Code's "MCP tool "x" response (25800
 * tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit parameters to
 * reduce the response size." and its `Read`'s "File content (31000 tokens) exceeds maximum allowed tokens
 * (25000). Use offset and limit parameters to read specific portions of the file, ..." (or "... (300KB)
 * exceeds maximum allowed size (256KB). ..."; the older form inside `<tool_use_error>` tags). The call was
 * right and the thing it asked for is there; the answer was too long to show. The harness's own advice is
 * another call asking for less (a lower `limit`, an `offset`, a search), so such calls, each asking
 * differently, are the agent narrowing its question, as a search that found nothing is a probe
 * (failure-kinds.ts), not the agent's wall. The same call sent again is still a loop: the detectors of
 * repeated calls see it.
 *
 * Read only where the whole failure is that sentence (an `Error: ` label aside): the same words inside a
 * program's output are that program's. A result "saved to" a file instead is no failure of this kind.
 * Reads at most {@link TOO_LARGE_LOOK} characters, with patterns that cannot backtrack.
 */
import { toolFailureLine } from './tool-failure-line.js';

/** Characters of a failure's text read at most (a longer failure is not this one sentence). */
export const TOO_LARGE_LOOK = 512;

/**
 * The sentence, up to the harness's advice: an MCP tool's response, or a read file's content, of a size (tokens,
 * or KB) over the cap. The quoted name holds no quote or line break; each number is digits (and a decimal part).
 */
const TOO_LARGE = /^(?:MCP tool "[^"\n]{1,256}" response|File content) \(\d+(?:\.\d+)? ?(?:tokens|KB)\) exceeds maximum allowed (?:tokens|size) \(\d+(?:\.\d+)? ?(?:tokens|KB)?\)\. /;

/** How the harness's advice begins after the sentence: ask for less. */
const ADVICE: readonly string[] = Object.freeze(['Please use pagination, filtering, or limit parameters', 'Please use offset and limit parameters', 'Use offset and limit parameters']);

/** Whether `text` is only the harness's word that a tool's answer was too large to pass on (see the file's comment). */
export function saysAnswerTooLarge(text: string): boolean {
  if (text.length > TOO_LARGE_LOOK) return false;
  const t = toolFailureLine(text);
  const m = TOO_LARGE.exec(t);
  if (m === null) return false;
  const advice = t.slice(m[0].length);
  return !advice.includes('\n') && ADVICE.some((a) => advice.startsWith(a));
}

/** Whether a failure is the harness's word that the answer was too large, its result, if any, saying no more. */
export function answerTooLarge(error: string, result: string | undefined): boolean {
  return saysAnswerTooLarge(error) && (result === undefined || result === error || saysAnswerTooLarge(result));
}
