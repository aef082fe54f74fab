/**
 * The calling side of the NATS service (`loopwatch/nats`): publishes a session's calls into the calls stream
 * and, when asked, waits for the worker's answer on a reply subject. Any NATS client can do the same:
 * publish the JSON of a call, or `{ "calls": [...] }`, to `loopwatch.in.<session token>`. A call with a
 * `phase` is a two-phase call (`propose` before it runs, `record` after): `propose()` and `record()` publish
 * one and wait for its LiveDecision.
 *
 * Each message carries a `Nats-Msg-Id` of this client's random id, the session and the call ids, so a
 * publish retried within the stream's duplicate window is stored once, and a client started again (new id)
 * never has its calls dropped as repeats of the last one's. A publish the stream dropped as a repeat (the
 * same call id twice from one client) rejects at once with a DuplicateCallError rather than waiting for an
 * answer that will not come. The NATS client is loaded by `connect()`, not by importing this module.
 */
import { randomBytes } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node';
import { AnswerTimeoutError, ClosedError, DuplicateCallError, ErrorCode, InvalidEventError, NoStreamError, StoreFullError } from '../../errors.js';
import { NATS_PEERS, importPeers } from '../../peers/optional-peers.js';
import type { LiveCall, LiveDecision, LivePhase } from '../../live/live-call.js';
import type { ToolEvent } from '../../types.js';
import type { MessageResult } from './call-message.js';
import type { NatsAuthOptions } from './nats-auth.js';
import { OP_HEADER, PURGE_SUBJECT, REPLY_HEADER, inputSubject, sessionToken } from './subjects.js';

/** A call as published: a tool call with the caller's id (used to drop repeated publishes). */
export interface PublishedCall extends ToolEvent {
  /** The caller's id of the call, unique in the session. */
  readonly id?: string;
  /** A two-phase call's moment (`propose` before it runs, `record` after); absent for a plain check. */
  readonly phase?: LivePhase;
}

/** The stream's acknowledgement of a published message. */
export interface PublishAck {
  /** The stream that stored it. */
  readonly stream: string;
  /** Its sequence in the stream (the stored one's, for a repeat). */
  readonly seq: number;
  /** Whether the stream dropped it as a repeat of a message with the same id (stored within the duplicate window). */
  readonly duplicate: boolean;
}

/** What a worker answers for one message. */
export interface MessageAnswer {
  readonly session: string;
  /** The message's sequence in the calls stream. */
  readonly seq: number;
  readonly ended?: boolean;
  /** Per call, in order: `{ id?, verdict }` for a plain check, a LiveDecision for a two-phase call, or `{ id?, error }`. */
  readonly results: readonly MessageResult[];
}

/** How a NatsCaller connects: credentials and TLS files (NatsAuthOptions), and its id. */
export interface NatsCallerOptions extends NatsAuthOptions {
  /**
   * This client's part of every message id (letters, digits, `_`, `-`). Two clients with one id have their
   * calls with the same ids dropped as repeats within the duplicate window (2 minutes): give one only to
   * carry deduplication across a restart on purpose. @default 12 random hex digits
   */
  readonly clientId?: string;
}

/** What `connect()` loads: the NATS client's functions the caller uses. */
interface NatsClient {
  readonly headers: () => MsgHdrs;
  readonly createInbox: () => string;
}

/** How long check(), propose() and record() wait for an answer by default, in ms (twice a worker's default lease). */
export const ANSWER_TIMEOUT_MS = 10_000;

/** How long a publish the full stream refused waits for a worker's purge before it is sent once more, in ms. */
export const PURGE_WAIT_MS = 2_000;

/** How long close() lets the connection drain before it closes it at once, in ms. */
export const CLOSE_DRAIN_MS = 2_000;

/** A check waiting for its answer: what settles it. */
interface Waiting {
  readonly answer: (a: MessageAnswer) => void;
  readonly fail: (e: Error) => void;
}

/** Publishes calls for the workers and waits for answers. */
export class NatsCaller {
  /** This client's part of every message id. */
  readonly clientId: string;
  private inbox: { prefix: string; sub: Subscription; waiting: Map<string, Waiting>; next: number } | undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly client: NatsClient,
    clientId: string | undefined,
  ) {
    if (clientId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(clientId)) throw new TypeError(`clientId must be 1 to 64 letters, digits, _ or -, received ${JSON.stringify(clientId.slice(0, 80))}`);
    this.clientId = clientId ?? randomBytes(6).toString('hex');
  }

  /**
   * Connects to the server(s): a URL (a user and password, or a token, in it are used), URLs separated by
   * commas, or a list; `options` gives credentials and TLS files and the client's id. Loads the NATS client.
   */
  static async connect(servers: string | string[], options: NatsCallerOptions = {}): Promise<NatsCaller> {
    const [{ connectNats }, { jetstream }, core] = await importPeers('the NATS client (loopwatch/nats)', NATS_PEERS, () => Promise.all([import('./nats-connect.js'), import('@nats-io/jetstream'), import('@nats-io/transport-node')]));
    const { clientId, ...auth } = options;
    const nc = await connectNats(servers, auth, { name: 'loopwatch-caller' });
    try {
      return new NatsCaller(nc, jetstream(nc), { headers: core.headers, createInbox: core.createInbox }, clientId);
    } catch (e) {
      await nc.close();
      throw e;
    }
  }

  /** The `Nats-Msg-Id` of a message of `calls` (undefined when a call has no id: then it is not deduplicated). */
  messageId(sessionId: string, calls: readonly PublishedCall[]): string | undefined {
    const first = callKey(calls[0]);
    const last = callKey(calls[calls.length - 1]);
    if (first === undefined || last === undefined) return undefined;
    return `${this.clientId}.${sessionToken(sessionId)}.${first}${calls.length > 1 ? `..${last}.${calls.length}` : ''}`;
  }

  /**
   * Publishes calls of one session (one message); resolves when the stream has stored it (or dropped it as
   * a repeat: then the acknowledgement says `duplicate: true`).
   */
  async publish(sessionId: string, calls: readonly PublishedCall[], reply?: string): Promise<PublishAck> {
    const body = calls.length === 1 ? JSON.stringify(calls[0]) : JSON.stringify({ calls });
    const msgID = this.messageId(sessionId, calls);
    let h: MsgHdrs | undefined;
    if (reply !== undefined) {
      h = this.client.headers();
      h.set(REPLY_HEADER, reply);
    }
    const { stream, seq, duplicate } = await this.storing(() => this.js.publish(inputSubject(sessionId), body, { ...(msgID === undefined ? {} : { msgID }), ...(h === undefined ? {} : { headers: h }) }));
    return { stream, seq, duplicate };
  }

  /**
   * Publishes (`send`); when the full calls stream refuses it, asks the workers to purge the calls they have
   * checked at once (PURGE_SUBJECT; waits for the first to be done, PURGE_WAIT_MS at most) and sends it
   * once more (hostile32: a burst over the bound within a worker's purge turn was refused although checked).
   * A publish refused twice rejects with a StoreFullError: the stream holds that much not yet checked.
   */
  private async storing<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (e) {
      if (!isStoreFull(e)) throw this.publishFailure(e);
    }
    await this.nc.request(PURGE_SUBJECT, '', { timeout: PURGE_WAIT_MS }).catch(() => undefined);
    return send().catch((e: unknown) => {
      throw this.publishFailure(e);
    });
  }

  /**
   * Publishes calls of one session and waits (up to `timeoutMs`) for the worker's answer. Rejects at once
   * with a DuplicateCallError when the stream dropped the message as a repeat (it will not be answered),
   * and with an AnswerTimeoutError when no answer came in time (the message stays stored and is checked
   * later: a call in a dead worker's partition waits for its lease, `--lease-ms`, to run out).
   */
  async check(sessionId: string, calls: readonly PublishedCall[], timeoutMs = ANSWER_TIMEOUT_MS): Promise<MessageAnswer> {
    const inbox = this.ensureInbox();
    const reply = `${inbox.prefix}.${inbox.next++}`;
    let timer: NodeJS.Timeout | undefined;
    let stored: number | undefined;
    const answer = new Promise<MessageAnswer>((resolve, reject) => {
      timer = setTimeout(() => {
        inbox.waiting.delete(reply);
        reject(answerTimeout(sessionId, timeoutMs, stored));
      }, timeoutMs);
      inbox.waiting.set(reply, {
        answer: (a) => {
          clearTimeout(timer);
          resolve(a);
        },
        fail: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
    let ack: PublishAck;
    try {
      ack = await this.publish(sessionId, calls, reply);
    } catch (e) {
      clearTimeout(timer);
      inbox.waiting.delete(reply);
      throw e;
    }
    stored = ack.seq;
    if (ack.duplicate) {
      clearTimeout(timer);
      inbox.waiting.delete(reply);
      const id = this.messageId(sessionId, calls) ?? '';
      throw new DuplicateCallError(id, `the stream dropped this message as a repeat: a message with id ${JSON.stringify(id)} (this client, the session and the call id${calls.length > 1 ? 's' : ''}) was stored within its duplicate window, so this one was not stored and gets no answer; give each call of a session its own id (a call whose check timed out is stored and still checked: send it no more)`);
    }
    return answer;
  }

  /** Before a call runs: publishes it as a proposal and resolves to its LiveDecision (rejects with the error of a refused call). */
  async propose(sessionId: string, call: LiveCall, timeoutMs?: number): Promise<LiveDecision> {
    return decisionOf(await this.check(sessionId, [{ ...call, phase: 'propose' }], timeoutMs));
  }

  /** After a call ran: publishes it, with its outcome, as a record and resolves to its LiveDecision. */
  async record(sessionId: string, call: LiveCall, timeoutMs?: number): Promise<LiveDecision> {
    return decisionOf(await this.check(sessionId, [{ ...call, phase: 'record' }], timeoutMs));
  }

  /** Ends a session (its state is dropped by its worker, in order after its calls). */
  async end(sessionId: string): Promise<PublishAck> {
    const h = this.client.headers();
    h.set(OP_HEADER, 'end');
    const { stream, seq, duplicate } = await this.storing(() => this.js.publish(inputSubject(sessionId), '', { headers: h }));
    return { stream, seq, duplicate };
  }

  /**
   * What a failed publish says: a publish nothing answered (the NATS client's `JetStreamNotEnabled`, also
   * when JetStream runs but no stream takes the subject) is a NoStreamError saying which of the two, from
   * the server's info; one the full calls stream refused is a StoreFullError; any other error as it is.
   */
  private publishFailure(e: unknown): unknown {
    if (isStoreFull(e)) {
      return new StoreFullError("loopwatch: the call was not stored: loopwatch's calls stream on this NATS server is full (its --stream-max-bytes of calls not yet checked: the workers are behind, or none runs; asked to purge what they had checked, it was still full); it gets no answer: send it again later", { cause: e });
    }
    if (!(e instanceof Error) || e.name !== 'JetStreamNotEnabled') return e;
    const why = this.nc.info?.jetstream === false
      ? 'this NATS server runs without JetStream (start it with -js): the calls are kept in a JetStream stream'
      : "no stream on this NATS server takes loopwatch's calls yet: the first loopwatch serve --nats worker to start makes the streams, so start one on this server, then publish";
    return new NoStreamError(`loopwatch: the call was not stored: ${why}`, { cause: e });
  }

  /**
   * Closes the connection; resolves once it is closed, never rejects. The checks still waiting reject at
   * once (their answers can no longer come). Bounded: the connection is drained (what was published is
   * flushed) for at most `drainMs`, then closed at once: a server gone away (the client reconnecting,
   * where a drain rejected after ~2 s and left the client reconnecting for ~20 s more) or not answering (a
   * drain waited for ever) does not keep the caller, nor its process, waiting.
   */
  async close(drainMs = CLOSE_DRAIN_MS): Promise<void> {
    if (this.inbox !== undefined) {
      this.inbox.sub.unsubscribe();
      const closed = new ClosedError('loopwatch: the NatsCaller was closed before the answer came');
      for (const w of this.inbox.waiting.values()) w.fail(closed);
      this.inbox.waiting.clear();
    }
    if (this.nc.isClosed()) return;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.resolve()
        .then(() => this.nc.drain())
        .then(
          () => true,
          () => false,
        ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), drainMs))),
    ]);
    clearTimeout(timer);
    if (!drained && !this.nc.isClosed()) await this.nc.close().catch(() => undefined);
  }

  private ensureInbox(): NonNullable<NatsCaller['inbox']> {
    if (this.inbox !== undefined) return this.inbox;
    const prefix = this.client.createInbox();
    const waiting = new Map<string, Waiting>();
    const sub = this.nc.subscribe(`${prefix}.*`, {
      callback: (err, m) => {
        if (err !== null) return;
        const done = waiting.get(m.subject);
        if (done === undefined) return; // a repeated answer (after a partition moved)
        // anyone who may publish on the server can reach this subject: a message that is not JSON is no
        // answer (the check keeps waiting for its worker's), and never throws inside the client's callback
        let a: unknown;
        try {
          a = m.json<unknown>();
        } catch {
          return;
        }
        if (!isAnswer(a)) return; // JSON, but not an answer's shape (`{}`, `[]`, `null`...): no answer either
        waiting.delete(m.subject);
        done.answer(a);
      },
    });
    this.inbox = { prefix, sub, waiting, next: 0 };
    return this.inbox;
  }
}

/** Whether a publish was refused by the full calls stream (discard new past its max_bytes). */
function isStoreFull(e: unknown): e is Error {
  return e instanceof Error && /maximum bytes exceeded/i.test(e.message);
}

/** The error of a check whose answer did not come in `timeoutMs`; `seq` is its message's, when stored. */
function answerTimeout(sessionId: string, timeoutMs: number, seq: number | undefined): AnswerTimeoutError {
  const where = seq === undefined
    ? 'the stream had not acknowledged the message yet (the NATS server slow or unreachable)'
    : `the message is stored (calls stream sequence ${seq}) and is still checked, in order, once a worker holds its partition: is a loopwatch serve --nats worker running? (a dead worker's partition moves after its --lease-ms); publishing it again with the same call ids within 2 minutes is dropped as a repeat`;
  return new AnswerTimeoutError(sessionId, timeoutMs, seq, `no answer for session ${JSON.stringify(sessionId)} in ${timeoutMs} ms: ${where}`);
}

/**
 * A call's part of its message's id: its id, after its phase for two-phase calls (the proposal and the
 * record of one call are two messages, neither a repeat of the other); undefined without an id.
 */
function callKey(c: PublishedCall | undefined): string | undefined {
  if (c?.id === undefined) return undefined;
  return c.phase === undefined ? c.id : `${c.phase}:${c.id}`;
}

/**
 * Whether a message on a reply subject has an answer's shape: an object with the message's sequence and a
 * non-empty list of results, each an object (a verdict, a LiveDecision or an error). A worker's answer always
 * has it; a neighbour's JSON that lacks it is no answer (before, it settled the check and decisionOf threw a
 * TypeError reading its results).
 */
function isAnswer(a: unknown): a is MessageAnswer {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return false;
  const { seq, results } = a as { seq?: unknown; results?: unknown };
  return typeof seq === 'number' && Array.isArray(results) && results.length > 0 && results.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r));
}

/** The LiveDecision of a one-call answer; throws the error it holds instead (loopwatch errors keep their code and field). */
function decisionOf(a: MessageAnswer): LiveDecision {
  const r = a.results[0];
  if (r === undefined) throw new Error(`loopwatch: the answer for session ${JSON.stringify(a.session)} holds no result`);
  if ('error' in r) {
    const e = r.error.code === ErrorCode.INVALID_EVENT ? new InvalidEventError(r.error.field ?? 'call', r.error.message) : Object.assign(new Error(r.error.message), { code: r.error.code });
    throw e;
  }
  if (!('action' in r)) throw new Error('loopwatch: a plain verdict answered a two-phase call');
  return r;
}
