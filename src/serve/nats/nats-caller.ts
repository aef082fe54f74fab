/**
 * The calling side of the NATS service: publishes a session's calls into the calls stream (with the call id
 * as `Nats-Msg-Id`, so a publish retried within the duplicate window is stored once) and, when asked, waits
 * for the worker's answer on a reply subject. Any NATS client can do the same: publish the JSON of a call, or
 * `{ "calls": [...] }`, to `loopwatch.in.<session token>`. A call with a `phase` is a two-phase call
 * (`propose` before it runs, `record` after): `propose()` and `record()` publish one and wait for its
 * LiveDecision.
 */
import { type JetStreamClient, type PubAck, jetstream } from '@nats-io/jetstream';
import { type MsgHdrs, type NatsConnection, type Subscription, createInbox, headers } from '@nats-io/transport-node';
import { ErrorCode, InvalidEventError } from '../../errors.js';
import type { LiveCall, LiveDecision, LivePhase } from '../../live/live-call.js';
import type { ToolEvent } from '../../types.js';
import type { MessageResult } from './call-message.js';
import type { NatsAuthOptions } from './nats-auth.js';
import { connectNats } from './nats-connect.js';
import { OP_HEADER, REPLY_HEADER, inputSubject, sessionToken } from './subjects.js';

/** A call as published: a tool call with the caller's id (used to drop repeated publishes). */
export interface PublishedCall extends ToolEvent {
  /** The caller's id of the call, unique in the session. */
  readonly id?: string;
  /** A two-phase call's moment (`propose` before it runs, `record` after); absent for a plain check. */
  readonly phase?: LivePhase;
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

/** Publishes calls for the workers and waits for answers. */
export class NatsCaller {
  private readonly js: JetStreamClient;
  private inbox: { prefix: string; sub: Subscription; waiting: Map<string, (a: MessageAnswer) => void>; next: number } | undefined;

  private constructor(readonly nc: NatsConnection) {
    this.js = jetstream(nc);
  }

  /**
   * Connects to the server(s): a URL (a user and password, or a token, in it are used), URLs separated by
   * commas, or a list; `auth` gives credentials and TLS files (see NatsAuthOptions).
   */
  static async connect(servers: string | string[], auth: NatsAuthOptions = {}): Promise<NatsCaller> {
    return new NatsCaller(await connectNats(servers, auth, { name: 'loopwatch-caller' }));
  }

  /** Publishes calls of one session (one message); resolves when the stream has stored it. */
  publish(sessionId: string, calls: readonly PublishedCall[], reply?: string): Promise<PubAck> {
    const body = calls.length === 1 ? JSON.stringify(calls[0]) : JSON.stringify({ calls });
    const first = callKey(calls[0]);
    const last = callKey(calls[calls.length - 1]);
    const msgID = first === undefined || last === undefined ? undefined : `${sessionToken(sessionId)}.${first}${calls.length > 1 ? `..${last}.${calls.length}` : ''}`;
    let h: MsgHdrs | undefined;
    if (reply !== undefined) {
      h = headers();
      h.set(REPLY_HEADER, reply);
    }
    return this.js.publish(inputSubject(sessionId), body, { ...(msgID === undefined ? {} : { msgID }), ...(h === undefined ? {} : { headers: h }) });
  }

  /** Publishes calls of one session and waits (up to `timeoutMs`) for the worker's answer. */
  async check(sessionId: string, calls: readonly PublishedCall[], timeoutMs = 10_000): Promise<MessageAnswer> {
    const inbox = this.ensureInbox();
    const reply = `${inbox.prefix}.${inbox.next++}`;
    const answer = new Promise<MessageAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        inbox.waiting.delete(reply);
        reject(new Error(`no answer for session ${JSON.stringify(sessionId)} in ${timeoutMs} ms (is a loopwatch serve --nats worker running?)`));
      }, timeoutMs);
      inbox.waiting.set(reply, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    await this.publish(sessionId, calls, reply);
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
  end(sessionId: string): Promise<PubAck> {
    const h = headers();
    h.set(OP_HEADER, 'end');
    return this.js.publish(inputSubject(sessionId), '', { headers: h });
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.inbox?.sub.unsubscribe();
    await this.nc.drain();
  }

  private ensureInbox(): NonNullable<NatsCaller['inbox']> {
    if (this.inbox !== undefined) return this.inbox;
    const prefix = createInbox();
    const waiting = new Map<string, (a: MessageAnswer) => void>();
    const sub = this.nc.subscribe(`${prefix}.*`, {
      callback: (err, m) => {
        if (err !== null) return;
        const done = waiting.get(m.subject);
        if (done === undefined) return; // a repeated answer (after a partition moved)
        waiting.delete(m.subject);
        done(m.json<MessageAnswer>());
      },
    });
    this.inbox = { prefix, sub, waiting, next: 0 };
    return this.inbox;
  }
}

/**
 * A call's part of its message's id: its id, after its phase for two-phase calls (the proposal and the
 * record of one call are two messages, neither a repeat of the other); undefined without an id.
 */
function callKey(c: PublishedCall | undefined): string | undefined {
  if (c?.id === undefined) return undefined;
  return c.phase === undefined ? c.id : `${c.phase}:${c.id}`;
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
