/**
 * JSON-RPC 2.0 messages as MCP sends them over stdio: requests (a method and an id), notifications (a
 * method, no id), responses (an id and a result or an error). Only what the proxy reads is typed; the rest
 * of a message is kept as it came.
 */
import { exactJson } from './exact-ids.js';

/**
 * A JSON-RPC id of the proxy's own making: a string or a number. A client's id is taken as it came
 * (`unknown`: JSON-RPC allows strings, numbers and null, and a client may send anything; id-table.ts).
 */
export type JsonRpcId = string | number;

/** A parsed JSON-RPC message (an object; any other JSON value is not a message the proxy reads). */
export type JsonRpcMessage = Record<string, unknown>;

/** Whether `v` is a plain object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The message's id when it is a request (a method and an id member, whatever its value: an object, `null`
 * or `1e400` too, so that no `tools/call` passes unchecked for its id), else undefined.
 */
export function requestId(m: JsonRpcMessage): unknown {
  return typeof m.method === 'string' ? m.id : undefined;
}

/** The message's id when it is a response (an id member, and result or error, no method), else undefined. */
export function responseId(m: JsonRpcMessage): unknown {
  return m.method === undefined && ('result' in m || 'error' in m) ? m.id : undefined;
}

/** The params of a message, when they are an object. */
export function paramsOf(m: JsonRpcMessage): Record<string, unknown> | undefined {
  return isObject(m.params) ? m.params : undefined;
}

/** A response carrying `result` for request `id`. */
export function resultMessage(id: unknown, result: Record<string, unknown>): JsonRpcMessage {
  return { jsonrpc: '2.0', id, result };
}

/** A request of the proxy's own. */
export function requestMessage(id: JsonRpcId, method: string, params: Record<string, unknown>): JsonRpcMessage {
  return { jsonrpc: '2.0', id, method, params };
}

/** A notification of the proxy's own. */
export function notificationMessage(method: string, params: Record<string, unknown>): JsonRpcMessage {
  return { jsonrpc: '2.0', method, params };
}

/** One line of the stdio framing: the message's JSON and a newline (ids as they came: exact-ids.ts). */
export function frame(m: JsonRpcMessage | readonly JsonRpcMessage[]): Buffer {
  return Buffer.from(`${exactJson(m)}\n`, 'utf8');
}
