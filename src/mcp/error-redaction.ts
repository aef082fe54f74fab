/**
 * Secrets out of a server's error answers to tool calls, before the client (and so the model) reads them.
 * A server that echoes its own credentials in an error (`401 for https://api.x/v1?key=sk-...`, an
 * exception's text with an `Authorization` header) would otherwise hand them to the model through the
 * proxy; loopwatch redacts its own text the same way (text/redact.ts).
 *
 * What is touched, and why no more:
 * - a JSON-RPC error answering a `tools/call`: its `message` and every string in its `data`;
 * - an `isError` result (how the MCP SDKs answer a tool that threw): the text of its `text` items and every
 *   string in its `structuredContent`.
 * A successful result is the tool's work and passes unchanged, the same bytes: a file read through a tool
 * holds what the model may write back, and `[REDACTED]` in it would be written into the user's file.
 * Answers the proxy does not pair with a call in flight (no call in flight, a call forgotten past the
 * in-flight cap, a task's later `tasks/result`) pass unread, as everything else the proxy does not read.
 */
import { redactSecrets } from '../text/redact.js';
import { isObject } from './json-rpc.js';

/**
 * Redacts every string inside `value` (an object or array, changed in place), walked without recursion
 * (a server's nesting is not the proxy's stack); true when one changed. The proxy reads only lines of
 * at most MAX_JSON_VALUES values (json-value-count.ts), so the walk is bounded.
 */
function redactStringsIn(value: Record<string, unknown> | unknown[]): boolean {
  let changed = false;
  const stack: (Record<string, unknown> | unknown[])[] = [value];
  while (stack.length > 0) {
    const holder = stack.pop() as Record<string, unknown> | unknown[];
    const keys: (string | number)[] = Array.isArray(holder) ? holder.map((_, i) => i) : Object.keys(holder);
    for (const k of keys) {
      const v = (holder as Record<string | number, unknown>)[k];
      if (typeof v === 'string') {
        const r = redactSecrets(v);
        if (r !== v) {
          (holder as Record<string | number, unknown>)[k] = r;
          changed = true;
        }
      } else if (Array.isArray(v) || isObject(v)) stack.push(v);
    }
  }
  return changed;
}

/** `holder[key]` redacted when it is a string, or every string in it when it is an object or array; true when one changed. */
function redactField(holder: Record<string, unknown>, key: string): boolean {
  const v = holder[key];
  if (typeof v === 'string') {
    const r = redactSecrets(v);
    if (r === v) return false;
    holder[key] = r;
    return true;
  }
  return Array.isArray(v) || isObject(v) ? redactStringsIn(v) : false;
}

/**
 * Redacts the secrets of a server's answer to a tool call when it is an error (a JSON-RPC error, or a
 * result with `isError: true`), in place; true when something changed (the answer must then be written
 * again). A successful result is left as it came.
 */
export function redactErrorAnswer(response: Record<string, unknown>): boolean {
  const e = response.error;
  if (isObject(e)) {
    const message = redactField(e, 'message');
    const data = redactField(e, 'data');
    return message || data;
  }
  const r = response.result;
  if (!isObject(r) || r.isError !== true) return false;
  let changed = false;
  if (Array.isArray(r.content)) for (const item of r.content) if (isObject(item) && item.type === 'text') changed = redactField(item, 'text') || changed;
  if (r.structuredContent !== undefined) changed = redactField(r, 'structuredContent') || changed;
  return changed;
}
