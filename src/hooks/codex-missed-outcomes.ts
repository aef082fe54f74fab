/**
 * The outcomes of Codex calls that ran without a PostToolUse, read from the rollout.
 *
 * Codex 0.171 sends PostToolUse only for a call whose tool answered without an error of its own: a patch
 * that does not apply (`apply_patch verification failed: Failed to find expected lines in ...`) and an MCP
 * tool that answers `isError: true` reach the model and the rollout, and no PostToolUse comes (walked with
 * `codex exec` and the interactive `codex`, a mock model, docs/hooks.md). The hook held such a call as a
 * proposal whose outcome never came, so as a call that did not run (LoopDetector.expectEveryOutcome): the
 * same broken patch, proposed four times, was allowed four times, where `scan` of the rollout breaks the
 * loop at the fourth.
 *
 * Codex writes a call's output into the rollout once the call's PostToolUse hooks are done (none: at once),
 * before the model's next request. So when a later hook of the session runs, a call still waiting whose
 * output the rollout holds got no PostToolUse and will get none: its outcome is read from the rollout, as
 * the PostToolUse would have given it (`tool_response`):
 *
 * | rollout line naming the call (`call_id`, `item.id`)                  | its `tool_response`                        |
 * |-----------------------------------------------------------------------|--------------------------------------------|
 * | `event_msg` `item_completed`, an `McpToolCall` with its `result`       | the result (`{content, isError}`)          |
 * | `event_msg` `mcp_tool_call_end` (older Codex), its `result` `{Ok}`/`{Err}` | the `Ok` result, or the `Err` message as an `isError` result |
 * | `response_item` `custom_tool_call_output` / `function_call_output`    | its `output` (content parts: their text)   |
 *
 * The output line is needed either way (an MCP call's `item_completed` is written before its PostToolUse
 * runs: a call in that moment is not taken); an MCP call's completion (codex-mcp.ts's mcpCompletion, scan's own reading) is preferred, since its output
 * line says nothing of the error (`Wall time: ...\nOutput:` and the text). Bounded and fail-open as the
 * turn's read (transcript-turn.ts): the rollout's last TURN_LOOK bytes read once, at most MAX_LINES lines
 * parsed per waiting call and search, at most MAX_PENDING calls waiting; a file not named `.jsonl` (a
 * rollout's name), not readable, or without the call's output gives nothing, and the call waits as before.
 */
import type { LiveCall } from '../live/live-call.js';
import { mcpCompletion } from '../formats/codex-mcp.js';
import { contentText, isRecord } from '../formats/json-value.js';
import { readTranscriptPart } from './transcript-part.js';
import { TURN_LOOK, lastLine } from './transcript-turn.js';
import type { TranscriptPart } from './transcript-part.js';
import type { TranscriptTrust } from './transcript-open.js';

/** Rollout items that answer a call. */
const OUTPUTS: ReadonlySet<unknown> = new Set(['function_call_output', 'custom_tool_call_output']);

/** A waiting call and what Codex would have sent as its PostToolUse `tool_response`. */
export interface MissedResponse {
  readonly call: LiveCall;
  readonly response: unknown;
}

/** The output item of a rollout line answering call `id`, or undefined. */
function outputOf(v: unknown, id: string): Record<string, unknown> | undefined {
  if (!isRecord(v) || v.type !== 'response_item' || !isRecord(v.payload)) return undefined;
  const it = v.payload;
  return OUTPUTS.has(it.type) && it.call_id === id ? it : undefined;
}

/** The `result` of a rollout line's completed MCP call `id` (codex-mcp.ts, as scan reads it), or undefined. */
function mcpResultOf(v: unknown, id: string): Record<string, unknown> | undefined {
  const done = isRecord(v) && v.type === 'event_msg' ? mcpCompletion(v.payload) : undefined;
  return done?.id === id ? done.result : undefined;
}

/** What the rollout `part` says call `id` answered, as a PostToolUse `tool_response`; undefined when its output is not there. */
function responseIn(part: TranscriptPart, id: string): unknown {
  const needle = JSON.stringify(id);
  const output = lastLine(part, needle, (v) => outputOf(v, id) !== undefined);
  if (output === null) return undefined;
  const mcp = lastLine(part, needle, (v) => mcpResultOf(v, id) !== undefined);
  if (mcp !== null) return mcpResultOf(mcp.value, id);
  const out = (outputOf(output.value, id) as Record<string, unknown>).output;
  return typeof out === 'string' ? out : contentText(out);
}

/**
 * The calls of `waiting` (proposals with an id still waiting for their outcome) that the rollout of
 * payload `p` (`transcript_path`) shows answered, each with its response (see the header); in `waiting`'s
 * order. Never throws.
 */
export function missedResponses(p: Readonly<Record<string, unknown>>, waiting: readonly LiveCall[], trust: TranscriptTrust = 'agent'): MissedResponse[] {
  const path = p.transcript_path;
  if (waiting.length === 0 || typeof path !== 'string' || !path.endsWith('.jsonl')) return [];
  const part = readTranscriptPart(path, 'tail', TURN_LOOK, trust);
  if (part === null) return [];
  const out: MissedResponse[] = [];
  for (const call of waiting) {
    if (call.id === undefined) continue;
    const response = responseIn(part, call.id);
    if (response !== undefined) out.push({ call, response });
  }
  return out;
}
