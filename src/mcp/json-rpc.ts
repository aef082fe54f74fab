/**
 * JSON-RPC 2.0 messages as MCP sends them over stdio: requests (a method and an id), notifications (a
 * method, no id), responses (an id and a result or an error). Only what the proxy reads is typed; the rest
 * of a message is kept as it came.
 */
import { exactJson } from './exact-ids.js';

/** A JSON-RPC id: a string or a number (null only in an error about a message without a readable id). */
export type JsonRpcId = string | number;

/** A parsed JSON-RPC message (an object; any other JSON value is not a message the proxy reads). */
export type JsonRpcMessage = Record<string, unknown>;

/** Whether `v` is a plain object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `v` is a usable JSON-RPC id. */
export function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** The message's id when it is a request (method and id), else undefined. */
export function requestId(m: JsonRpcMessage): JsonRpcId | undefined {
  return typeof m.method === 'string' && isId(m.id) ? m.id : undefined;
}

/** The message's id when it is a response (id, and result or error, no method), else undefined. */
export function responseId(m: JsonRpcMessage): JsonRpcId | undefined {
  return m.method === undefined && isId(m.id) && ('result' in m || 'error' in m) ? m.id : undefined;
}

/** A key for an id that keeps 1 and "1" apart (JSON-RPC does). */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** The params of a message, when they are an object. */
export function paramsOf(m: JsonRpcMessage): Record<string, unknown> | undefined {
  return isObject(m.params) ? m.params : undefined;
}

/** A response carrying `result` for request `id`. */
export function resultMessage(id: JsonRpcId, result: Record<string, unknown>): JsonRpcMessage {
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
