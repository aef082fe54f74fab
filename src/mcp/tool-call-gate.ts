/**
 * What the MCP proxy does with each message: only `tools/call` requests from the client are touched.
 *
 * ```
 *  client ──tools/call──> propose ──allow──────────> forwarded; in flight until its response
 *                                 ├─warn───────────> forwarded; the message added to its result
 *                                 ├─ask────────────> held, the user asked (elicitation), or as warn
 *                                 └─deny / stop────> answered here: {content: [message], isError: true}
 *  server ──response to a call in flight──> record (result text, or error) ──> forwarded (+ messages;
 *                                           an error's secrets redacted, error-redaction.ts)
 *  client ──notifications/cancelled──> the call leaves the in-flight table (the core records it without
 *                                      outcome later); a held call is dropped
 *  anything else ──> forwarded unchanged
 * ```
 */
import { type HostReach, hostMessage } from '../live/host-message.js';
import type { LiveDecision } from '../live/live-call.js';
import { MAX_CALL_ID_LENGTH } from '../live/live-call.js';
import type { LiveGuard } from '../engine/live-guard.js';
import { CONSEQUENCE } from '../policy/message.js';
import { countJsonValues } from '../formats/json-value-count.js';
import { HeldAsks, supportsFormElicitation } from './ask-elicitation.js';
import { idTextOf, keepIdText, withIdOf } from './exact-ids.js';
import { appendErrorNotes, appendNotes, callOutcome, isTaskHandle, refusal } from './call-result.js';
import { redactErrorAnswer } from './error-redaction.js';
import { IdTable, idKey } from './id-table.js';
import { type JsonRpcMessage, paramsOf, requestId, responseId, resultMessage } from './json-rpc.js';
import { jsonText } from './json-text.js';

/** Calls in flight (forwarded, response not back) remembered at most; the oldest is forgotten first (not recorded). */
export const MAX_IN_FLIGHT = 4096;

/**
 * What the calls in flight may hold of their args, in weighed bytes (a call's line, plus IN_FLIGHT_VALUE_BYTES
 * per JSON value in it: tiny values parsed take many times their text); past it the oldest are forgotten
 * first (not recorded), the newest always kept. Before, 400 calls of 1 MB args whose server did not
 * answer held 414 MB, and 4,096 calls of up to 64 MiB lines could be held.
 */
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;
/** Bytes a JSON value of a call's line weighs in MAX_IN_FLIGHT_BYTES, besides its text. */
export const IN_FLIGHT_VALUE_BYTES = 32;

/** Added to a `stop` message: an MCP server cannot end the client's run, so the model is told to. */
export const STOP_ADVICE = ' Do not call any more tools for this task: tell the user what you tried and where you are stuck.';

/** A proxy cannot end the client's run: a stop blocks the call and the model is told to stop (STOP_ADVICE). */
const MCP_REACH: HostReach = Object.freeze({ stop: 'call', asks: false });

/** What a client message gives: whether it goes on to the server, and what the proxy sends of its own. */
export interface ClientStep {
  /** Forward the message to the server unchanged. */
  forward: boolean;
  /** For the client: the proxy's answers to calls it did not forward, its elicitation requests and cancellations. */
  readonly toClient: JsonRpcMessage[];
  /** Held calls that may run now, for the server. */
  readonly toServer: (Buffer | JsonRpcMessage)[];
}

/** One line about a decision that was not `allow`, for the proxy's log (`id`: the call's id as shown, a string id bare, any other as JSON). */
export type DecisionListener = (tool: string, id: string, d: LiveDecision) => void;

interface InFlight {
  /** What it weighs in MAX_IN_FLIGHT_BYTES. */
  readonly bytes: number;
  readonly callId: string | undefined;
  /** Its id as the proxy's log shows it. */
  readonly shownId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly notes: string[];
}

/** The message of an ask shown as a warning (no human is asked, so the message does not say one is). */
function askAsWarning(message: string): string {
  return message.endsWith(CONSEQUENCE.ask) ? message.slice(0, -CONSEQUENCE.ask.length) : message;
}

/** The proxy's per-connection state: calls in flight, calls held for a human. */
export class ToolCallGate {
  private readonly inFlight = new IdTable<InFlight>();
  /** What the calls in flight weigh, in all. */
  private inFlightBytes = 0;
  private readonly asks = new HeldAsks();
  private elicit = false;

  constructor(
    private readonly guard: LiveGuard,
    private readonly session: string,
    private readonly onDecision: DecisionListener = () => undefined,
  ) {}

  /**
   * Handles a message from the client (`raw`: its line, when it came alone; `text`: its JSON text, which a
   * call weighs while in flight).
   */
  fromClient(m: JsonRpcMessage, raw?: Buffer, text: Buffer | undefined = raw): ClientStep {
    const step: ClientStep = { forward: true, toClient: [], toServer: [] };
    const id = requestId(m);
    if (m.method === 'initialize') this.elicit = supportsFormElicitation(paramsOf(m)?.capabilities);
    else if (m.method === 'tools/call' && id !== undefined) this.propose(m, id, raw, step, text);
    else if (m.method === 'notifications/cancelled') this.cancelled(m, step);
    else if (m.method === undefined && this.asks.isOurs(m.id)) this.answered(m, step);
    return step;
  }

  /** Handles a message from the server: true when it was changed (messages added to a call's result, an error's secrets redacted). */
  fromServer(m: JsonRpcMessage): boolean {
    const id = responseId(m);
    const key = id === undefined ? undefined : this.inFlight.find(id, idTextOf(m));
    const call = key === undefined ? undefined : this.forget(key);
    if (call === undefined) return false;
    // a task's handle is not an outcome: the call is left to the core, which records it without one
    if (isTaskHandle(m)) return false;
    const outcome = callOutcome(m);
    const d = this.guard.record(this.session, { tool: call.tool, args: call.args, ...(call.callId === undefined ? {} : { id: call.callId }), ...outcome });
    if (d.action === 'warn' && d.message !== undefined && !call.notes.includes(d.message)) {
      call.notes.push(d.message);
      this.onDecision(call.tool, call.shownId, d);
    }
    // recorded as it came (detection unmoved); an error's secrets are redacted before the client reads it
    const redacted = redactErrorAnswer(m);
    if (call.notes.length === 0) return redacted;
    return appendNotes(m, call.notes) || appendErrorNotes(m, call.notes) || redacted;
  }

  /** A `ping` request of the proxy's own for the client; its answer is dropped (see HeldAsks.ping). */
  ping(): JsonRpcMessage {
    return this.asks.ping();
  }

  /** Calls forwarded whose response has not come back. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private propose(m: JsonRpcMessage, id: unknown, raw: Buffer | undefined, step: ClientStep, json: Buffer | undefined): void {
    const params = paramsOf(m);
    const tool = params?.name;
    if (typeof tool !== 'string' || tool === '') return; // not a call loopwatch can read: the server answers it
    const args = params?.arguments;
    const idText = idTextOf(m);
    const callId = callIdOf(id, idText);
    const shownId = typeof id === 'string' ? id : (idText ?? jsonText(id) ?? '');
    const d = this.guard.propose(this.session, { tool, args, ...(callId === undefined ? {} : { id: callId }) });
    if (d.action !== 'allow') this.onDecision(tool, shownId, d);
    const message = d.message ?? '';
    if (d.action === 'deny' || d.action === 'stop') {
      step.toClient.push(withIdOf(resultMessage(id, refusal(d.action === 'stop' ? (hostMessage(d, MCP_REACH) ?? '') + STOP_ADVICE : message)), m));
      step.forward = false;
      return;
    }
    const bytes = weigh(json);
    if (d.action === 'ask' && this.elicit && this.asks.hasRoom(bytes)) {
      step.toClient.push(this.asks.hold({ id, idText, request: raw ?? m, tool, args, message, bytes }));
      step.forward = false;
      return;
    }
    this.track(id, idText, { bytes, callId, shownId, tool, args, notes: d.action === 'allow' ? [] : [d.action === 'ask' ? askAsWarning(message) : message] });
  }

  private track(id: unknown, idText: string | undefined, call: InFlight): void {
    this.forget(idKey(id, idText) ?? '');
    this.inFlight.set(id, idText, call);
    this.inFlightBytes += call.bytes;
    // the oldest go first; the newest is kept whatever it weighs
    while (this.inFlight.size > 1 && (this.inFlight.size > MAX_IN_FLIGHT || this.inFlightBytes > MAX_IN_FLIGHT_BYTES)) this.forget(this.inFlight.oldest() as string);
  }

  /** Takes the call of `key` out of the calls in flight. */
  private forget(key: string): InFlight | undefined {
    const call = this.inFlight.delete(key);
    if (call !== undefined) this.inFlightBytes -= call.bytes;
    return call;
  }

  private cancelled(m: JsonRpcMessage, step: ClientStep): void {
    const id = paramsOf(m)?.requestId;
    if (id === undefined) return;
    const key = this.inFlight.find(id);
    if (key !== undefined) this.forget(key);
    const cancel = this.asks.cancel(id, 'the client cancelled the tool call');
    if (cancel === undefined) return;
    // the server never saw the held call: the cancellation is for the proxy's elicitation only
    step.toClient.push(cancel);
    step.forward = false;
  }

  private answered(m: JsonRpcMessage, step: ClientStep): void {
    step.forward = false;
    const got = this.asks.answer(m);
    if (got === undefined) return; // an answer to an ask already dropped
    const { call, answer } = got;
    if (answer === 'refuse') {
      const answer = resultMessage(call.id, refusal(`${call.message} The user declined: this call did not run.`));
      keepIdText(answer, call.idText);
      step.toClient.push(answer);
      return;
    }
    const callId = callIdOf(call.id, call.idText);
    const shownId = typeof call.id === 'string' ? call.id : (call.idText ?? jsonText(call.id) ?? '');
    const note = answer === 'accept' ? `${call.message} The user let this call run.` : askAsWarning(call.message);
    this.track(call.id, call.idText, { bytes: call.bytes, callId, shownId, tool: call.tool, args: call.args, notes: [note] });
    step.toServer.push(call.request);
  }
}

/**
 * The call id a JSON-RPC id gives the core: a string id, or a number's digits as written (`idText`, past
 * 2^53), when the core takes it (1 to MAX_CALL_ID_LENGTH characters). Else none, and the call is checked
 * without one: an id `""` (before: refused by the core, so the call passed unchecked, reported as an
 * internal error), an object, an array, `null` or `true`.
 */
function callIdOf(id: unknown, idText: string | undefined): string | undefined {
  const text = typeof id === 'string' ? id : typeof id === 'number' ? (idText ?? String(id)) : '';
  return text !== '' && text.length <= MAX_CALL_ID_LENGTH ? text : undefined;
}

/** What a call whose JSON text is `text` weighs in flight (see MAX_IN_FLIGHT_BYTES); a call without its text, its args' JSON. */
function weigh(text: Buffer | undefined): number {
  if (text === undefined) return 0;
  const json = text.toString('latin1'); // the counted bytes are ASCII: any decoding finds them
  return text.length + IN_FLIGHT_VALUE_BYTES * countJsonValues(json);
}
