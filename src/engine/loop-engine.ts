/**
 * LoopEngine: loop detection for many sessions in one thread. Each session is a LoopDetector sharing one
 * resolution of the options (and so one slot layout in the WebAssembly module's memory); calls of many
 * sessions cross into the module together through `checkBatch`.
 *
 * Memory stays bounded whatever callers do: sessions end explicitly (`end`), expire when idle
 * (`idleTtlMs`), and the least recently used one is evicted when `maxSessions` would be exceeded. An
 * `onEvict` hook sees a session before it is dropped and can keep its snapshot.
 */
import { eventOfLine } from '../wire/event-bytes.js';
import { CapacityError, ClosedError, InvalidEventError, SnapshotError } from '../errors.js';
import { describe } from '../options/checks.js';
import { unreadable, validateEvent } from '../session/observe-event.js';
import { assertSendable } from '../wire/portable-values.js';
import { LoopDetector, type SessionMode } from '../session/loop-detector.js';
import type { AggregateStats, SessionStats, StatsAggregate } from '../session/stats.js';
import type { ToolEvent, Verdict } from '../types.js';
import { type LiveCall, type LiveDecision, type LivePhase, validateLiveCall } from '../live/live-call.js';
import { type EvictedSession, type EvictedSessionInfo, type LoopEngineOptions, type ResolvedEngineOptions, resolveEngineOptions } from './engine-options.js';
import { SessionTable } from './session-table.js';
import { DroppedStops } from './dropped-stops.js';
import { type EngineMetrics, type Operation, engineMetrics } from '../metrics/engine-metrics.js';
import type { SessionEvent } from '../wire/session-event.js';
import { SESSION_ID_RULE, checkSessionId, isSessionId } from './session-id.js';

export { type SessionEvent, sessionEvent } from '../wire/session-event.js';

/** A two-phase call with its session and moment, for `decideBatch`. */
export interface SessionLiveCall extends LiveCall {
  /** The session's id. */
  readonly session: string;
  /** Before the call runs (`propose`) or after it ran (`record`). */
  readonly phase: LivePhase;
}

/** Engine totals: the sessions' verdict counts plus the session lifecycle. */
export interface EngineStats extends AggregateStats {
  /** Sessions live now. */
  readonly live: number;
  /** Sessions started (a first call, or a restore of an unknown id). */
  readonly created: number;
  /** Sessions ended by `end()`. */
  readonly ended: number;
  /** Sessions dropped for being idle longer than `idleTtlMs`. */
  readonly expired: number;
  /** Sessions dropped, least recently used first, to stay within `maxSessions`. */
  readonly evicted: number;
  /** Snapshots restored. */
  readonly restored: number;
}

/**
 * Frees the slots of an engine garbage-collected without close(): its sessions register no finaliser of
 * their own (see LoopDetector.owned); the registry holds the engine's table, the engine only weakly.
 */
/** The mode of an engine's sessions with `checksOnly` (one object for every session). */
const CHECKS_ONLY: SessionMode = Object.freeze({ checksOnly: true });

const engines = new FinalizationRegistry<SessionTable<LoopDetector>>((table) => {
  for (const [, d] of table.entries()) d.dispose();
});

/**
 * Loop detection for many sessions in one thread. Every method that takes a session id throws
 * InvalidEventError for one that is not a non-empty string (src/engine/session-id.ts), whether it starts the
 * session (`check`) or only looks it up (`end`, `snapshot`, `stopped`, `has`, ...).
 */
export class LoopEngine {
  /** The engine's options, resolved. */
  readonly options: ResolvedEngineOptions;
  private readonly table = new SessionTable<LoopDetector>();
  private readonly aggregate: StatsAggregate;
  private readonly counts = { created: 0, ended: 0, expired: 0, evicted: 0, restored: 0 };
  /** The stops of sessions dropped while stopped, given back when their id starts again. */
  private readonly droppedStops = new DroppedStops();
  private closed = false;
  /** OpenTelemetry instruments, or null when no MeterProvider is registered (nothing is measured). */
  private readonly metrics: EngineMetrics | null;

  /** Validates every option (errors name the option) and starts with no sessions. */
  constructor(options: LoopEngineOptions = {}) {
    this.options = resolveEngineOptions(options);
    this.metrics = engineMetrics(this.options.meter, () => this.table.size);
    this.aggregate = this.options.detection.stats as StatsAggregate;
    engines.register(this, this.table, this);
  }

  /** Sessions live now. */
  get size(): number {
    return this.table.size;
  }

  /** The ids of the live sessions, in no particular order (for persisting them all, e.g. at shutdown). */
  sessionIds(): string[] {
    const out: string[] = [];
    for (const [id] of this.table.entries()) out.push(id);
    return out;
  }

  /**
   * A live session's proposals with an id still waiting for their outcome, oldest first, as proposed
   * (LoopDetector.waiting); none for a session that is not live. Nothing changes (the session is not
   * touched, nor started).
   */
  waiting(sessionId: string): readonly LiveCall[] {
    this.open();
    return this.table.peek(checkSessionId(sessionId))?.waiting() ?? [];
  }

  /** Whether the session is live. */
  has(sessionId: string): boolean {
    return this.table.peek(checkSessionId(sessionId)) !== undefined;
  }

  /**
   * Records one call of a session (started on its first call) and says whether it is looping: what
   * `LoopDetector.check` says. Throws InvalidEventError for an event that is not a readable tool call.
   */
  check(sessionId: string, event: ToolEvent): Verdict | null {
    const now = this.enter();
    checkSessionId(sessionId);
    this.validate(event); // an invalid event neither starts nor evicts a session
    if (this.metrics === null) return this.sessionFor(sessionId, now, null, undefined, hasText(event)).check(event);
    const t0 = performance.now();
    const v = this.sessionFor(sessionId, now, null, undefined, hasText(event)).check(event);
    this.measured('check', 1, t0, v);
    return v;
  }

  /**
   * checkBatch for calls given as bytes: each line one events-format record (a JSON object naming its
   * `session` and `tool`, with `args`, `result`, `error`, `text`, `step`, ... as `loopwatch scan` reads
   * them), read from its bytes where it can be (results stay bytes until the module reads them), else
   * parsed. A line that holds no call holds an InvalidEventError in its place.
   */
  checkLines(lines: readonly Uint8Array[]): (Verdict | null | Error)[] {
    if (!Array.isArray(lines)) throw new InvalidEventError('lines', `lines must be an array of byte arrays, received ${describe(lines)}`);
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    const out: (Verdict | null | Error)[] = new Array<Verdict | null | Error>(lines.length).fill(null);
    const pending: Pending = { detectors: [], events: [], at: [], firstTick: 0 };
    // `k` numbers the lines that hold a call, as checkBatch numbers its events (its errors name events[k])
    let k = 0;
    for (let i = 0; i < lines.length; i++) {
      const e = eventOfLine(lines[i], i);
      if (e instanceof InvalidEventError) out[i] = e;
      else {
        this.take(e, k++, i, now, pending, out);
        // checked a few at a time: a call read from bytes is the engine's own young objects (args text,
        // result view), and a batch's worth of them alive at once made every scavenge copy them
        if (pending.detectors.length >= LINE_FLUSH) flush(pending, out);
      }
    }
    flush(pending, out);
    if (this.metrics !== null) this.measuredCalls('batch', k, t0, out);
    return out;
  }

  /**
   * Checks calls of many sessions, each event naming its session in `session`, in order: each session gets
   * the verdicts check() would give. Never throws for one call: where a call fails (an invalid event or
   * session id, a quarantined session) its place holds the error and the others go on.
   */
  checkBatch(events: readonly SessionEvent[]): (Verdict | null | Error)[] {
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    if (!Array.isArray(events)) throw new InvalidEventError('events', `events must be an array of tool calls with a "session" id, received ${describe(events)}`);
    const out: (Verdict | null | Error)[] = new Array<Verdict | null | Error>(events.length).fill(null);
    const pending: Pending = { detectors: [], events: [], at: [], firstTick: 0 };
    for (let i = 0; i < events.length; i++) this.take(events[i], i, i, now, pending, out);
    flush(pending, out);
    if (this.metrics !== null) this.measuredBatch('batch', t0, out);
    return out;
  }

  /**
   * Takes call `e` of a batch (its error, if any, naming it `events[k]`) into the pending calls, its
   * verdict to go at `out[i]`; where it fails, the error goes there.
   */
  private take(e: unknown, k: number, i: number, now: number, pending: Pending, out: (Verdict | null | Error)[]): void {
    let id: unknown;
    try {
      id = typeof e === 'object' && e !== null ? (e as { session?: unknown }).session : undefined;
    } catch (err) {
      out[i] = new InvalidEventError('session', `events[${k}]: ${unreadable('session', err).message}`);
      return;
    }
    if (!isSessionId(id)) {
      out[i] = new InvalidEventError('session', `events[${k}].session ${SESSION_ID_RULE}, received ${describe(id)}`);
      return;
    }
    let event: ToolEvent;
    try {
      event = this.validate(e);
    } catch (err) {
      out[i] = err instanceof InvalidEventError ? new InvalidEventError(err.field, `events[${k}]: ${err.message}`) : (err as Error);
      return;
    }
    // validated first: an invalid event neither starts nor evicts a session
    let detector: LoopDetector;
    try {
      detector = this.sessionFor(id, now, pending, out, hasText(event));
    } catch (err) {
      out[i] = err as Error; // no room for a new session or its call (CapacityError): this call only
      return;
    }
    enqueue(pending, this.table.lastTick, detector, event, i);
  }

  /**
   * checkBatch for calls validated already (`events[i]` of session `sessions[i]`, ids checked): what a
   * LoopPool's shard in the calling thread runs, without copying and validating each call again.
   * @internal
   */
  checkValidated(sessions: readonly string[], events: readonly ToolEvent[]): (Verdict | null | Error)[] {
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    const out: (Verdict | null | Error)[] = new Array<Verdict | null | Error>(events.length).fill(null);
    const pending: Pending = { detectors: [], events: [], at: [], firstTick: 0 };
    for (let i = 0; i < events.length; i++) {
      let detector: LoopDetector;
      try {
        detector = this.sessionFor(sessions[i] as string, now, pending, out, hasText(events[i] as ToolEvent));
      } catch (err) {
        out[i] = err as Error;
        continue;
      }
      enqueue(pending, this.table.lastTick, detector, events[i] as ToolEvent, i);
    }
    flush(pending, out);
    if (this.metrics !== null) this.measuredBatch('batch', t0, out);
    return out;
  }

  /**
   * Checks a session's call before it runs, without recording it (started on its first call): what
   * `LoopDetector.propose` says. With `everyOutcome` the host records every call of the session that ran (an
   * agent's hook): a proposal whose outcome never came did not run (LoopDetector.expectEveryOutcome).
   * Throws InvalidEventError for a call that is not a readable tool call.
   */
  propose(sessionId: string, call: LiveCall, everyOutcome = false): LiveDecision {
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    checkSessionId(sessionId);
    const valid = this.validateLive(call); // an invalid call neither starts nor evicts a session
    const session = this.sessionFor(sessionId, now);
    session.expectEveryOutcome(everyOutcome);
    const d = session.propose(valid);
    if (this.metrics !== null) this.measuredDecision('propose', t0, d);
    return d;
  }

  /** Records a session's call that ran, with its outcome: what `LoopDetector.record` says. */
  record(sessionId: string, call: LiveCall): LiveDecision {
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    checkSessionId(sessionId);
    const valid = this.validateLive(call);
    const d = this.sessionFor(sessionId, now, null, undefined, hasText(valid)).record(valid);
    if (this.metrics !== null) this.measuredDecision('record', t0, d);
    return d;
  }

  /** Says that a session's proposed call was declined and did not run (LoopDetector.decline). */
  decline(sessionId: string, call: LiveCall): void {
    const now = this.enter();
    checkSessionId(sessionId);
    this.validateLive(call);
    this.session(sessionId, now, null).decline(call);
  }

  /**
   * Says that a session's proposed call did not run, for a reason not the loop's (LoopDetector.didNotRun);
   * whether it was still waiting (false: it had run, or was never proposed).
   */
  didNotRun(sessionId: string, call: LiveCall): boolean {
    const now = this.enter();
    checkSessionId(sessionId);
    this.validateLive(call);
    return this.session(sessionId, now, null).didNotRun(call);
  }

  /**
   * Two-phase calls of many sessions, each naming its session and its `phase` (`propose` or `record`),
   * in order: each gets what propose() or record() would give. Never throws for one call: where a call
   * fails (an invalid call, session id or phase) its place holds the error and the others go on.
   */
  decideBatch(calls: readonly SessionLiveCall[]): (LiveDecision | Error)[] {
    const t0 = this.metrics === null ? 0 : performance.now();
    const now = this.enter();
    if (!Array.isArray(calls)) throw new InvalidEventError('calls', `calls must be an array of tool calls with a "session" id and a "phase", received ${describe(calls)}`);
    const out = calls.map((c: unknown, i): LiveDecision | Error => {
      try {
        const o = typeof c === 'object' && c !== null ? (c as { session?: unknown; phase?: unknown }) : {};
        if (!isSessionId(o.session)) throw new InvalidEventError('session', `calls[${i}].session ${SESSION_ID_RULE}, received ${describe(o.session)}`);
        if (o.phase !== 'propose' && o.phase !== 'record') throw new InvalidEventError('phase', `calls[${i}].phase must be "propose" or "record", received ${describe(o.phase)}`);
        this.validateLive(c);
        const d = this.sessionFor(o.session, now, null, undefined, o.phase === 'record' && hasText(c as LiveCall));
        return o.phase === 'propose' ? d.propose(c as LiveCall) : d.record(c as LiveCall);
      } catch (err) {
        if (err instanceof InvalidEventError && !err.message.startsWith('calls[')) return new InvalidEventError(err.field, `calls[${i}]: ${err.message}`);
        return err instanceof Error ? err : new Error(String(err));
      }
    });
    const m = this.metrics;
    if (m !== null) {
      m.operation('decide_batch', out.length, (performance.now() - t0) / 1000);
      for (const d of out) if (!(d instanceof Error)) m.decision(d);
    }
    return out;
  }

  private measured(op: Operation, calls: number, t0: number, v: Verdict | null): void {
    const m = this.metrics as EngineMetrics;
    m.operation(op, calls, (performance.now() - t0) / 1000);
    if (v !== null) m.verdict(v);
  }

  private measuredBatch(op: Operation, t0: number, out: readonly (Verdict | null | Error)[]): void {
    this.measuredCalls(op, out.length, t0, out);
  }

  /** Measures an operation of `calls` calls whose verdicts are among `out`. */
  private measuredCalls(op: Operation, calls: number, t0: number, out: readonly (Verdict | null | Error)[]): void {
    const m = this.metrics as EngineMetrics;
    m.operation(op, calls, (performance.now() - t0) / 1000);
    for (const v of out) if (v !== null && !(v instanceof Error)) m.verdict(v);
  }

  private measuredDecision(op: Operation, t0: number, d: LiveDecision): void {
    const m = this.metrics as EngineMetrics;
    m.operation(op, 1, (performance.now() - t0) / 1000);
    m.decision(d);
  }

  /** Feeds a session's streamed text (outside tool calls) to its chanting detector (LoopDetector.checkText). */
  checkText(sessionId: string, text: string): Verdict | null {
    const now = this.enter();
    checkSessionId(sessionId);
    // refused as the session refuses it, before it starts or evicts a session or has room made for its text
    if (typeof text !== 'string') throw new InvalidEventError('text', `text must be a string, received ${describe(text)}`);
    const d = this.session(sessionId, now, null);
    this.roomForText(d);
    return d.checkText(text);
  }

  /**
   * Gives a live session a fresh start (LoopDetector.freshStart: the user gave new instructions, or a
   * person said so); false when it was not live (nothing is started; a stop it was dropped with is forgotten).
   */
  freshStart(sessionId: string): boolean {
    this.open();
    this.droppedStops.forget(checkSessionId(sessionId));
    const d = this.table.peek(sessionId);
    if (d === undefined) return false;
    d.freshStart();
    return true;
  }

  /**
   * Says that a live session's agent turn ended without a fresh start (a prompt that only answers the agent:
   * LoopDetector.endTurn); whether a proposal still waiting was taken as not run (false when the session was
   * not live, or its host does not record every run).
   */
  endTurn(sessionId: string): boolean {
    this.open();
    const d = this.table.peek(checkSessionId(sessionId));
    return d === undefined ? false : d.endTurn();
  }

  /**
   * The decision that stopped a session's run (LoopDetector.stopped: kept in its snapshot, so it outlives a
   * restore), or undefined when none did. A session evicted or expired while stopped keeps it too
   * (src/engine/dropped-stops.ts: MAX_STOPPED sessions), and has it again when its id starts again.
   */
  stopped(sessionId: string): LiveDecision | undefined {
    this.open();
    const d = this.table.peek(checkSessionId(sessionId));
    return d === undefined ? this.droppedStops.get(sessionId) : d.stopped();
  }

  /** Ends a session and frees its state (a stop it was dropped with is forgotten too); false when it was not live. */
  end(sessionId: string): boolean {
    this.open();
    this.droppedStops.forget(checkSessionId(sessionId));
    const d = this.table.delete(sessionId);
    if (d === undefined) return false;
    d.dispose();
    this.counts.ended++;
    this.metrics?.droppedSession('ended');
    return true;
  }

  /**
   * Evicts a live session as the `maxSessions` cap does (`onEvict` sees it first; counted as evicted):
   * for hosts that bound sessions by something else than their number. False when it was not live.
   */
  evict(sessionId: string): boolean {
    this.open();
    if (this.table.peek(checkSessionId(sessionId)) === undefined) return false;
    this.drop(sessionId, 'evicted');
    return true;
  }

  /** The session's snapshot (see LoopDetector.snapshot), or null when it is not live. */
  snapshot(sessionId: string): Uint8Array | null {
    this.open();
    const d = this.table.peek(checkSessionId(sessionId));
    return d === undefined ? null : d.snapshot();
  }

  /**
   * Puts a session in the state a snapshot holds, starting it if it is not live. Throws SnapshotError
   * (and changes nothing) for bytes that are not a good snapshot for the engine's options.
   */
  restore(sessionId: string, bytes: Uint8Array): void {
    const now = this.enter();
    checkSessionId(sessionId);
    const live = this.table.use(sessionId, now); // most recently used: the last to be evicted for its room
    if (live !== undefined) {
      this.restoreRoom(live, bytes);
    } else {
      const d = this.newSession(sessionId, null, undefined);
      try {
        this.restoreRoom(d, bytes);
      } catch (err) {
        d.dispose();
        throw err;
      }
      this.makeRoom(null, undefined);
      this.table.add(sessionId, d, now);
      this.counts.created++;
    }
    // the snapshot says whether the session is stopped, as it does for a live one
    this.droppedStops.forget(sessionId);
    this.counts.restored++;
  }

  /**
   * `d.restore(bytes)`, evicting least recently used sessions (never `d`) while the thread's WebAssembly
   * memory has no room for the state it restores, as a new session's slot does; what the last try threw
   * when no other session is left to evict.
   */
  private restoreRoom(d: LoopDetector, bytes: Uint8Array): void {
    for (;;) {
      try {
        d.restore(bytes);
        return;
      } catch (err) {
        const full = err instanceof CapacityError || (err instanceof SnapshotError && err.cause instanceof CapacityError);
        if (!full || this.table.oldest() === d.sessionId || !this.evictOldest(null, undefined)) throw err;
      }
    }
  }

  /** One session's statistics, or null when it is not live. */
  sessionStats(sessionId: string): SessionStats | null {
    return this.table.peek(checkSessionId(sessionId))?.stats() ?? null;
  }

  /** Totals over every session the engine ran, and the session lifecycle counts. */
  stats(): EngineStats {
    return Object.freeze({ ...this.aggregate.snapshot(), live: this.table.size, ...this.counts });
  }

  /** Expires sessions idle longer than `idleTtlMs` now (checks do this themselves); how many expired. */
  sweep(): number {
    this.open();
    return this.expire(this.options.clock());
  }

  /** Frees every session; the engine cannot be used afterwards (ClosedError). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [, d] of this.table.entries()) d.dispose();
    this.table.clear();
    this.droppedStops.clear();
    engines.unregister(this);
  }

  private open(): void {
    if (this.closed) throw new ClosedError('loopwatch: this LoopEngine was closed');
  }

  /**
   * A live call checked as the session will check it (validate(), and its `id`), so that an invalid call
   * neither starts nor evicts a session, nor has room made for its text.
   */
  private validateLive(call: unknown): LiveCall {
    const { event, id } = validateLiveCall(call, 'record', (c) => this.validate(c));
    // the session checks it again (its own options), on what was read here: an outcome is read once
    return id === undefined ? event : { ...event, id };
  }

  /** The event checked as validateEvent does, and with `strictValues`, refused as a LoopPool would refuse it. */
  private validate(event: unknown): ToolEvent {
    const e = validateEvent(event);
    if (this.options.detection.strictValues) assertSendable(e);
    return e;
  }

  /** Checks the engine is open, expires idle sessions, and returns the time now. */
  private enter(): number {
    this.open();
    const now = this.options.clock();
    if (this.options.idleTtlMs > 0) this.expire(now);
    return now;
  }

  private expire(now: number): number {
    const ttl = this.options.idleTtlMs;
    if (ttl === 0) return 0;
    let n = 0;
    for (let first = this.table.oldest(); first !== undefined && now - this.table.oldestSeenAt() > ttl; first = this.table.oldest()) {
      this.drop(first, 'expired');
      n++;
    }
    return n;
  }

  /**
   * The live session, or a new one (evicting the least recently used one if the cap is reached, or if the
   * thread's WebAssembly memory is full); a CapacityError when the memory is full and the engine has no
   * session to evict (the memory is other engines').
   */
  private session(id: string, now: number, pending: Pending | null, out?: (Verdict | null | Error)[]): LoopDetector {
    const live = this.table.use(id, now);
    if (live !== undefined) return live;
    this.makeRoom(pending, out);
    const d = this.newSession(id, pending, out);
    // a session dropped while stopped starts again stopped, as a restore of its snapshot would
    const stop = this.droppedStops.size === 0 ? undefined : this.droppedStops.take(id);
    if (stop !== undefined) d.keepStop(stop);
    this.table.add(id, d, now);
    this.counts.created++;
    return d;
  }

  /**
   * session() for one call checked now or taken into `pending`, with room made for what the call takes as it
   * comes (roomForCall); `text`: the call reads a non-empty text (chanting's stream region is made first).
   */
  private sessionFor(id: string, now: number, pending: Pending | null = null, out?: (Verdict | null | Error)[], text = false): LoopDetector {
    const d = this.session(id, now, pending, out);
    this.roomForCall(d, pending, out, text);
    return d;
  }

  /**
   * Makes room for the chanting stream's region that streamed text (checkText) makes when it is the session's
   * first: while the memory is full, evicts least recently used sessions, never `d` itself; a CapacityError
   * when no other session is left to evict.
   */
  private roomForText(d: LoopDetector): void {
    this.evictUntil(d, () => d.reserve(0, 0, true), null, undefined, `loopwatch: this thread's WebAssembly memory has no room for this session's chanting stream, and no other session of this engine to evict; the text was not read`);
  }

  /**
   * Makes room for what a call of session `d` takes of the thread's WebAssembly memory as calls come (state
   * repeat's ring grows, assembly/state-ring.ts), after its calls waiting in the batch: while the memory is
   * full, evicts least recently used sessions as a new session's slot does, never `d` itself; a
   * CapacityError when no other session is left to evict (the memory is other engines').
   */
  private roomForCall(d: LoopDetector, pending: Pending | null, out: (Verdict | null | Error)[] | undefined, text = false): void {
    // every call comes here: with room (the common case) it is reserved without making a function
    if (d.reserve(d.queued + 1, (pending?.detectors.length ?? 0) + 1, text)) return;
    // the batch's calls so far and this one: what they take of the thread's shared blocks (semantic sketches),
    // read again after each eviction (an eviction may check the batch's waiting calls first)
    const reserved = (): boolean => d.reserve(d.queued + 1, (pending?.detectors.length ?? 0) + 1, text);
    this.evictUntil(d, reserved, pending, out, `loopwatch: this thread's WebAssembly memory has no room for this session's state ring to grow (or the batch's semantic sketches, or the chanting stream of its first text), and no other session of this engine to evict; the call was not recorded`);
  }

  /**
   * Evicts least recently used sessions (a batch's pending calls checked first if they must), never `d`
   * itself, until `reserved()` has the room; a CapacityError saying `message` when no other session is left.
   */
  private evictUntil(d: LoopDetector, reserved: () => boolean, pending: Pending | null, out: (Verdict | null | Error)[] | undefined, message: string): void {
    while (!reserved()) {
      if (this.table.oldest() === d.sessionId || !this.evictOldest(pending, out)) throw new CapacityError(message);
    }
  }

  /** A new session's detector, evicting least recently used sessions while the memory has no room for it. */
  private newSession(id: string, pending: Pending | null, out: (Verdict | null | Error)[] | undefined): LoopDetector {
    for (;;) {
      try {
        return LoopDetector.owned(this.options.detection, id, this.options.checksOnly ? CHECKS_ONLY : undefined);
      } catch (err) {
        if (!(err instanceof CapacityError) || !this.evictOldest(pending, out)) throw err;
      }
    }
  }

  /** Evicts least recently used sessions until one more fits; a batch's pending calls go first if they must. */
  private makeRoom(pending: Pending | null, out: (Verdict | null | Error)[] | undefined): void {
    while (this.table.size >= this.options.maxSessions && this.evictOldest(pending, out));
  }

  /** Evicts the least recently used session (a batch's pending calls checked first if they must); false when there is none. */
  private evictOldest(pending: Pending | null, out: (Verdict | null | Error)[] | undefined): boolean {
    const first = this.table.oldest();
    if (first === undefined) return false;
    // Every live session has a call waiting in this batch: check those calls before dropping one.
    if (pending !== null && out !== undefined && pending.detectors.length !== 0 && this.table.oldestUsed() >= pending.firstTick) flush(pending, out);
    this.drop(first, 'evicted');
    return true;
  }

  private drop(id: string, reason: EvictedSession['reason']): void {
    const d = this.table.delete(id);
    if (d === undefined) return;
    if (this.options.onEvict !== undefined) {
      let valid = true;
      // a snapshot that could not be taken, even if onEvict caught its error: the session goes unpersisted
      let failed: unknown = undefined;
      const info = { sessionId: id, reason, checks: d.stats().checks };
      try {
        this.options.onEvict(
          Object.freeze({
            ...info,
            snapshot: () => {
              if (!valid) throw new SnapshotError(`loopwatch: session "${id}" was already dropped; take its snapshot inside onEvict`);
              try {
                return d.snapshot();
              } catch (err) {
                failed = err;
                throw err;
              }
            },
          }),
        );
      } catch (err) {
        failed = err;
      }
      valid = false;
      if (failed !== undefined) this.evictFailed(failed, Object.freeze(info));
    }
    const stop = d.stopped();
    if (stop !== undefined) this.droppedStops.keep(id, stop);
    d.dispose();
    this.counts[reason]++;
    this.metrics?.droppedSession(reason);
  }

  /** Reports a session dropped without being persisted (onEvictError, else a LoopwatchEvictWarning). */
  private evictFailed(err: unknown, info: EvictedSessionInfo): void {
    const error = err instanceof Error ? err : new Error(String(err));
    const warn = (e: Error): void => {
      process.emitWarning(`loopwatch: session "${info.sessionId}" was ${info.reason} without being persisted (${e.message})`, 'LoopwatchEvictWarning');
    };
    if (this.options.onEvictError === undefined) {
      warn(error);
      return;
    }
    try {
      this.options.onEvictError(error, info);
    } catch (e) {
      warn(e instanceof Error ? e : new Error(String(e)));
    }
  }
}

/**
 * Calls read from bytes (`checkLines`) checked at a time: enough that a crossing into the module is
 * amortised, few enough that what was read of them dies young.
 * @internal Exported for tests.
 */
export const LINE_FLUSH = 64;

/** Calls of a batch not yet checked (their sessions must stay live until they are). */
interface Pending {
  /** Call k's session, its validated event, and its place in the batch. */
  detectors: LoopDetector[];
  events: ToolEvent[];
  at: number[];
  /** Table tick of the first session used by a pending call. */
  firstTick: number;
}

/** Adds call `i` to the pending calls (`tick`: the table's tick of its session's use). */
function enqueue(pending: Pending, tick: number, detector: LoopDetector, event: ToolEvent, i: number): void {
  if (pending.detectors.length === 0) pending.firstTick = tick;
  detector.queued++;
  pending.detectors.push(detector);
  pending.events.push(event);
  pending.at.push(i);
}

function flush(pending: Pending, out: (Verdict | null | Error)[]): void {
  if (pending.detectors.length === 0) return;
  try {
    LoopDetector.runValidated(pending.detectors, pending.events, out, pending.at);
  } finally {
    for (const d of pending.detectors) d.queued = 0;
  }
  pending.detectors.length = 0;
  pending.events.length = 0;
  pending.at.length = 0;
}

/** Whether a call carries a non-empty text (its chanting stream's region is made before it is read). */
function hasText(e: { text?: unknown }): boolean {
  return typeof e.text === 'string' && e.text.length > 0;
}
