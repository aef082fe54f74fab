/**
 * Zed's ACP adapter for Claude Code (`@zed-industries/claude-code-acp`) runs shell commands in the editor's
 * terminal through its own MCP tools, `mcp__acp__Bash` and `mcp__acp__BashOutput`. Their result is one
 * text block without `is_error` (in the transcript, and as the hook's `tool_response`), whatever the exit
 * code: its src/mcp-server.ts `toolCommandOutput` writes a status (`Interrupted by the user. `, `Killed. `,
 * `Timed out. `), then `Exited with code N.` (before September 2025: `Failed with exit code N.`, only when
 * N != 0), an optional ``Signal `S`. ``, `Final output:\n\n` and the output. Read as it stands, a command
 * that failed was a success (7 calls in holdout6). A text that begins so with N != 0 is a failure, read so
 * by the hook (src/hooks/claude-code.ts), the hook payload log reader and the transcript reader alike.
 */
import { type Outcome, failure } from './held-calls.js';
import { contentText, isRecord } from './json-value.js';

/** The adapter's shell tools, whose results carry their exit code as text. */
const ACP_SHELL_TOOLS = new Set(['mcp__acp__Bash', 'mcp__acp__BashOutput']);

/** `toolCommandOutput`'s head: a status, then the exit code (`Exited with code N.` or the older `Failed with exit code N.`). */
const EXIT_HEAD = /^(?:Interrupted by the user\. |Killed\. |Timed out\. )?(?:Exited with code|Failed with exit code) (-?\d{1,10})\./;

/** The text of a result as the model read it: a string, text blocks, or an MCP result `{content: [...]}`. */
function resultText(result: unknown): string | undefined {
  const r = isRecord(result) && Array.isArray(result.content) ? result.content : result;
  const text = contentText(r);
  return typeof text === 'string' ? text : undefined;
}

/**
 * The result's text when `tool` is one of the adapter's shell tools and its result says the command exited
 * with another code than 0; undefined otherwise (a success, another tool, another shape).
 */
export function acpShellFailure(tool: string, result: unknown): string | undefined {
  if (!ACP_SHELL_TOOLS.has(tool)) return undefined;
  const text = resultText(result);
  if (text === undefined) return undefined;
  const m = EXIT_HEAD.exec(text);
  return m !== null && Number(m[1]) !== 0 ? text : undefined;
}

/** `o` read again for a call of `tool`: a success whose result says a non-zero exit ({@link acpShellFailure}) is a failure. */
export function acpShellOutcome(tool: string, o: Outcome): Outcome {
  if (o.errorInfo === 'known') return o;
  const text = acpShellFailure(tool, o.result);
  return text === undefined ? o : failure(text); // as the hook reads it: the failure is the text
}
