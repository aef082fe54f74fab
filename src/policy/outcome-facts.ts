/**
 * The facts of a call's outcome the evidence screen weighs (see call-facts.ts), read once from the event
 * when the call is recorded: by the host, for both engines. Each recogniser reads a short text only (its
 * own cap), so a call with a long result costs a length check.
 */
import { errorText } from '../session/observe-event.js';
import { ACK_LOOK, isAcknowledgement } from '../text/acknowledgement.js';
import type { ToolEvent } from '../types.js';
import { RawJsonString } from '../wasm/raw-json-string.js';
import { CallFact } from './call-facts.js';

/**
 * A result as text when it may be `limit` characters or fewer: a string, or a JSON string literal still in
 * its bytes (decoded only when it can be that short: at least one UTF-16 unit per 6 bytes); else undefined.
 */
export function shortText(result: unknown, limit: number): string | undefined {
  if (typeof result === 'string') return result.length <= limit ? result : undefined;
  if (!RawJsonString.is(result) || result.content.length > 6 * limit) return undefined;
  const text = result.value();
  return text.length <= limit ? text : undefined;
}

/** The CallFact bits of a recorded call's outcome. */
export function outcomeFacts(e: ToolEvent): number {
  let bits = 0;
  if (errorText(e.error) === undefined) {
    const text = shortText(e.result, ACK_LOOK);
    if (text !== undefined && isAcknowledgement(text)) bits |= CallFact.ACK;
  }
  return bits;
}
