/**
 * What a Gemini CLI hook's `tool_response` (AfterTool) says about its call, as the Gemini hook reads it
 * (src/hooks/gemini.ts) and the hook payload log reader reads a logged Gemini payload (hook-payloads.ts):
 * one function, so a call's outcome is the same whether the hook saw it or a log of its payloads is read.
 *
 * The response is `{llmContent, returnDisplay, error?}`: an `error` (its `message`, a string, else its JSON)
 * is a failure. `run_shell_command` reports a command that exited with another code than 0 as a success
 * whose `llmContent` ends with `Exit Code: N`, and every run's `llmContent` ends with its own `Process Group
 * PGID: N` (from 0.49 inside `<untrusted_context>` tags): read as the chat reader reads it (gemini-parts.ts
 * shellOutcome), a non-zero exit code is a failure and the footer is left out. Any other result is
 * `llmContent` (what the model read), else `returnDisplay`.
 */
import { shellOutcome } from './gemini-parts.js';
import { isRecord } from './json-value.js';

/** A Gemini hook response read: the failure's text (`error`) or the result. Uncapped: the hook caps it. */
export type GeminiHookOutcome = { readonly error: string } | { readonly result: unknown };

/** The error text of a response's `error`, or undefined when the call succeeded. */
function errorText(e: unknown): string | undefined {
  if (e === undefined || e === null || e === false) return undefined;
  if (isRecord(e) && typeof e.message === 'string') return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e);
}

/** What the Gemini hook `tool_response` `response` of a call of `tool` says (see the header). */
export function geminiHookOutcome(tool: string, response: unknown): GeminiHookOutcome {
  const o = isRecord(response) ? response : { llmContent: response };
  const error = errorText(o.error);
  if (error !== undefined) return { error };
  if (tool === 'run_shell_command' && typeof o.llmContent === 'string') {
    const s = shellOutcome(o.llmContent);
    const text = typeof s.result === 'string' ? s.result : o.llmContent;
    return s.errorInfo === 'known' ? { error: text } : { result: text };
  }
  return { result: o.llmContent ?? o.returnDisplay };
}
