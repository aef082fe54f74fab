/**
 * Claude Code's PostToolBatch (code.claude.com/docs/en/hooks; Agent SDK 0.3.337 `PostToolBatchHookInput`):
 * fired once after every call of a model turn's batch has resolved, before the next model request, with
 * `tool_calls: [{tool_name, tool_input, tool_use_id, tool_response?}]`, `tool_response` the `tool_result`
 * content the model reads. A call of the batch that ran has had its PostToolUse or PostToolUseFailure by
 * then (Claude Code runs a call's after-hooks before the call resolves); one that did not run has none: a
 * person declined it at Claude Code's prompt (with feedback the turn goes on), an Agent SDK program declined
 * it in `canUseTool` (its own message as the result: no wording of Claude Code's to recognise), another hook
 * or a rule denied it. So every call the batch names that still waits for its outcome did not run: the hook
 * (src/hooks/declined-in-batch.ts) and the hook payload log reader (hook-payloads.ts) take it so at once,
 * whatever its text (`LoopDetector.didNotRun` and `HeldCalls.forget` change nothing for a call that had its
 * outcome).
 *
 * Before newuser7 only a result in one of Claude Code's own decline wordings counted: an SDK program's
 * decline (and any wording Claude Code changes to) left its call waiting until overdue.
 */
import { contentText, isRecord } from './json-value.js';

/** Calls of one PostToolBatch read, at most (a model turn's parallel calls; more are passed over). */
export const MAX_BATCH_CALLS = 256;

/** An entry of a PostToolBatch's `tool_calls`, with the text of its result when it has one. */
export interface BatchEntry {
  readonly entry: Readonly<Record<string, unknown>>;
  readonly text: string | undefined;
}

/**
 * The entries of a PostToolBatch's `tool_calls` (objects, the first {@link MAX_BATCH_CALLS}): the calls the
 * hook and the hook payload log reader take as not run when they still wait for their outcome. Anything
 * but an array gives none.
 */
export function batchEntries(toolCalls: unknown): BatchEntry[] {
  if (!Array.isArray(toolCalls)) return [];
  const entries: BatchEntry[] = [];
  for (const entry of toolCalls.slice(0, MAX_BATCH_CALLS)) {
    if (!isRecord(entry)) continue;
    const text = contentText(entry.tool_response);
    entries.push({ entry, text: typeof text === 'string' ? text : undefined });
  }
  return entries;
}
