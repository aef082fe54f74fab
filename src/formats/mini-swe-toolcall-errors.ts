/**
 * mini-swe-agent 2.x format errors of tool-calling models (chat `tool_calls`, Responses `function_call`s),
 * read as 1.x's text-based ones are (mini-swe-text.ts): a turn the harness refused is a failed call, so a
 * run stuck answering in the wrong format is seen rather than quiet.
 *
 * 2.x (`models/utils/actions_toolcall.py`, `actions_toolcall_response.py`, v2.x) refuses a reply with no tool
 * call ("No tool calls found in the response. Every response MUST include at least one tool call."), or
 * with a call whose arguments are not JSON ("Error parsing tool call arguments: ..."), of a tool other than
 * `bash` ("Unknown tool '...'.") or without `command` ("Missing 'command' argument in bash tool call."): it
 * runs none of the reply's calls and answers with a `user` message rendered from the config's
 * `format_error_template` (the error inside the config's own words), marked `extra: {interrupt_type:
 * "FormatError"}`. Such a message, or one whose first {@link ERROR_LOOK} characters hold one of those
 * errors (a log that dropped `extra`), answers the reply before it:
 *
 * | the reply                     | read as                                                                  |
 * |-------------------------------|--------------------------------------------------------------------------|
 * | no tool call                  | a call of `_format_error`, args `{n_blocks: 0}` (or as a "found N actions" says) |
 * | calls the harness refused     | each of its calls still waiting: a known failure, the message its error  |
 *
 * either way the message is the result, and a known failure.
 */
import { isRecord } from './json-value.js';
import { FORMAT_ERROR_TOOL, statedBlocks } from './mini-swe-text.js';
import type { SessionCalls } from './session-calls.js';

/** The most characters of a `user` message searched for a 2.x format error's text. */
export const ERROR_LOOK = 4096;

/** The errors 2.x's tool-call parsers raise (the start of each). */
const ERRORS = ['No tool calls found in the response', 'Error parsing tool call arguments: ', "Unknown tool '", "Missing 'command' argument in bash tool call"] as const;

/** Whether `user` message `m` (`text` its text) is a 2.x format error (see the header). */
export function isToolCallFormatError(m: Readonly<Record<string, unknown>>, text: string): boolean {
  if (isRecord(m.extra) && m.extra.interrupt_type === 'FormatError') return true;
  const head = text.length > ERROR_LOOK ? text.slice(0, ERROR_LOOK) : text;
  return ERRORS.some((e) => head.includes(e));
}

/** The last reply of a tool-calling trajectory, for a format error to answer. */
export class ToolCallReplies {
  private last: { positions: number[]; text: string | undefined; round: number } | null = null;

  constructor(private readonly calls: SessionCalls) {}

  /** A reply of round `round` (`text` its text) whose calls were held at `positions` (none: it made no call). */
  reply(positions: readonly number[], text: string | undefined, round: number): void {
    this.last = { positions: [...positions], text, round };
  }

  /** Anything else that answers or follows the reply (a tool output, a person's message): a format error after it answers nothing. */
  settle(): void {
    this.last = null;
  }

  /** Format error `text` answers the last reply (see the header); false when no reply waits for one. */
  formatError(text: string): boolean {
    const r = this.last;
    this.last = null;
    if (r === null) return false;
    if (r.positions.length === 0) {
      const at = this.calls.call(undefined, { tool: FORMAT_ERROR_TOOL, args: { n_blocks: statedBlocks(text) ?? 0 }, text: r.text, round: r.round });
      this.calls.resultAt(at, text, 'known', text);
      return true;
    }
    for (const p of r.positions) if (!this.calls.answered(p)) this.calls.resultAt(p, text, 'known', text);
    return true;
  }
}
