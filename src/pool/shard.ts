/**
 * One shard of a LoopPool: a single-thread piscina pool (so the shard's sessions live on one worker and
 * its batches run in the order they were sent), the batches being filled and in flight, and what the
 * shard knows about each session so that a dead worker's sessions are restored or reported, never
 * silently reset.
 *
 * Calls are packed into the open batch; a batch is sent when fewer than {@link DEPTH} are in flight, so a
 * busy worker's next batch gathers every call that arrives meanwhile. When the worker dies, the batches it
 * held fail (their calls get SessionLostError), batches a worker of another incarnation answered come
 * back stale, and once nothing is in flight the shard starts a new incarnation of its worker with the
 * sessions' last snapshots and sends the stale batches again, in order. Every incarnation ends at the
 * first sign of trouble, settling whatever it held (see worker-incarnation.ts), so nothing sent stays
 * pending; a shard whose worker cannot be started again after {@link START_ATTEMPTS} tries fails its calls
 * with an error naming it. A worker that hangs (its batch unanswered past the deadline, see
 * batch-watchdog.ts) is ended, which fails what it held: the same recovery as for a worker that died.
 */
import { SessionLostError } from '../errors.js';
import { ByteWriter } from '../snapshot/byte-writer.js';
import type { ToolEvent, Verdict } from '../types.js';
import { type LiveOpCode, type OpCode, Op, writeCheck, writeLine, writeLive, writeOp } from './event-packing.js';
import type { ArgsEncoder } from '../wasm/args-encoder.js';
import type { RunResult, StartResult } from './worker-tasks.js';
import { decisionsInto } from './wire-decisions.js';
import { fromWire } from './wire-errors.js';
import { WorkerIncarnation } from './worker-incarnation.js';
import { BatchWatchdog } from './batch-watchdog.js';
import { deepFreeze } from '../wire/deep-freeze.js';

/**
 * Batches in flight per shard: one running, the others waiting in the worker's own port queue. piscina
 * posts them at once (`concurrentTasksPerWorker`); the worker runs them one after the other, in order (its
 * handler is synchronous), and starts the next as soon as one ends, even while the calling thread is busy
 * checking its own shard (with one task at a time, a worker waited ~19% of the time for the calling
 * thread to hand it the next batch).
 */
export const DEPTH = 4;

/** Bytes a batch starts with (it grows when calls need more). */
const BATCH_BYTES = 256 * 1024;
/** Most bytes a new batch starts with room for (batches grow past it as they need). */
const MAX_BATCH_START = 16 * 1024 * 1024;
/** Buffers a shard keeps for its next batches. */
const SPARE_BUFFERS = DEPTH + 1;

/** Times a shard tries to start a new worker with its sessions' snapshots before giving them up. */
const START_ATTEMPTS = 3;

/** Receives the outcome of each operation, by slot. */
export interface Ticket {
  settle(slot: number, value: unknown): void;
  /** The facts of a call read from its line (see wire/routed-line.ts), before it settles; for owners that ask. */
  fact?(slot: number, step: number, flags: number): void;
}

/** What the shard knows of one session. */
export interface SessionTrack {
  readonly id: string;
  /** Sequence number of the last batch sent with an operation of the session. */
  lastSent: number;
  /** Sequence number of the last batch applied with an operation of the session. */
  lastDone: number;
  /** The session's last snapshot, the batch after which it was taken, and the calls it had checked. */
  snap: Uint8Array | null;
  snapSeq: number;
  snapChecks: number;
  /** Set while recovering: an operation of the session was in the batch that died with the worker. */
  inFailed: boolean;
}

/** A batch being filled or sent. */
interface Batch {
  readonly seq: number;
  readonly w: ByteWriter;
  readonly owners: Ticket[];
  readonly slots: number[];
  readonly tracks: (SessionTrack | null)[];
  readonly ops: OpCode[];
  /** Two-phase calls in the batch, and their call ids by op index (null: none given). */
  live: number;
  ids: Map<number, string> | null;
  buffer: ArrayBuffer | null;
  length: number;
  /** Set when its answer (or failure) arrived. */
  result: RunResult | null;
  failure: unknown;
  settled: boolean;
}

/** What a shard reports to its pool. */
export interface ShardEvents {
  /** A session's state could not be kept exactly across a worker's death. */
  lost(sessionId: string, restoredFrom: number | null, shard: number): void;
  /** A session was restored exactly from its snapshot after a worker's death. */
  restored(sessionId: string, shard: number): void;
  /** The shard's worker died and was replaced. */
  restarted(shard: number, reason: string): void;
}

/** One worker thread's share of the sessions. */
export class Shard {
  private readonly worker: WorkerIncarnation;
  /** The recovery under way, if any. */
  private recovery: Promise<void> | null = null;
  private stopped = false;
  private epoch = 0;
  private seq = 0;
  private open: Batch | null = null;
  private readonly ready: Batch[] = [];
  private readonly inflight: Batch[] = [];
  private readonly stale: Batch[] = [];
  private readonly failed: Batch[] = [];
  private recovering = false;
  private broken: Error | null = null;
  /** Sessions the shard's worker holds (or will, once their batches run). */
  readonly sessions = new Map<string, SessionTrack>();
  /** Times the worker was replaced. */
  restarts = 0;
  /** Ends the worker when the batch it runs (or its start) goes unanswered past the deadline. */
  private readonly watchdog: BatchWatchdog<Batch>;
  /** Why the watchdog ended the current incarnation (it names the recovery's reason). */
  private hungWhy: string | null = null;

  constructor(
    readonly index: number,
    filename: string,
    private readonly engineOptions: Readonly<Record<string, unknown>>,
    private readonly snapshotEvery: number,
    private readonly maxBatch: number,
    private readonly events: ShardEvents,
    private readonly argsEncoder: ArgsEncoder | null = null,
    deadlineMs = 0,
  ) {
    // room for the start task beside DEPTH batches
    this.worker = new WorkerIncarnation(filename, DEPTH + 1, (reason) => this.lose(reason));
    this.watchdog = new BatchWatchdog<Batch>(deadlineMs, (what, ms) => this.hung(what, ms));
    this.watchdog.during('start', this.start([]), true).catch(() => undefined); // a failure shows as failed batches or the worker's end, handled there
  }

  /** The worker died by itself (its tasks failed with it): the shard recovers once nothing is in flight. */
  private lose(reason: string): void {
    if (this.stopped) return;
    this.recovering = true;
    this.lostWhy ??= reason;
    if (this.inflight.length === 0) this.recoverOnce();
  }

  /** Why the current incarnation ended, when it ended with no batch failing. */
  private lostWhy: string | null = null;

  /** The watchdog's verdict: the worker hangs; ending it fails what it holds, and the recovery follows. */
  private hung(what: string, ms: number): void {
    if (this.stopped || this.worker.over) return;
    this.hungWhy = `the worker answered no ${what} within ${ms} ms and was ended (a hung worker)`;
    this.worker.end();
  }

  /** Starts the recovery unless one is under way. */
  private recoverOnce(): void {
    if (this.recovery !== null || this.stopped) return;
    this.recovery = this.recover().finally(() => {
      this.recovery = null;
    });
  }

  /** Packs a check; throws an InvalidEventError (nothing packed) when the event cannot be sent. */
  check(owner: Ticket, slot: number, session: string, event: ToolEvent): void {
    const b = this.batch();
    writeCheck(b.w, session, event, this.argsEncoder);
    this.add(b, owner, slot, this.track(session, b.seq), Op.CHECK);
  }

  /** Packs a two-phase call; throws an InvalidEventError (nothing packed) when the event cannot be sent. */
  live(owner: Ticket, slot: number, op: LiveOpCode, session: string, id: string | undefined, event: ToolEvent): void {
    const b = this.batch();
    writeLive(b.w, op, session, id, event, this.argsEncoder);
    b.live++;
    if (id !== undefined) (b.ids ??= new Map()).set(b.owners.length, id);
    this.add(b, owner, slot, this.track(session, b.seq), op);
  }

  /** Packs an operation without an event (see writeOp). */
  /** Queues a check of the call an events-format record's bytes hold (line `slot`): the bytes go as they are, the worker reads them. */
  line(owner: Ticket, slot: number, session: string, bytes: Uint8Array): void {
    const b = this.batch();
    writeLine(b.w, session, slot, bytes);
    this.add(b, owner, slot, this.track(session, b.seq), Op.CHECK);
  }

  op(owner: Ticket, slot: number, op: Exclude<OpCode, typeof Op.CHECK | typeof Op.LINE | LiveOpCode>, session: string, text?: string, bytes?: Uint8Array): void {
    const b = this.batch();
    writeOp(b.w, op, session, text, bytes);
    const track = op === Op.STATS || op === Op.SNAPSHOT ? null : this.track(session, b.seq);
    this.add(b, owner, slot, track, op);
  }

  /** Sends what can be sent now. */
  kick(): void {
    if (this.broken !== null) {
      this.failAll(this.broken);
      return;
    }
    while (!this.recovering && this.inflight.length < DEPTH) {
      const b = this.ready.shift() ?? this.takeOpen();
      if (b === undefined) return;
      this.send(b);
    }
  }

  /** Stops the worker (after the pool drained), and any recovery under way. */
  async destroy(): Promise<void> {
    this.stopped = true;
    this.watchdog.stop();
    await this.worker.stop();
    await this.recovery;
  }

  /**
   * Makes the current worker spin for `ms` (its event loop held, as a detector stuck in a loop would), or,
   * with `atStart`, the next worker started for the shard spin while it restores its sessions. @internal
   */
  hangForTesting(ms: number, atStart = false): void {
    if (atStart) this.startHangMs = ms;
    else this.worker.run({ kind: 'hang', ms }).catch(() => undefined);
  }

  /** Set by hangForTesting: the next start spins this long first. */
  private startHangMs = 0;

  /** The worker thread, for tests that kill it. @internal */
  get threads(): readonly { terminate(): Promise<number> }[] {
    return this.worker.threads;
  }

  /** Buffers the worker gave back, for the next batches to be written into. */
  private readonly spare: ArrayBuffer[] = [];
  /** Bytes a new batch starts with room for: as large as the largest batch so far needed (up to MAX_BATCH_START). */
  private batchStart = BATCH_BYTES;

  private batch(): Batch {
    if (this.open === null) {
      this.open = { seq: ++this.seq, w: new ByteWriter(this.batchStart, this.spare.pop()), owners: [], slots: [], tracks: [], ops: [], live: 0, ids: null, buffer: null, length: 0, result: null, failure: null, settled: false };
    }
    return this.open;
  }

  private takeOpen(): Batch | undefined {
    const b = this.open;
    if (b === null) return undefined;
    this.open = null;
    return b;
  }

  private add(b: Batch, owner: Ticket, slot: number, track: SessionTrack | null, op: OpCode): void {
    b.owners.push(owner);
    b.slots.push(slot);
    b.tracks.push(track);
    b.ops.push(op);
    if (b.owners.length >= this.maxBatch) {
      this.ready.push(b);
      this.open = null;
    }
  }

  private track(session: string, seq: number): SessionTrack {
    let t = this.sessions.get(session);
    if (t === undefined) {
      t = { id: session, lastSent: seq, lastDone: 0, snap: null, snapSeq: 0, snapChecks: 0, inFailed: false };
      this.sessions.set(session, t);
    } else t.lastSent = seq;
    return t;
  }

  private send(b: Batch): void {
    if (b.buffer === null) {
      const { buffer, length } = b.w.take();
      b.buffer = buffer;
      b.length = length;
      // the next batches start as large as this one needed (no growing and copying on the way)
      while (this.batchStart < length && this.batchStart < MAX_BATCH_START) this.batchStart *= 2;
    }
    const buffer = b.buffer;
    b.buffer = null; // transferred
    b.result = null;
    b.failure = null;
    b.settled = false;
    this.inflight.push(b);
    this.watchHead();
    this.worker.run({ kind: 'run', epoch: this.epoch, buffer, length: b.length }, [buffer]).then(
      (r) => {
        b.result = r as RunResult;
        b.settled = true;
        this.drain();
      },
      (err: unknown) => {
        b.failure = err;
        b.settled = true;
        this.drain();
      },
    );
  }

  /** Handles answers in the order the batches were sent. */
  private drain(): void {
    while (this.inflight.length !== 0 && (this.inflight[0] as Batch).settled) {
      const b = this.inflight.shift() as Batch;
      if (b.result === null) {
        this.failed.push(b);
        this.recovering = true;
        this.worker.end(); // whatever failed the batch, this incarnation is over
      } else if (b.result.stale === true) {
        b.buffer = b.result.buffer ?? null;
        this.stale.push(b);
        this.recovering = true;
      } else {
        // kept for the next batches, unless one huge batch made it larger than a batch starts
        const back = b.result.buffer;
        if (back !== undefined && back.byteLength <= MAX_BATCH_START && this.spare.length < SPARE_BUFFERS) this.spare.push(back);
        this.apply(b, b.result);
      }
    }
    this.watchHead();
    if (this.recovering && this.inflight.length === 0) this.recoverOnce();
    else this.kick();
  }

  private apply(b: Batch, r: RunResult): void {
    const out: unknown[] = new Array<unknown>(b.owners.length).fill(null);
    for (let k = 0; k < r.verdictAt.length; k++) out[r.verdictAt[k] as number] = deepFreeze(r.verdicts[k] as Verdict);
    for (let k = 0; k < r.errorAt.length; k++) out[r.errorAt[k] as number] = fromWire(r.errors[k] as RunResult['errors'][number]);
    for (let k = 0; k < r.valueAt.length; k++) out[r.valueAt[k] as number] = r.values[k];
    const factAt = r.factAt ?? [];
    for (let k = 0; k < factAt.length; k++) {
      const at = factAt[k] as number;
      (b.owners[at] as Ticket).fact?.(b.slots[at] as number, r.factStep?.[k] as number, r.factFlags?.[k] as number);
    }
    if (b.live !== 0) decisionsInto(out, b.ops, (k) => (b.tracks[k] as SessionTrack).id, b.ids, r);
    for (const t of b.tracks) if (t !== null) t.lastDone = b.seq;
    for (const [session, checks, bytes] of r.snapshots) {
      const t = this.sessions.get(session);
      if (t === undefined) continue;
      t.snap = bytes;
      t.snapSeq = b.seq;
      t.snapChecks = checks;
    }
    for (let k = 0; k < b.ops.length; k++) {
      const t = b.tracks[k];
      if (b.ops[k] === Op.END && t !== null && t !== undefined && t.lastSent <= b.seq) this.sessions.delete(t.id);
    }
    for (const id of r.dropped) {
      const t = this.sessions.get(id);
      if (t !== undefined && t.lastSent <= b.seq) this.sessions.delete(id);
    }
    for (let k = 0; k < out.length; k++) (b.owners[k] as Ticket).settle(b.slots[k] as number, out[k]);
  }

  /** Starts of the worker not yet answered: batches queued behind one are not timed (a start has its own clock). */
  private starting = 0;

  /** Times the oldest unanswered batch, unless a start runs before it (a worker's boot is not its batch's time). */
  private watchHead(): void {
    this.watchdog.watch(this.starting === 0 ? this.inflight[0] : undefined);
  }

  private start(snapshots: readonly (readonly [string, Uint8Array])[]): Promise<StartResult> {
    this.starting++;
    this.epoch++;
    const hangMs = this.startHangMs;
    this.startHangMs = 0;
    const started = this.worker.run({ kind: 'start', epoch: this.epoch, options: this.engineOptions, snapshotEvery: this.snapshotEvery, snapshots, ...(hangMs === 0 ? {} : { hangMs }) }, undefined, true) as Promise<StartResult>;
    const done = (): void => {
      this.starting--;
      this.watchHead();
    };
    started.then(done, done);
    return started;
  }

  /** Starts a new incarnation of the worker with the sessions' snapshots, then sends the stale batches again. */
  private async recover(): Promise<void> {
    const reason = this.hungWhy ?? (this.failed.length !== 0 ? String((this.failed[0] as Batch).failure) : (this.lostWhy ?? 'the worker was replaced while idle'));
    this.lostWhy = null;
    this.hungWhy = null;
    this.worker.end();
    this.restarts++;
    this.events.restarted(this.index, reason);
    for (const b of this.failed) for (const t of b.tracks) if (t !== null) t.inFailed = true;
    let result: StartResult | null = null;
    for (let attempt = 0; attempt < START_ATTEMPTS + 1 && result === null && !this.stopped; attempt++) {
      // the last attempt starts the worker without snapshots, in case one of them is what kills it
      const snapshots = attempt < START_ATTEMPTS ? [...this.sessions.values()].filter((t) => t.snap !== null).map((t) => [t.id, t.snap as Uint8Array] as const) : [];
      try {
        // a start that hangs (a snapshot that makes the worker spin) is ended as a hung batch is
        result = await this.watchdog.during('start', this.start(snapshots), snapshots.length === 0);
        if (this.worker.over) result = null; // it died right after starting
        else if (attempt === START_ATTEMPTS) for (const t of this.sessions.values()) t.snap = null;
      } catch {
        result = null;
      }
      if (result === null) this.worker.end();
    }
    this.hungWhy = null; // a start ended by the watchdog names no later recovery
    if (result === null) {
      this.broken = new Error(`loopwatch: the worker of shard ${this.index} died and could not be restarted (${reason})`);
      this.worker.end();
    }
    this.lostWhy = null;
    this.settleLost(result, reason);
    if (this.broken !== null) this.failAll(this.broken);
  }

  /**
   * After a restart (or the shard's end, `result` null): reports the sessions whose state could not be
   * kept exactly, fails the calls that died with the worker, and sends the stale batches again.
   */
  private settleLost(result: StartResult | null, reason: string): void {
    if (result === null) {
      for (const t of this.sessions.values()) {
        t.snap = null;
        t.inFailed = true;
      }
      result = { failed: [] };
    }
    const refused = new Set(result.failed.map(([id]) => id));
    for (const t of [...this.sessions.values()]) {
      if (refused.has(t.id)) t.snap = null;
      const changed = t.inFailed || t.lastDone > (t.snap === null ? 0 : t.snapSeq);
      if (changed) this.events.lost(t.id, t.snap === null ? null : t.snapChecks, this.index);
      else if (t.snap !== null) this.events.restored(t.id, this.index);
      t.lastDone = t.snap === null ? 0 : t.snapSeq;
    }
    // sessions with nothing left to restore and no call still to send are forgotten
    const pending = [...this.stale, ...this.ready, ...(this.open === null ? [] : [this.open])];
    const minPending = pending.reduce((m, b) => Math.min(m, b.seq), Infinity);
    for (const t of [...this.sessions.values()]) if (t.snap === null && t.lastSent < minPending) this.sessions.delete(t.id);
    for (const b of this.failed) {
      for (let k = 0; k < b.owners.length; k++) {
        const t = b.tracks[k];
        const id = t?.id ?? '';
        const from = t === null || t === undefined || t.snap === null ? null : t.snapChecks;
        (b.owners[k] as Ticket).settle(
          b.slots[k] as number,
          new SessionLostError(id, from, `loopwatch: session "${id}" was lost with its worker (${reason}); this call was not checked, and the session ${this.broken !== null ? `is gone: the worker of shard ${this.index} could not be restarted` : from === null ? 'starts again empty' : `was restored to its snapshot after ${from} calls`}`),
        );
      }
      for (const t of b.tracks) if (t !== null) t.inFailed = false;
    }
    this.failed.length = 0;
    const again = this.stale.splice(0);
    this.recovering = false;
    for (const b of again) {
      if (b.buffer === null) {
        // the stale answer did not bring the bytes back: these calls cannot be sent again
        for (let k = 0; k < b.owners.length; k++) (b.owners[k] as Ticket).settle(b.slots[k] as number, new SessionLostError(b.tracks[k]?.id ?? '', null, 'loopwatch: a batch was lost with its worker'));
        continue;
      }
      this.ready.unshift(b);
    }
    // stale batches go first, in their original order
    this.ready.sort((x, y) => x.seq - y.seq);
    this.kick();
  }

  private failAll(err: Error): void {
    for (const b of [...this.ready.splice(0), ...(this.open === null ? [] : [this.open])]) {
      for (let k = 0; k < b.owners.length; k++) (b.owners[k] as Ticket).settle(b.slots[k] as number, err);
    }
    this.open = null;
  }
}
