/**
 * LoopPool: loop detection for many sessions over worker threads. Sessions are sharded by a hash of their
 * id, one single-thread piscina pool per shard, so a session always lives on one worker and its calls are
 * checked in the order they were submitted, however callers interleave their `checkBatch` calls.
 *
 * ```
 * checkBatch(events) -> validate -> shard by session -> pack into the shard's open batch (bytes)
 *   -> transfer to the worker (at most DEPTH batches in flight per shard; the next gathers what arrives)
 *   -> worker: LoopEngine.checkBatch -> sparse verdicts, errors, snapshots due -> back in input order
 * ```
 *
 * Two-phase calls (`propose`, `record`, `decline`, `decideBatch`) travel the same way, in the same batches
 * as checks and in order with them per session; a worker answers each with its verdict and, unless it is a
 * plain `allow`, a small code for its action, from which the pool rebuilds the LiveDecision.
 *
 * Memory is bounded: at most `maxQueued` calls are queued or in flight, and `checkBatch` waits for room
 * beyond that instead of growing. A worker that dies is replaced; its sessions come back from their last
 * snapshots (`snapshotEvery`) or are reported lost ('sessionLost' events, SessionLostError in the places
 * of the calls that died with it), never silently reset.
 *
 * When it pays: measured on 2 cores (docs/many-sessions.md, `npm run bench -- --scope fleet`), with every detector on, one
 * worker and a shard in the calling thread (`inlineShard`) reach 1.20x a LoopEngine in the calling thread,
 * and 2 plain workers 0.94x (the calling thread then only packs, and three threads share two cores). With
 * the cheap detectors only (exact, frequency, cycle, result) a worker's call (about 1.6 µs of packing in
 * the calling thread, then reading the batch) costs more than the engine's ~4 µs check, so the best pool
 * reaches 0.78x. On a 2-core machine use LoopEngine, or the pool with `inlineShard` and every detector on,
 * or the pool for its isolation (sessions survive a dying worker). `npm run bench -- --scope threads`
 * shows how far plain JavaScript scales across two threads on the machine at hand. Args that are JSON data travel in the
 * module's own encoding (see EncodedArgs), so a worker neither rebuilds nor walks them.
 */
import { type LostSession, LoopPoolEmitterBase } from './pool-events.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ClosedError, InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import { unreadable, validateEvent } from '../session/observe-event.js';
import type { EngineStats } from '../engine/loop-engine.js';
import type { SessionEvent, SessionLiveCall } from '../engine/loop-engine.js';
import { SESSION_ID_RULE, checkSessionId, isSessionId } from '../engine/session-id.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import type { Verdict } from '../types.js';
import { ENCODED, type LiveOpCode, Op } from './event-packing.js';
import { atLine, eventOfLine, parsedEvent } from '../wire/event-bytes.js';
import { eventLineSession } from '../formats/event-line.js';
import { lineRouteSession } from '../formats/line-route.js';
import { RoutedLine } from '../wire/routed-line.js';
import { ArgsEncoder } from '../wasm/args-encoder.js';
import { type LoopPoolOptions, type ResolvedPoolOptions, resolvePoolOptions } from './pool-options.js';
import { type PoolShard, InlineShard } from './inline-shard.js';
import { liveCallError, readLiveCall } from './live-calls.js';
import { Shard, type Ticket } from './shard.js';
import { shardOf } from './shard-of.js';

/** Pool totals: the workers' engine stats summed, and the pool's own counts. */
export interface PoolStats extends EngineStats {
  /** Worker threads. */
  readonly workers: number;
  /** Workers replaced after dying. */
  readonly workerRestarts: number;
  /** Sessions restored exactly from their snapshots after a worker died. */
  readonly sessionsRestored: number;
  /** Sessions whose state was lost with a worker (see the 'sessionLost' event). */
  readonly sessionsLost: number;
  /** Calls queued or in flight when the stats were asked for. */
  readonly queued: number;
}

/**
 * Where the worker's entry file (`pool-worker-entry.cjs`) is: beside this file once built; in the built
 * pool folder when this is the bundled command (dist/src/bin); the built copy when running from sources.
 * @internal Exported for its test.
 */
export function workerFile(): string {
  const places = ['./pool-worker-entry.cjs', '../pool/pool-worker-entry.cjs', '../../dist/src/pool/pool-worker-entry.cjs'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const found = places.find((p) => existsSync(p));
  if (found !== undefined) return found;
  throw new Error(`loopwatch: the pool's worker module is missing (looked for ${places.join(', ')}); run \`npm run build\``);
}

/** Which shard holds a session (shard-of.ts; exported here as before). */
export { shardOf };

/** One caller's operations: results by slot, resolved when every one has settled. */
class Outcome<T> implements Ticket {
  readonly out: T[];
  private pending: number;
  readonly promise: Promise<T[]>;
  private resolve!: (v: T[]) => void;

  constructor(
    n: number,
    private readonly onSettle: () => void,
  ) {
    this.out = new Array<T>(n).fill(null as T);
    this.pending = n;
    this.promise = new Promise((res) => (this.resolve = res));
    if (n === 0) this.resolve(this.out);
  }

  /** Where facts of calls read from lines go, [step, flags] per slot (checkRouted), else null. */
  facts: Float64Array | null = null;

  fact(slot: number, step: number, flags: number): void {
    if (this.facts === null) return;
    this.facts[2 * slot] = step;
    this.facts[2 * slot + 1] = flags;
  }

  settle(slot: number, value: unknown): void {
    this.out[slot] = value as T;
    this.onSettle();
    if (--this.pending === 0) this.resolve(this.out);
  }
}

/**
 * Loop detection for many sessions over worker threads, sessions sticky to one worker each. Every method that
 * takes a session id rejects one that is not a non-empty string with InvalidEventError, as LoopEngine does.
 */
export class LoopPool extends LoopPoolEmitterBase {
  /** The pool's options, resolved. */
  readonly options: ResolvedPoolOptions;
  private readonly shards: PoolShard[];
  private readonly workerShards: Shard[];
  private queued = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly drained: (() => void)[] = [];
  /** A caller is enqueueing (callers take turns, in order). */
  private turn = false;
  private closing = false;
  private destroyed: Promise<void> | null = null;
  private readonly counts = { sessionsRestored: 0, sessionsLost: 0 };

  /**
   * Validates every option (errors name it) and starts the workers. Options are plain data: functions,
   * custom detectors, `stats` and `onDetection` cannot cross to worker threads and are refused.
   */
  constructor(options: LoopPoolOptions = {}) {
    super();
    this.options = resolvePoolOptions(options);
    const filename = this.options.workers > 0 ? workerFile() : '';
    const events = {
      lost: (sessionId: string, restoredFrom: number | null, shard: number): void => {
        this.counts.sessionsLost++;
        this.emit('sessionLost', Object.freeze({ sessionId, restoredFrom, shard }) satisfies LostSession);
      },
      restored: (): void => void this.counts.sessionsRestored++,
      restarted: (shard: number, reason: string): void => void this.emit('workerRestart', Object.freeze({ shard, reason })),
    };
    // the workers' walk of each tool's args, so calls can be encoded here once for their module
    const detection = this.options.detection;
    const argsEncoder = new ArgsEncoder(ENCODED, detection.maxDepth, (tool) => detection.ignoreFields.length === 0 && (detection.tools.get(tool)?.ignoreFields?.length ?? 0) === 0);
    this.workerShards = Array.from({ length: this.options.workers }, (_, i) => new Shard(i, filename, this.options.engine, this.options.snapshotEvery, this.options.maxBatch, events, argsEncoder, this.options.batchDeadlineMs));
    this.shards = this.options.inlineShard ? [...this.workerShards, new InlineShard(this.options.engine)] : this.workerShards;
  }

  /**
   * Checks calls of many sessions (each event names its session in `session`); resolves to the verdicts
   * (or null) in the order of the events, each what a LoopDetector of that session would give. Never
   * rejects for one call: an invalid event, a call that could not be sent or that died with its worker
   * holds its error in its place. Waits while `maxQueued` calls are already queued. Rejects with
   * ClosedError once `close()` was called.
   */
  async checkBatch(events: readonly SessionEvent[]): Promise<(Verdict | null | Error)[]> {
    this.ensureOpen();
    if (!Array.isArray(events)) throw new InvalidEventError('events', `events must be an array of tool calls with a "session" id, received ${describe(events)}`);
    return this.submit<Verdict | null | Error>(events.length, (outcome, i, touched) => this.enqueueCheck(outcome, i, events[i], touched));
  }

  /**
   * checkBatch for calls given as bytes: each line one events-format record (a JSON object naming its
   * `session` and `tool`, with `args`, `result`, `error`, `text`, `step`, ... as `loopwatch scan` reads
   * them). The calling thread only finds each record's session in its bytes (in the module, without
   * making its values) and hands the bytes to the session's shard, whose thread reads the call; a record
   * that is not read from its bytes is parsed here. A line that holds no call holds an InvalidEventError in
   * its place. The verdicts are checkBatch's for the calls the lines hold.
   */
  async checkLines(lines: readonly Uint8Array[]): Promise<(Verdict | null | Error)[]> {
    this.ensureOpen();
    if (!Array.isArray(lines)) throw new InvalidEventError('lines', `lines must be an array of byte arrays, received ${describe(lines)}`);
    return this.submit<Verdict | null | Error>(lines.length, (outcome, i, touched) => this.enqueueLine(outcome, i, lines[i], touched));
  }

  /**
   * checkBatch for calls given as events (checked as checkBatch checks them) or as lines already routed by
   * their session (RoutedLine: read in the session's shard, as checkLines reads a routed line). For each
   * line that holds a call, its step (NaN: none) and fact flags are written at `facts[2i]` and
   * `facts[2i + 1]` before the promise resolves (`facts` holds two numbers per call); what `loopwatch scan`
   * with worker threads hands its calls over with, so its calling thread never reads a routed record.
   */
  async checkRouted(calls: readonly (SessionEvent | RoutedLine)[], facts: Float64Array): Promise<(Verdict | null | Error)[]> {
    this.ensureOpen();
    return this.submit<Verdict | null | Error>(
      calls.length,
      (outcome, i, touched) => {
        const c = calls[i];
        if (!(c instanceof RoutedLine)) return this.enqueueCheck(outcome, i, c, touched);
        this.queued++;
        const shard = this.shards[shardOf(c.session, this.shards.length)] as PoolShard;
        try {
          shard.line(outcome, i, c.session, c.bytes);
        } catch (err) {
          outcome.settle(i, err instanceof Error ? err : new Error(String(err)));
          return;
        }
        touched.add(shard);
      },
      facts,
    );
  }

  /** Checks one call; a convenience over checkBatch (which amortises better). */
  async check(sessionId: string, event: Omit<SessionEvent, 'session'>): Promise<Verdict | null> {
    const [v] = await this.checkBatch([{ ...event, session: sessionId } as SessionEvent]);
    if (v instanceof Error) throw v;
    return v ?? null;
  }

  /**
   * Two-phase calls of many sessions, each naming its session and its `phase` (`propose` or `record`);
   * resolves to what LoopEngine.decideBatch gives, in the order of the calls: each session's calls run in
   * order, among its checks, on its worker. Never rejects for one call: an invalid call, one that could not
   * be sent or that died with its worker holds its error in its place. Waits while `maxQueued` calls are
   * queued; rejects with ClosedError once `close()` was called.
   */
  async decideBatch(calls: readonly SessionLiveCall[]): Promise<(LiveDecision | Error)[]> {
    this.ensureOpen();
    if (!Array.isArray(calls)) throw new InvalidEventError('calls', `calls must be an array of tool calls with a "session" id and a "phase", received ${describe(calls)}`);
    return this.submit<LiveDecision | Error>(calls.length, (outcome, i, touched) => this.enqueueLive(outcome, i, calls[i], touched, null));
  }

  /** Checks a session's call before it runs, without recording it: what LoopEngine.propose says. Rejects with InvalidEventError for a call that is not a readable tool call. */
  async propose(sessionId: string, call: LiveCall): Promise<LiveDecision> {
    return (await this.oneLive(Op.PROPOSE, sessionId, call)) as LiveDecision;
  }

  /** Records a session's call that ran, with its outcome: what LoopEngine.record says. */
  async record(sessionId: string, call: LiveCall): Promise<LiveDecision> {
    return (await this.oneLive(Op.RECORD, sessionId, call)) as LiveDecision;
  }

  /** Says that a session's proposed call was declined and did not run (LoopEngine.decline). */
  async decline(sessionId: string, call: LiveCall): Promise<void> {
    await this.oneLive(Op.DECLINE, sessionId, call);
  }

  /** Feeds a session's streamed text (outside tool calls) to its chanting detector, in order with its calls. */
  async checkText(sessionId: string, text: string): Promise<Verdict | null> {
    if (typeof text !== 'string') throw new InvalidEventError('text', `text must be a string, received ${describe(text)}`);
    const v = await this.one(Op.TEXT, sessionId, text);
    return (v as Verdict | null) ?? null;
  }

  /** Ends a session (after its calls already submitted), freeing its state in its worker. */
  async end(sessionId: string): Promise<void> {
    await this.one(Op.END, sessionId);
  }

  /**
   * Gives a session a fresh start (LoopEngine.freshStart: a person's new prompt), after its calls already
   * submitted and before those submitted later; false when it was not live (nothing is started).
   */
  async freshStart(sessionId: string): Promise<boolean> {
    return (await this.one(Op.FRESH, sessionId)) === true;
  }

  /** The session's snapshot after its calls already submitted, or null when it is not live. */
  async snapshot(sessionId: string): Promise<Uint8Array | null> {
    return ((await this.one(Op.SNAPSHOT, sessionId)) as Uint8Array | null) ?? null;
  }

  /** Puts a session in a snapshot's state, in order with its calls; rejects with SnapshotError for bad bytes. */
  async restore(sessionId: string, bytes: Uint8Array): Promise<void> {
    await this.one(Op.RESTORE, sessionId, undefined, bytes);
  }

  /** The workers' totals (after the calls already submitted) and the pool's own counts. */
  async stats(): Promise<PoolStats> {
    this.ensureOpen();
    const outcome = new Outcome<EngineStats | Error>(this.shards.length, () => this.settled());
    await this.takeTurn();
    this.queued += this.shards.length;
    this.shards.forEach((s, i) => {
      s.op(outcome, i, Op.STATS, '');
      s.kick();
    });
    this.releaseTurn();
    const all = (await outcome.promise).filter((st): st is EngineStats => st !== null && !(st instanceof Error));
    const sum: Record<string, number> = {};
    const nested: Record<'byKind' | 'byAction', Record<string, number>> = { byKind: {}, byAction: {} };
    let confidence = 0;
    for (const st of all) {
      for (const [k, v] of Object.entries(st)) {
        if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
        else if (k === 'byKind' || k === 'byAction') for (const [kk, n] of Object.entries(v as Record<string, number>)) nested[k][kk] = (nested[k][kk] ?? 0) + n;
      }
      confidence += st.averageConfidence * st.detections;
    }
    const detections = sum.detections ?? 0;
    return Object.freeze({
      ...(sum as unknown as EngineStats),
      byKind: Object.freeze(nested.byKind),
      byAction: Object.freeze(nested.byAction) as EngineStats['byAction'],
      averageConfidence: detections === 0 ? 0 : confidence / detections,
      workers: this.workerShards.length,
      workerRestarts: this.shards.reduce((n, s) => n + s.restarts, 0),
      ...this.counts,
      queued: this.queued,
    });
  }

  /** Calls queued or in flight now. */
  get pending(): number {
    return this.queued;
  }

  /** Finishes every call already submitted, then stops the workers. Later use is a ClosedError. */
  close(): Promise<void> {
    if (this.destroyed !== null) return this.destroyed;
    this.closing = true;
    const drained = new Promise<void>((res) => {
      this.drained.push(res);
      this.checkDrained();
    });
    this.destroyed = drained.then(async () => {
      await Promise.all(this.shards.map((s) => s.destroy()));
    });
    return this.destroyed;
  }

  /** Which worker holds a session (0 ... workers - 1). */
  shardOf(sessionId: string): number {
    return shardOf(sessionId, this.shards.length);
  }

  /** The worker shards, for tests that kill a worker. @internal */
  get shardsForTesting(): readonly Shard[] {
    return this.workerShards;
  }

  private ensureOpen(): void {
    if (this.closing) throw new ClosedError('loopwatch: this LoopPool was closed');
  }

  private enqueueCheck(outcome: Outcome<Verdict | null | Error>, i: number, e: unknown, touched: Set<PoolShard>): void {
    this.queued++;
    let id: unknown;
    try {
      id = typeof e === 'object' && e !== null ? (e as { session?: unknown }).session : undefined;
    } catch (err) {
      outcome.settle(i, new InvalidEventError('session', `events[${i}]: ${unreadable('session', err).message}`));
      return;
    }
    if (!isSessionId(id)) {
      outcome.settle(i, new InvalidEventError('session', `events[${i}].session ${SESSION_ID_RULE}, received ${describe(id)}`));
      return;
    }
    let event;
    try {
      event = validateEvent(e);
    } catch (err) {
      outcome.settle(i, err instanceof InvalidEventError ? new InvalidEventError(err.field, `events[${i}]: ${err.message}`) : err);
      return;
    }
    const shard = this.shards[shardOf(id, this.shards.length)] as PoolShard;
    try {
      shard.check(outcome, i, id, event);
    } catch (err) {
      outcome.settle(i, new InvalidEventError(err instanceof InvalidEventError ? err.field : 'args', `events[${i}]: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    touched.add(shard);
  }

  /** Routes a record's bytes to its session's shard (or parses it here, when it is not read from its bytes). */
  private enqueueLine(outcome: Outcome<Verdict | null | Error>, i: number, line: unknown, touched: Set<PoolShard>): void {
    // routed by its first bytes where they say the session (line-route.ts), else read whole to know it
    const session = line instanceof Uint8Array ? (lineRouteSession(line) ?? eventLineSession(line)) : null;
    if (session !== null) {
      this.queued++;
      const shard = this.shards[shardOf(session, this.shards.length)] as PoolShard;
      try {
        shard.line(outcome, i, session, line as Uint8Array);
      } catch (err) {
        outcome.settle(i, err instanceof Error ? err : new Error(String(err)));
        return;
      }
      touched.add(shard);
      return;
    }
    // not read from its bytes (eventLineSession declined it: not read from them a second time) or not bytes
    // at all: parsed here, or refused in its place
    const e = line instanceof Uint8Array ? atLine(parsedEvent(line), i) : eventOfLine(line, i);
    if (e instanceof InvalidEventError) {
      this.queued++;
      outcome.settle(i, e);
    } else this.enqueueCheck(outcome, i, e, touched);
  }

  /** Reads a two-phase call in the calling thread (see readLiveCall) and packs it for its session's shard. */
  private enqueueLive(outcome: Ticket, i: number, c: unknown, touched: Set<PoolShard>, single: { readonly op: LiveOpCode; readonly session: unknown } | null): void {
    this.queued++;
    let shard: PoolShard;
    try {
      const call = readLiveCall(c, i, single);
      shard = this.shards[shardOf(call.session, this.shards.length)] as PoolShard;
      shard.live(outcome, i, call.op, call.session, call.id, call.event);
    } catch (err) {
      outcome.settle(i, liveCallError(err, i, single !== null));
      return;
    }
    touched.add(shard);
  }

  private async oneLive(op: LiveOpCode, sessionId: string, call: LiveCall): Promise<LiveDecision | null> {
    this.ensureOpen();
    const [v] = await this.submit<LiveDecision | null | Error>(1, (outcome, i, touched) => this.enqueueLive(outcome, i, call, touched, { op, session: sessionId }));
    if (v instanceof Error) throw v;
    return v ?? null;
  }

  /**
   * Enqueues `n` operations (`enqueue(outcome, i, touched)` packs the i-th) when it is this caller's turn,
   * waiting for room whenever `maxQueued` are queued; resolves when every one has settled.
   */
  private async submit<T>(n: number, enqueue: (outcome: Outcome<T>, i: number, touched: Set<PoolShard>) => void, facts: Float64Array | null = null): Promise<T[]> {
    const outcome = new Outcome<T>(n, () => this.settled());
    outcome.facts = facts;
    let at = 0;
    await this.takeTurn();
    try {
      while (at < n) {
        if (this.queued >= this.options.maxQueued) await this.room(true); // keeps its place at the front
        const end = Math.min(n, at + Math.max(1, this.options.maxQueued - this.queued));
        const touched = new Set<PoolShard>();
        for (; at < end; at++) enqueue(outcome, at, touched);
        for (const s of touched) s.kick();
      }
    } finally {
      this.releaseTurn();
    }
    return outcome.promise;
  }

  private async one(op: typeof Op.TEXT | typeof Op.END | typeof Op.SNAPSHOT | typeof Op.RESTORE | typeof Op.FRESH, sessionId: string, text?: string, bytes?: Uint8Array): Promise<unknown> {
    this.ensureOpen();
    checkSessionId(sessionId);
    await this.takeTurn();
    const outcome = new Outcome<unknown>(1, () => this.settled());
    try {
      if (this.queued >= this.options.maxQueued) await this.room(true);
      this.queued++;
      const shard = this.shards[shardOf(sessionId, this.shards.length)] as PoolShard;
      shard.op(outcome, 0, op, sessionId, text, bytes);
      shard.kick();
    } finally {
      this.releaseTurn();
    }
    const [v] = await outcome.promise;
    if (v instanceof Error) throw v;
    return v;
  }

  /**
   * Waits for this caller's turn to enqueue: callers enqueue one at a time, in the order they called, so a
   * batch split by backpressure is never overtaken by a later caller's calls.
   */
  private async takeTurn(): Promise<void> {
    if (!this.turn && this.waiting.length === 0 && this.queued < this.options.maxQueued) this.turn = true;
    else await this.room(false);
  }

  private releaseTurn(): void {
    this.turn = false;
    this.passOn();
    this.checkDrained();
  }

  /** Queues for the turn (at the back, or at the front for the caller holding it) until there is room. */
  private room(front: boolean): Promise<void> {
    if (front) this.turn = false;
    return new Promise((res) => {
      if (front) this.waiting.unshift(res);
      else this.waiting.push(res);
      this.passOn();
    });
  }

  /** Gives the turn to the first caller in line when nobody holds it and there is room. */
  private passOn(): void {
    if (!this.turn && this.waiting.length !== 0 && this.queued < this.options.maxQueued) {
      this.turn = true;
      (this.waiting.shift() as () => void)();
    }
  }

  private checkDrained(): void {
    if (this.queued === 0 && !this.turn && this.waiting.length === 0 && this.drained.length !== 0) for (const d of this.drained.splice(0)) d();
  }

  private settled(): void {
    this.queued--;
    this.passOn();
    this.checkDrained();
  }
}
