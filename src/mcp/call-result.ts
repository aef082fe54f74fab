/**
 * MCP `tools/call` results as the proxy reads and writes them: the outcome recorded for loop checks (the
 * result's text, capped), a warning added as one more text item, and the proxy's own error result for a
 * call it did not forward.
 */
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';
import { jsonSafe } from '../text/terminal-text.js';
import { isObject } from './json-rpc.js';
import { jsonText } from './json-text.js';

/** Characters kept from each end of a result's text when it is longer than twice this. */
export const RESULT_END_CHARS = 32_768;

/** What a forwarded call came back with, for LiveGuard.record: `result` or `error`, as text. */
export type CallOutcome = { readonly result: string } | { readonly error: string };

/**
 * The text of `s` within 2 x RESULT_END_CHARS characters: its head and tail, and its length between them
 * (so two long texts that differ only in the middle differ in length, or are taken as the same).
 */
export function capText(s: string): string {
  if (s.length <= 2 * RESULT_END_CHARS) return s;
  return `${s.slice(0, RESULT_END_CHARS)}\n[... ${s.length} characters in all ...]\n${s.slice(-RESULT_END_CHARS)}`;
}

/**
 * A server's value as text for the outcome: a string as it is, another primitive as `String` writes it, an
 * object or array as JSON. `String` alone throws for an object whose JSON gives it a `toString` that is not
 * a function (`{"toString": 1}`): before, such an error `code` or resource `uri` threw in the proxy, which
 * spent its one internal-error line, recorded no outcome and dropped the call's warning for the model.
 */
function valueText(v: unknown): string {
  return typeof v === 'object' && v !== null ? (jsonText(v) ?? '') : String(v);
}

/** A short stand-in for binary data: its length and last characters. */
function dataTag(kind: string, mime: unknown, data: unknown): string {
  const d = typeof data === 'string' ? data : '';
  return `[${kind}${typeof mime === 'string' ? ` ${mime}` : ''}, ${d.length} characters ...${d.slice(-24)}]`;
}

/** The text of one content item of a tool result. */
function itemText(item: unknown): string {
  if (!isObject(item)) return jsonText(item) ?? '';
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return dataTag(item.type, item.mimeType, item.data);
    case 'resource': {
      const r = isObject(item.resource) ? item.resource : {};
      return typeof r.text === 'string' ? r.text : dataTag(`resource ${valueText(r.uri)}`, r.mimeType, r.blob);
    }
    case 'resource_link':
      return `[resource_link ${valueText(item.uri)}]`;
    default:
      return jsonText(item) ?? '';
  }
}

/** The text of a result's content (its structured content when it has no content), capped. */
export function resultText(result: Record<string, unknown>): string {
  const text = Array.isArray(result.content) ? result.content.map(itemText).join('\n') : '';
  if (text === '' && result.structuredContent !== undefined) return capText(jsonText(result.structuredContent) ?? '');
  return capText(text);
}

/** The outcome of a response to a forwarded call: a JSON-RPC error or an `isError` result is an error. */
export function callOutcome(response: Record<string, unknown>): CallOutcome {
  if ('error' in response) {
    const e = isObject(response.error) ? response.error : {};
    const message = typeof e.message === 'string' ? e.message : jsonText(response.error) ?? 'error';
    return { error: capText(`JSON-RPC error ${valueText(e.code)}: ${message}`) };
  }
  const r = isObject(response.result) ? response.result : {};
  const text = resultText(r);
  return r.isError === true ? { error: text === '' ? 'tool error' : text } : { result: text };
}

/**
 * Whether a response is a task's handle (MCP 2025-11-25 task-augmented calls: `{task: {...}}`, the result
 * comes later through tasks/result): not the call's outcome, so it is not recorded as one.
 */
export function isTaskHandle(response: Record<string, unknown>): boolean {
  const r = response.result;
  return isObject(r) && isObject(r.task) && !Array.isArray(r.content);
}

/**
 * Adds `notes` to a response's result as text items at the end of its content. False (nothing changed)
 * when the response has no result content to add to (a JSON-RPC error, or a malformed result).
 */
export function appendNotes(response: Record<string, unknown>, notes: readonly string[]): boolean {
  const r = response.result;
  if (!isObject(r) || !Array.isArray(r.content)) return false;
  for (const text of notes) r.content.push({ type: 'text', text });
  return true;
}

/** Characters of a server's error `message` that is not a string kept when the proxy writes it as text (its JSON). */
export const ODD_MESSAGE_CHARS = 1000;

/**
 * Adds `notes` to a JSON-RPC error response's `message`, after it. A `message` that is not a string (a
 * number, an object, `null`, none: JSON-RPC wants a string, and the MCP SDK's Client refuses such an
 * error whole) becomes one: a line saying so with the server's value as JSON (cut to
 * {@link ODD_MESSAGE_CHARS}, redacted, its C1 and bidirectional controls as escapes: loopwatch writes
 * it), then the notes. Before, the notes were dropped for such an error: the model was never warned
 * before the call was refused, though stderr said `warn`. False when the response has no error object.
 */
export function appendErrorNotes(response: Record<string, unknown>, notes: readonly string[]): boolean {
  const e = response.error;
  if (!isObject(e)) return false;
  const m = e.message;
  if (typeof m === 'string') {
    e.message = `${m}\n${notes.join('\n')}`;
    return true;
  }
  const json = m === undefined ? 'none' : jsonSafe(redactSecrets(cutText(jsonText(m) ?? '', ODD_MESSAGE_CHARS)));
  e.message = `[loopwatch: the server's error message is not a string; as JSON: ${json}]\n${notes.join('\n')}`;
  return true;
}

/** The result the proxy answers a call it did not forward with: `text` for the model, as a tool error. */
export function refusal(text: string): Record<string, unknown> {
  return { content: [{ type: 'text', text }], isError: true };
}
