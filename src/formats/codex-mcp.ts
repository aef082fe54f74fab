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
 *   the tool's text), which says nothing of an error; the `event_msg` `item_completed` of its `McpToolCall`
 *   item, written just before it, carries the tool's `result` (`{content, isError}`), which is what the hook
 *   reads (PostToolUse's `tool_response`, or codex-missed-outcomes.ts when none came). Its reading
 *   (codex-hook-result.ts, the hook's own) is the call's outcome: `isError` a known failure, its JSON the
 *   error; else a known success, the result object. The reader keeps these results at most
 *   {@link MAX_MCP_RESULTS} calls back, each taken by its call's output.
 */
import { codexHookOutcome } from './codex-hook-result.js';
import { type Outcome, failure } from './held-calls.js';
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

/** A completed MCP call of a rollout's `event_msg` payload: its call id and outcome; undefined for any other payload. */
export function mcpCompletion(payload: unknown): { readonly id: string; readonly outcome: Outcome } | undefined {
  if (!isRecord(payload) || payload.type !== 'item_completed' || !isRecord(payload.item)) return undefined;
  const item = payload.item;
  if (item.type !== 'McpToolCall' || typeof item.id !== 'string' || !isRecord(item.result)) return undefined;
  const o = codexHookOutcome(item.result);
  return { id: item.id, outcome: 'error' in o ? failure(o.error) : { result: o.result, errorInfo: 'absent' } };
}
