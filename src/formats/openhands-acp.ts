/**
 * The OpenHands SDK's `ACPToolCallEvent` (openhands/sdk/event/acp_tool_call.py): a tool call an ACP server
 * (Claude Code, Codex, Gemini CLI run under the SDK's `ACPAgent`) ran, `{tool_call_id, title, status,
 * tool_kind, raw_input, raw_output, content, is_error}`. The SDK emits one call several times under one
 * `tool_call_id`, each emission its state so far (acp_agent.py `_emit_tool_call_event`: "consumers should dedupe
 * by id and treat the last-seen event as authoritative"): an early `pending` / `in_progress` one, often with no
 * input yet, then one terminal one, `completed` or `failed` (a `failed` one has `is_error`), with the final
 * input and output. So a call is read once: held at its first emission (its place in the session), its tool
 * and args taken from its terminal emission, which settles it. An id is used again after the call ended (an
 * ACP server counts its ids afresh each session): a later emission under it is another call.
 */
import type { CallStart, Outcome } from './held-calls.js';
import { failure } from './held-calls.js';

/** The statuses after which the SDK emits no more for a call (acp_agent.py `_TERMINAL_TOOL_CALL_STATUSES`). */
export const ACP_TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed']);

/** Whether ACP tool call event `e` is its call's last emission (terminal status, or an error). */
export function isAcpTerminal(e: Readonly<Record<string, unknown>>): boolean {
  return e.is_error === true || (typeof e.status === 'string' && ACP_TERMINAL_STATUSES.has(e.status));
}

/**
 * The tool and args of ACP tool call event `e`: its `title` names it (as the SDK's own transcript does), else
 * its `tool_kind`; the args are its `raw_input` (undefined when the emission has none yet).
 */
export function acpCallStart(e: Readonly<Record<string, unknown>>): Pick<CallStart, 'tool' | 'args'> {
  const tool = typeof e.title === 'string' && e.title !== '' ? e.title : typeof e.tool_kind === 'string' && e.tool_kind !== '' ? e.tool_kind : 'unknown';
  return { tool, args: e.raw_input ?? undefined };
}

/** What terminal ACP tool call event `e` says about its call: `is_error` or `failed` a known failure, its `raw_output` the result. */
export function acpOutcome(e: Readonly<Record<string, unknown>>): Outcome {
  const result = e.raw_output ?? undefined;
  return e.is_error === true || e.status === 'failed' ? failure(result) : { result, errorInfo: 'absent' };
}
