/**
 * Claude Code's PostToolBatch (code.claude.com/docs/en/hooks, Agent SDK `PostToolBatchHookInput`): fired
 * once after every call of a model turn's batch has resolved, before the next model request, with
 * `tool_calls: [{tool_name, tool_input, tool_use_id, tool_response?}]`, `tool_response` being the
 * `tool_result` content the model reads. A call the person declined at Claude Code's own prompt sends no
 * PostToolUse or PostToolUseFailure (and PermissionDenied is auto mode's classifier only); declined with
 * feedback ("No, and tell Claude what to do differently"), the turn goes on, so no new prompt comes either,
 * and its proposal waited until overdue. In the batch its result is Claude Code's rejection text: such a
 * call did not run, and is taken so at once (LoopDetector.didNotRun). Every other call of the batch had its
 * own event already, and is left alone (LoopDetector.didNotRun changes nothing for a call no longer waiting).
 * Which texts are a decline: src/formats/claude-code-declined.ts (Claude Code's known wordings only).
 */
import type { LiveCall } from '../live/live-call.js';
import { declinedEntries } from '../formats/claude-code-declined.js';
import { MAX_CALL_ID_LENGTH } from '../live/live-call.js';
import { MAX_TOOL_LENGTH, capText } from './hook-payload.js';

/**
 * The calls of a PostToolBatch payload the person declined (see the header), each as the hook's other
 * events give it (`input` reads its arguments, capped, as PreToolUse's are read), its `result` Claude Code's
 * text (capped: the decision log writes it, so that `scan` of the log knows the call as declined too);
 * malformed entries are passed over.
 */
export function declinedInBatch(p: Readonly<Record<string, unknown>>, input: (entry: Readonly<Record<string, unknown>>, tool: string) => unknown): LiveCall[] {
  const declined: LiveCall[] = [];
  for (const { entry: c, text } of declinedEntries(p.tool_calls)) {
    const tool = c.tool_name;
    const id = c.tool_use_id;
    if (typeof tool !== 'string' || tool === '' || tool.length > MAX_TOOL_LENGTH) continue;
    if (typeof id !== 'string' || id === '' || id.length > MAX_CALL_ID_LENGTH) continue;
    declined.push({ tool, args: input(c, tool), id, result: capText(text) });
  }
  return declined;
}
