/**
 * A shard checked in the calling thread: a LoopEngine behind the same queue-and-kick surface as a worker
 * shard, for pools on machines with few cores, where a thread that only packs calls for workers leaves a
 * core idle. Its calls are not packed or copied; they run in the calling thread when it next turns to its
 * event loop (after the worker shards' batches went out), in submission order, so per-session order holds.
 * It never dies, so its sessions are never lost.
 */
import { LoopEngine } from '../engine/loop-engine.js';
import type { LoopEngineOptions } from '../engine/engine-options.js';
import { liveCallOf } from '../live/live-call.js';
import type { ToolEvent } from '../types.js';
import { type LiveOpCode, Op, type OpCode, lineEvent } from './event-packing.js';
import { assertSendable } from '../wire/portable-values.js';
import type { Ticket } from './shard.js';
import { factFlags, factStep } from '../wire/routed-line.js';

/** What a LoopPool asks of a shard. */
export interface PoolShard {
  /** Queues a check of `event` for `session`; its result settles `owner`'s `slot`. */
  check(owner: Ticket, slot: number, session: string, event: ToolEvent): void;
  /** Queues a check of the call an events-format record's bytes hold (they read from their bytes: see LoopPool.checkLines). */
  line(owner: Ticket, slot: number, session: string, bytes: Uint8Array): void;
  /** Queues a two-phase call of `session` (its id, when given); throws (nothing queued) when it cannot be sent. */
  live(owner: Ticket, slot: number, op: LiveOpCode, session: string, id: string | undefined, event: ToolEvent): void;
  /** Queues another operation (text, end, snapshot, restore, stats). */
  op(owner: Ticket, slot: number, op: Exclude<OpCode, typeof Op.CHECK | typeof Op.LINE | LiveOpCode>, session: string, text?: string, bytes?: Uint8Array): void;
  /** Starts what can start now. */
  kick(): void;
  /** Stops (after the pool drained). */
  destroy(): Promise<void>;
  /** Times the shard's worker was replaced. */
  readonly restarts: number;
}

interface Queued {
  readonly owner: Ticket;
  readonly slot: number;
  readonly op: OpCode;
  readonly session: string;
  /** A check's or two-phase call's event, validated by the pool. */
  readonly event?: ToolEvent;
  /** A two-phase call's id. */
  readonly id?: string;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

/** The calling thread's shard. */
export class InlineShard implements PoolShard {
  readonly restarts = 0;
  private readonly engine: LoopEngine;
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(engineOptions: Readonly<Record<string, unknown>>) {
    this.engine = new LoopEngine(engineOptions as LoopEngineOptions);
  }

  /** Queues a check; throws (nothing queued) when a worker shard could not have taken the event. */
  check(owner: Ticket, slot: number, session: string, event: ToolEvent): void {
    assertSendable(event);
    this.queue.push({ owner, slot, op: Op.CHECK, session, event });
  }

  /** Reads the call from its bytes (line `slot`) here and queues its check; throws its error (nothing queued) when it holds none. */
  line(owner: Ticket, slot: number, session: string, bytes: Uint8Array): void {
    const e = lineEvent(bytes, slot, session);
    if (e instanceof Error) throw e;
    owner.fact?.(slot, factStep(e), factFlags(e));
    this.queue.push({ owner, slot, op: Op.CHECK, session, event: e });
  }

  /** Queues a two-phase call; throws (nothing queued) when a worker shard could not have taken the event. */
  live(owner: Ticket, slot: number, op: LiveOpCode, session: string, id: string | undefined, event: ToolEvent): void {
    assertSendable(event);
    this.queue.push({ owner, slot, op, session, event, ...(id === undefined ? {} : { id }) });
  }

  op(owner: Ticket, slot: number, op: Exclude<OpCode, typeof Op.CHECK | typeof Op.LINE | LiveOpCode>, session: string, text?: string, bytes?: Uint8Array): void {
    this.queue.push({ owner, slot, op, session, ...(text === undefined ? {} : { text }), ...(bytes === undefined ? {} : { bytes }) });
  }

  kick(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  destroy(): Promise<void> {
    this.engine.close();
    return Promise.resolve();
  }

  /** Runs everything queued: runs of checks as one engine batch, other operations one by one. */
  private run(): void {
    this.scheduled = false;
    const q = this.queue;
    this.queue = [];
    let k = 0;
    while (k < q.length) {
      const first = q[k] as Queued;
      if (first.op === Op.CHECK) {
        let end = k;
        while (end < q.length && (q[end] as Queued).op === Op.CHECK) end++;
        const run = q.slice(k, end);
        // the pool validated every call and checked its session id
        let results: readonly unknown[];
        try {
          results = this.engine.checkValidated(
            run.map((x) => x.session),
            run.map((x) => x.event as ToolEvent),
          );
        } catch (err) {
          // never thrown for one call (those hold their error in their place): every call of the run fails
          results = run.map(() => err);
        }
        for (let j = 0; j < run.length; j++) (q[k + j] as Queued).owner.settle((q[k + j] as Queued).slot, results[j] ?? null);
        k = end;
        continue;
      }
      let value: unknown = null;
      try {
        value = this.other(first);
      } catch (err) {
        value = err;
      }
      first.owner.settle(first.slot, value);
      k++;
    }
  }

  private other(x: Queued): unknown {
    switch (x.op) {
      case Op.TEXT:
        return this.engine.checkText(x.session, x.text ?? '');
      case Op.END:
        this.engine.end(x.session);
        return null;
      case Op.FRESH:
        return this.engine.freshStart(x.session);
      case Op.SNAPSHOT:
        return this.engine.snapshot(x.session);
      case Op.RESTORE:
        this.engine.restore(x.session, x.bytes as Uint8Array);
        return null;
      case Op.STATS:
        return this.engine.stats();
      case Op.PROPOSE:
        return this.engine.propose(x.session, liveCallOf(x.event as ToolEvent, x.id));
      case Op.RECORD:
        return this.engine.record(x.session, liveCallOf(x.event as ToolEvent, x.id));
      case Op.DECLINE:
        this.engine.decline(x.session, liveCallOf(x.event as ToolEvent, x.id));
        return null;
      default:
        return null;
    }
  }
}

