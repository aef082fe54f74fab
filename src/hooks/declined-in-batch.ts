/**
 * The calls of Claude Code's PostToolBatch (src/formats/post-tool-batch.ts): every call of a model turn's
 * batch, after all of them resolved. Those still waiting for their outcome did not run (a person or an Agent
 * SDK program declined them, another hook or a rule denied them: no PostToolUse or PostToolUseFailure came)
 * and are taken so at once (LoopDetector.didNotRun, which changes nothing for a call that had its outcome).
 */
import type { LiveCall } from '../live/live-call.js';
import { batchEntries } from '../formats/post-tool-batch.js';
import { MAX_CALL_ID_LENGTH } from '../live/live-call.js';
import { MAX_TOOL_LENGTH, capText } from './hook-payload.js';

/**
 * The calls of a PostToolBatch payload (see the header), each as the hook's other events give it (`input`
 * reads its arguments, capped, as PreToolUse's are read), its `result` the text the model read (capped: the
 * decision log writes it for a call that did not run, so that `scan` of the log knows it too); malformed
 * entries are passed over.
 */
export function declinedInBatch(p: Readonly<Record<string, unknown>>, input: (entry: Readonly<Record<string, unknown>>, tool: string) => unknown): LiveCall[] {
  const calls: LiveCall[] = [];
  for (const { entry: c, text } of batchEntries(p.tool_calls)) {
    const tool = c.tool_name;
    const id = c.tool_use_id;
    if (typeof tool !== 'string' || tool === '' || tool.length > MAX_TOOL_LENGTH) continue;
    if (typeof id !== 'string' || id === '' || id.length > MAX_CALL_ID_LENGTH) continue;
    calls.push({ tool, args: input(c, tool), id, ...(text === undefined ? {} : { result: capText(text) }) });
  }
  return calls;
}
