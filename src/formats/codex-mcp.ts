/**
 * Codex CLI's MCP calls in a rollout, named and judged as the Codex hook names and judges them
 * (src/hooks/codex.ts), so `scan` of a session and the live hook give the same verdicts.
 *
 * - Name. Codex 0.13x+ writes an MCP call as a `function_call` of the bare tool inside its server's
 *   namespace: `{name: "lookup", namespace: "mcp__lw"}` (0.171; `"mcp__serena__"`, its separator kept, in
 *   0.12x), where the hook's `tool_name` is `mcp__lw__lookup`, and older rollouts wrote `name:
 *   "mcp__lw__lookup"` with no namespace. A call in an `mcp__` namespace is named `<namespace>__<name>`
 *   (one `__` between them); any other namespace is left as it was (what the hook names it is not known).
 * - Outcome. The call's `function_call_output` is the text the model reads (`Wall time: ...\nOutput:` and
 *   the tool's text), which says nothing of an error; an `event_msg` written just before it carries the
 *   tool's `result` (`{content, isError}`), which is what the hook reads (PostToolUse's `tool_response`, or
 *   codex-missed-outcomes.ts when none came): Codex 0.171 writes the `item_completed` of the call's
 *   `McpToolCall` item (`item.id` the call id, `item.result`, or `item.error` `{message}` when the call did
 *   not reach the tool), older Codex the `mcp_tool_call_end` event (`call_id`, `result` serde's `{"Ok":
 *   <CallToolResult>}` or `{"Err": "<message>"}`: codex-rs protocol's `McpToolCallEndEvent`). One reader,
 *   {@link mcpCompletion}, gives both as the result the hook would read (an error message as a result with
 *   `isError: true`), for scan (codex.ts) and the hook's missed-outcome reader alike. Its reading
 *   (codex-hook-result.ts, the hook's own) is the call's outcome: `isError` a known failure, its JSON the
 *   error; else a known success, the result object. The reader keeps these results at most
 *   {@link MAX_MCP_RESULTS} calls back, each taken by its call's output.
 */
import { codexHookOutcome } from './codex-hook-result.js';
import type { Outcome } from './held-calls.js';
import { isRecord } from './json-value.js';

/** MCP results held for outputs still to come (older ones are forgotten: their outputs read as before). */
export const MAX_MCP_RESULTS = 1024;

const MCP_NAMESPACE = 'mcp__';

/** The tool a Codex `function_call` item names: `name`, behind its `mcp__` namespace when it has one (see the header). */
export function codexToolName(it: Readonly<Record<string, unknown>>, name: unknown): unknown {
  const ns = it.namespace;
  if (typeof ns !== 'string' || !ns.startsWith(MCP_NAMESPACE) || typeof name !== 'string' || name === '') return name;
  return ns.endsWith('__') ? ns + name : `${ns}__${name}`;
}

/** A completed MCP call: its call id and the tool's result as the hook's `tool_response` would carry it. */
export interface McpCompletion {
  readonly id: string;
  readonly result: Readonly<Record<string, unknown>>;
}

/** A call that did not reach its tool, as a result the hook reads as a failure: the message the model read. */
function errorResult(message: unknown): Record<string, unknown> | undefined {
  const text = isRecord(message) ? message.message : message;
  return typeof text === 'string' ? { content: [{ type: 'text', text }], isError: true } : undefined;
}

/** The result of a 0.171 `McpToolCall` item, or of an older `mcp_tool_call_end`'s `result` (`{Ok}` / `{Err}`). */
function itemResult(item: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  return isRecord(item.result) ? item.result : errorResult(item.error);
}
function endResult(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result)) return undefined;
  return isRecord(result.Ok) ? result.Ok : errorResult(result.Err);
}

/**
 * A completed MCP call of a rollout's `event_msg` payload (an `item_completed` of an `McpToolCall`, or an
 * older Codex's `mcp_tool_call_end`: see the header): its call id and result; undefined for any other payload.
 */
export function mcpCompletion(payload: unknown): McpCompletion | undefined {
  if (!isRecord(payload)) return undefined;
  let id: unknown;
  let result: Record<string, unknown> | undefined;
  if (payload.type === 'item_completed' && isRecord(payload.item) && payload.item.type === 'McpToolCall') {
    id = payload.item.id;
    result = itemResult(payload.item);
  } else if (payload.type === 'mcp_tool_call_end') {
    id = payload.call_id;
    result = endResult(payload.result);
  }
  return typeof id === 'string' && result !== undefined ? { id, result } : undefined;
}

/** What a completed MCP call's result says, as the hook reads it (codex-hook-result.ts). */
export function mcpOutcome(result: unknown): Outcome {
  return codexHookOutcome(result);
}
