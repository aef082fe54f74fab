/**
 * Claude Code's PostToolBatch (code.claude.com/docs/en/hooks, Agent SDK `PostToolBatchHookInput`): fired
 * once after every call of a model turn's batch has resolved, before the next model request, with
 * `tool_calls: [{tool_name, tool_input, tool_use_id, tool_response?}]`, `tool_response` being the
 * `tool_result` content the model reads. A call the person declined at Claude Code's own prompt sends no
 * PostToolUse or PostToolUseFailure (and PermissionDenied is auto mode's classifier only); declined with
 * feedback ("No, and tell Claude what to do differently"), the turn goes on, so no new prompt comes either,
 * and its proposal waited until overdue. In the batch its result is Claude Code's rejection text: such a
 * call did not run, and is taken so at once (LoopDetector.didNotRun). Every other call of the batch had its
 * own event already, and is left alone.
 */
import type { LiveCall } from '../live/live-call.js';
import { contentText, isRecord } from '../formats/json-value.js';
import { MAX_CALL_ID_LENGTH } from '../live/live-call.js';
import { MAX_TOOL_LENGTH } from './hook-payload.js';

/** Calls of one batch read, at most (a model turn's parallel calls; more are passed over). */
export const MAX_BATCH_CALLS = 256;

/**
 * How Claude Code's `tool_result` begins for a call the person declined: without feedback ("…STOP what you
 * are doing and wait…"), with it ("…To tell you how to proceed, the user said:", or in older versions "The
 * user provided the following reason for the rejection:"), and the shorter refusal of older versions
 * (the seven sets hold 228 of these texts, every one beginning so).
 */
const REJECTED = /^The user doesn't want to (?:proceed with this tool use\.|take this action right now\.)/;

/** Whether a `tool_result` content (a string, or text blocks) is Claude Code's text for a declined call. */
export function isDeclinedResult(response: unknown): boolean {
  const text = contentText(response);
  return typeof text === 'string' && REJECTED.test(text);
}

/**
 * The calls of a PostToolBatch payload the person declined (see the header), each as the hook's other
 * events give it (`input` reads its arguments, capped, as PreToolUse's are read); malformed entries are passed over.
 */
export function declinedInBatch(p: Readonly<Record<string, unknown>>, input: (entry: Readonly<Record<string, unknown>>, tool: string) => unknown): LiveCall[] {
  const calls = p.tool_calls;
  if (!Array.isArray(calls)) return [];
  const declined: LiveCall[] = [];
  for (const c of calls.slice(0, MAX_BATCH_CALLS)) {
    if (!isRecord(c) || !isDeclinedResult(c.tool_response)) continue;
    const tool = c.tool_name;
    const id = c.tool_use_id;
    if (typeof tool !== 'string' || tool === '' || tool.length > MAX_TOOL_LENGTH) continue;
    if (typeof id !== 'string' || id === '' || id.length > MAX_CALL_ID_LENGTH) continue;
    declined.push({ tool, args: input(c, tool), id });
  }
  return declined;
}
