/**
 * `ask` through MCP elicitation: a call loopwatch wants a human to approve is held, and the proxy asks the
 * client's user with an `elicitation/create` request of its own (form mode, no fields: accept runs the
 * call, decline or cancel refuses it). Only for clients that declared form elicitation in `initialize`
 * (spec 2025-06-18 and later); other clients get the ask as a warning. Ids of the proxy's requests start
 * with a prefix of their own, so the client's answers are told apart from answers to the server's requests.
 *
 * ```
 *  client ──tools/call #7──> proxy (held)        proxy ──elicitation/create "loopwatch-ask-…-1"──> client
 *  client ──answer "loopwatch-ask-…-1" {action}──> proxy ──accept──> tools/call #7 ──> server
 *                                                        └─decline/cancel──> refusal for #7 ──> client
 *  client ──notifications/cancelled #7──> proxy: held call dropped, the elicitation cancelled too
 * ```
 */
import { randomBytes } from 'node:crypto';
import { IdTable, idKey } from './id-table.js';
import { type JsonRpcMessage, isObject, notificationMessage, requestMessage } from './json-rpc.js';
import { SHOWN_TOOL_LENGTH } from '../text/call-preview.js';
import { shownMessage } from '../text/shown-message.js';

/** Calls held for a human's answer at most; an ask beyond it is shown as a warning instead. */
export const MAX_HELD_ASKS = 64;
/** What the calls held may weigh in all (as calls in flight weigh: tool-call-gate.ts); past it an ask is a warning. */
export const MAX_HELD_ASK_BYTES = 64 * 1024 * 1024;

/** A call held until the user answers. */
export interface HeldCall {
  /** The client's request id of the call (as parsed, whatever its type). */
  readonly id: unknown;
  /** The id as the client wrote it, when a double does not hold it (exact-ids.ts). */
  readonly idText?: string | undefined;
  /** The call's request: its raw line when it came alone, else the parsed message. */
  readonly request: Buffer | JsonRpcMessage;
  readonly tool: string;
  readonly args: unknown;
  /** loopwatch's message (why it asks). */
  readonly message: string;
  /** What it weighs in MAX_HELD_ASK_BYTES. */
  readonly bytes: number;
}

/** How the user answered: `accept`, `refuse` (decline or cancel), or `unanswered` (the client failed). */
export type AskAnswer = 'accept' | 'refuse' | 'unanswered';

/** Whether a client's `initialize` capabilities include form-mode elicitation (`{}` means form). */
export function supportsFormElicitation(capabilities: unknown): boolean {
  if (!isObject(capabilities) || !isObject(capabilities.elicitation)) return false;
  const e = capabilities.elicitation;
  return Object.keys(e).length === 0 || isObject(e.form);
}

/** The calls waiting for a human, by the proxy's request id and by the call's id. */
export class HeldAsks {
  private readonly prefix = `loopwatch-ask-${randomBytes(6).toString('hex')}-`;
  private next = 1;
  private readonly byAsk = new Map<string, HeldCall>();
  private readonly byCall = new IdTable<string>();
  /** What the calls held weigh, in all. */
  private bytes = 0;

  /** Whether another call weighing `bytes` can be held (at most MAX_HELD_ASKS, MAX_HELD_ASK_BYTES in all). */
  hasRoom(bytes: number): boolean {
    return this.byAsk.size < MAX_HELD_ASKS && this.bytes + bytes <= MAX_HELD_ASK_BYTES;
  }

  /** Holds `call` and returns the elicitation request to send to the client. */
  hold(call: HeldCall): JsonRpcMessage {
    const askId = `${this.prefix}${this.next++}`;
    this.byAsk.set(askId, call);
    this.bytes += call.bytes;
    this.byCall.set(call.id, call.idText, askId);
    // the tool's name as the loop message writes it (cut, redacted, escaped): the client shows this to a person,
    // and the name is the server's own (its tools/list), which may hold ESC sequences, bidi controls, a secret
    const params = { message: `${call.message}\n\nRun the tool call "${shownMessage(call.tool, SHOWN_TOOL_LENGTH)}" anyway?`, requestedSchema: { type: 'object', properties: {} } };
    return requestMessage(askId, 'elicitation/create', params);
  }

  /** The held call a client's response answers, taken out, with the answer; undefined when it is not one of ours. */
  answer(response: JsonRpcMessage): { call: HeldCall; answer: AskAnswer } | undefined {
    const askId = response.id;
    if (typeof askId !== 'string' || !askId.startsWith(this.prefix)) return undefined;
    const call = this.byAsk.get(askId);
    if (call === undefined) return undefined;
    this.byAsk.delete(askId);
    this.byCall.delete(idKey(call.id, call.idText) ?? '');
    this.bytes -= call.bytes;
    const action = isObject(response.result) ? response.result.action : undefined;
    return { call, answer: action === 'accept' ? 'accept' : action === 'decline' || action === 'cancel' ? 'refuse' : 'unanswered' };
  }

  /**
   * An MCP `ping` request of the proxy's own for the client (an id of its own, so the client's answer is
   * dropped as one to an ask no longer held: it never reaches the server).
   */
  ping(): JsonRpcMessage {
    return { jsonrpc: '2.0', id: `${this.prefix}ping-${this.next++}`, method: 'ping' };
  }

  /** Whether a response's id is one of the proxy's (answered or not): never forwarded to the server. */
  isOurs(id: unknown): boolean {
    return typeof id === 'string' && id.startsWith(this.prefix);
  }

  /** Drops the held call with client id `id` (the client cancelled it): the cancellation to send for its elicitation, if any. */
  cancel(id: unknown, reason: string): JsonRpcMessage | undefined {
    const key = this.byCall.find(id);
    const askId = key === undefined ? undefined : this.byCall.delete(key);
    if (askId === undefined) return undefined;
    this.bytes -= this.byAsk.get(askId)?.bytes ?? 0;
    this.byAsk.delete(askId);
    return notificationMessage('notifications/cancelled', { requestId: askId, reason });
  }
}
