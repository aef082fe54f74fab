/**
 * Claude Code's `tool_result` for a call the person declined at its own prompt, as the model reads it (and
 * as PostToolBatch's `tool_response` gives it): the hook (src/hooks/declined-in-batch.ts) and the hook
 * payload log reader (hook-payloads.ts) take such a call as not run, so both read it here.
 *
 * Only Claude Code's known wordings count, each from its first character, in full up to where the person's
 * feedback (if any) begins (every one of the eight sets' 291 declined results given as a string is one of these):
 *
 * | wording | since |
 * |---|---|
 * | `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.` | declined without feedback |
 * | the same first two sentences, then `To tell you how to proceed, the user said:` and the feedback | declined with feedback (2.x) |
 * | the same first two sentences, then `The user provided the following reason for the rejection:` and the feedback | declined with feedback (1.x) |
 * | `The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.` | older versions |
 *
 * The failure mode is the safe one: a wording Claude Code changes is not recognised, so its call is left as
 * it was before PostToolBatch was read (in flight until overdue, or a call without outcome in `scan`); and a
 * result that merely begins with the first sentence (an `echo`, a file holding it) is no decline. Callers take
 * as not run only a call still waiting for its outcome: a call that ran has had its PostToolUse by then.
 */
import { contentText, isRecord } from './json-value.js';

/** Calls of one PostToolBatch read, at most (a model turn's parallel calls; more are passed over). */
export const MAX_BATCH_CALLS = 256;

/** The first two sentences of every current wording (with a space after). */
const PROCEED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). ";
/** How a decline without feedback ends. */
const STOP = 'STOP what you are doing and wait for the user to tell you how to proceed.';
/** What may follow {@link PROCEED}: the end without feedback, or where the feedback begins (2.x, 1.x). */
const AFTER_PROCEED: readonly string[] = [STOP, 'To tell you how to proceed, the user said:', 'The user provided the following reason for the rejection:'];
/** The older versions' whole text. */
const OLDER = `The user doesn't want to take this action right now. ${STOP}`;

/** Whether `text` is one of Claude Code's known texts for a call the person declined (see the header). */
export function isDeclinedText(text: string): boolean {
  if (text.startsWith(OLDER)) return true;
  return text.startsWith(PROCEED) && AFTER_PROCEED.some((w) => text.startsWith(w, PROCEED.length));
}

/** Whether a `tool_result` content (a string, or text blocks) is Claude Code's text for a declined call. */
export function isDeclinedResult(response: unknown): boolean {
  const text = contentText(response);
  return typeof text === 'string' && isDeclinedText(text);
}

/** An entry of a PostToolBatch's `tool_calls` the person declined, with Claude Code's text for it. */
export interface DeclinedEntry {
  readonly entry: Readonly<Record<string, unknown>>;
  readonly text: string;
}

/**
 * The entries of a PostToolBatch's `tool_calls` (the first {@link MAX_BATCH_CALLS}) whose `tool_response` is
 * Claude Code's text for a declined call: what the hook (src/hooks/declined-in-batch.ts) and the hook payload
 * log reader (hook-payloads.ts) both take as not run. Anything but an array gives none.
 */
export function declinedEntries(toolCalls: unknown): DeclinedEntry[] {
  if (!Array.isArray(toolCalls)) return [];
  const declined: DeclinedEntry[] = [];
  for (const entry of toolCalls.slice(0, MAX_BATCH_CALLS)) {
    if (!isRecord(entry)) continue;
    const text = contentText(entry.tool_response);
    if (typeof text === 'string' && isDeclinedText(text)) declined.push({ entry, text });
  }
  return declined;
}
