/**
 * Gemini CLI: BeforeTool before a call, AfterTool after it ran (`tool_response`: `llmContent`,
 * `returnDisplay`, and `error` when it failed), BeforeAgent (a new prompt: the session's fresh start),
 * SessionEnd. Payloads have no call id, so a call's id is its
 * canonical signature: a record pairs with the proposal of the same call, even when calls run in parallel.
 *
 * `run_shell_command` reports a command that exited with another code than 0 as a success whose
 * `llmContent` ends with `Exit Code: N` (no `error`), and every run's `llmContent` ends with its own
 * `Process Group PGID: N`; from Gemini CLI 0.49 the whole text is wrapped in `<untrusted_context>` tags.
 * So its outcome is read as the chat reader reads it (src/formats/gemini-parts.ts shellOutcome, inside
 * the tags): an exit code other than 0 is a failure, and the footer is left out of the result
 * (src/formats/gemini-hook-result.ts, shared with the hook payload log reader).
 *
 * A call's input is compared without run_shell_command's `description`, the model's free text about the
 * command (src/formats/volatile-input.ts, which the chat readers apply too).
 *
 * Output (gemini-cli docs/hooks/reference.md, packages/core/src/hooks/types.ts), by decision:
 * - allow: nothing;
 * - warn: BeforeTool has no context for the model: `systemMessage` tells the user now, and the model reads
 *   the verdict after the call ran, as `hookSpecificOutput.additionalContext` on AfterTool;
 * - ask: `decision: "ask"` (the user confirms the call), with the reason as `systemMessage`;
 * - deny: `decision: "deny"` with `reason`, which the model reads as the tool's error;
 * - stop: `continue: false` with `stopReason` (the agent loop stops), and the deny.
 */
import { callSignature } from '../fingerprint/signature.js';
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, type ReplyContext, afterCallContext, hookJson } from './hook-agent.js';
import { geminiHookOutcome } from '../formats/gemini-hook-result.js';
import { volatileFields } from '../formats/volatile-input.js';
import { capText, capValue, inputOf, promptOf, sessionOf, toolOf } from './hook-payload.js';
import { geminiPayloadTool } from '../formats/gemini-mcp.js';
import { stopReasonFor } from './stop-reason.js';

/**
 * The outcome a tool response says (src/formats/gemini-hook-result.ts, which the hook payload log reader
 * shares: a call's outcome is the same whether read from the hook or a log of its payloads), capped.
 */
function outcomeOf(tool: string, response: unknown): { readonly error: string } | { readonly result: unknown } {
  const o = geminiHookOutcome(tool, response);
  if ('error' in o) return { error: capText(o.error) };
  return { result: typeof o.result === 'string' ? capText(o.result) : capValue(o.result, 1) };
}

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall {
  const session = sessionOf(p);
  if (phase === 'end') return { agent: 'gemini', eventName, phase, session, call: { tool: eventName } };
  if (phase === 'prompt') return { agent: 'gemini', eventName, phase, session, call: { tool: eventName }, ...promptOf(p) };
  const tool = geminiPayloadTool(toolOf(p), p.mcp_context); // an MCP tool as mcp__<server>__<tool> (gemini-mcp.ts)
  const args = inputOf(p, volatileFields('gemini', tool));
  const base = { tool, args, id: `sig:${callSignature(tool, args)}` };
  if (phase === 'propose') return { agent: 'gemini', eventName, phase, session, call: base };
  return { agent: 'gemini', eventName, phase, session, call: { ...base, ...outcomeOf(tool, p.tool_response) } };
}

function reply(c: HookCall, d: LiveDecision, ctx: ReplyContext): string {
  const m = d.message ?? '';
  if (c.phase === 'record') {
    // the proposal's warning reached only the user: the model reads the verdict here, after the result
    const context = afterCallContext(d, { ...ctx, warnsBefore: false });
    return hookJson(context === '' ? {} : { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: context } }, ctx);
  }
  switch (d.action) {
    case 'allow':
      return hookJson({}, ctx);
    case 'warn':
      return hookJson({ systemMessage: m }, ctx);
    case 'ask':
      return hookJson({ decision: 'ask', systemMessage: m }, ctx);
    case 'deny':
      return hookJson({ decision: 'deny', reason: m }, ctx);
    case 'stop':
      return hookJson({ continue: false, stopReason: stopReasonFor(m), decision: 'deny', reason: m }, ctx);
  }
}

/** The Gemini CLI codec. */
export const GEMINI: HookAgent = {
  name: 'gemini',
  title: 'Gemini CLI',
  events: { propose: ['BeforeTool'], record: ['AfterTool'], decline: [], prompt: ['BeforeAgent'], end: ['SessionEnd'] },
  editTools: ['write_file', 'replace'],
  decode,
  reply,
};
