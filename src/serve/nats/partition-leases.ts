/**
 * Which worker owns which partition: leases kept in the `loopwatch-owners` key-value bucket. The server here
 * is 2.10 (pinned consumers need 2.11), and leases also spread partitions evenly, which pinning (first puller
 * wins) does not.
 *
 * - Every worker puts its heartbeat `w.<worker>` each `leaseMs / 3`, and renews each lease `p.<n>` it holds
 *   with compare-and-set on the key's revision: a renewal that fails means another worker took the
 *   partition, and the partition is dropped at once (`lost`), its state unwritten.
 * - A key is stale when no update of it was seen for `leaseMs`, timed by each worker's own monotonic clock
 *   from a watch on the bucket (no clocks compared across machines).
 * - Each worker's share: the partitions spread over the live workers (sorted by id, the first ones get one
 *   more when they do not divide evenly). A worker over its share releases its highest partitions (after
 *   writing their sessions); one under it claims free or stale ones (create, or update at the stale
 *   revision: two claimants cannot both win).
 */
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/transport-node';
import type { AcquireReason, LostReason, ReleaseReason, WorkersChange } from './move-reason.js';
import { warnNats } from './nats-warning.js';
import { leaseKey, workerKey } from './subjects.js';

/** What the worker does when ownership changes. */
export interface LeaseHandlers {
  /** The partition is now this worker's (`epoch`: the lease's revision, new at every claim): start consuming it. */
  acquire(p: number, epoch: number, reason: AcquireReason): Promise<void>;
  /** Give the partition up: stop consuming and write its sessions (resolves when written). */
  release(p: number, reason: ReleaseReason): Promise<void>;
  /** The partition was taken by another worker: drop it without writing. */
  lost(p: number, reason: LostReason): void;
  /** Workers joined, stopped or went silent since the last round (not called for the first round's view). */
  workers?(change: WorkersChange): void;
}

/** The last update of a key the watch delivered, and when this worker first saw it (performance.now()). */
export interface Seen {
  revision: number;
  value: string;
  deleted: boolean;
  at: number;
}

/**
 * What is known of a key after the watch delivered it at `revision`, seen at `now`. A key delivered again at
 * the revision already seen (a new watch replays every key's last value) keeps the time it was first seen:
 * it has not been updated since, so a dead worker's heartbeat and leases stay as stale as they were, and a
 * watch started again does not put off taking its partitions over by one more lease.
 */
export function seenUpdate(before: Seen | undefined, revision: number, value: string, deleted: boolean, now: number): Seen {
  return { revision, value, deleted, at: before !== undefined && before.revision === revision ? before.at : now };
}

/** The share of `partitions` for the worker at `rank` among `workers` live workers. */
export function shareOf(partitions: number, workers: number, rank: number): number {
  return Math.floor(partitions / workers) + (rank < partitions % workers ? 1 : 0);
}

/** Partition leases of one worker. */
export class PartitionLeases {
  private readonly seen = new Map<string, Seen>();
  /** The last worker each lease key was put by (kept after its delete: who handed the partition back). */
  private readonly lastHolder = new Map<string, string>();
  private readonly held = new Map<number, number>(); // partition -> lease revision
  private watcher: QueuedIterator<KvWatchEntry> | undefined;
  /** When the current watch was started (performance.now()). */
  private watchedAt = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly started = performance.now();
  /** The live workers of the last round that claimed (undefined before it: the first view is no change). */
  private lastLive: Set<string> | undefined;

  constructor(
    private readonly kv: KV,
    private readonly workerId: string,
    private readonly partitions: number,
    private readonly leaseMs: number,
    private readonly handlers: LeaseHandlers,
  ) {}

  /** Live workers as the last round saw them, this one included (1 before the first round). */
  liveWorkers(): number {
    return Math.max(1, this.lastLive?.size ?? 1);
  }

  /** Partitions held now. */
  owned(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** Starts the heartbeat, the watch and the claim/renew loop. */
  async start(): Promise<void> {
    this.running = true;
    await this.watch();
    await this.kv.put(workerKey(this.workerId), this.workerId);
    this.loop = this.run();
  }

  /**
   * Watches the bucket, each update into `seen`, in place of the watch before (stopped). A watch that ends
   * or fails is said once (never an unhandled rejection, which would end the worker's process), and
   * {@link tick} starts another.
   */
  private async watch(): Promise<void> {
    this.watcher?.stop();
    const watcher = await this.kv.watch({ key: ['w.*', 'p.*'] });
    this.watcher = watcher;
    this.watchedAt = performance.now();
    void (async () => {
      for await (const e of watcher) {
        if (e.operation === 'PUT' && e.key.startsWith('p.')) this.lastHolder.set(e.key, new TextDecoder().decode(e.value));
        this.seen.set(e.key, seenUpdate(this.seen.get(e.key), e.revision, e.operation === 'PUT' ? new TextDecoder().decode(e.value) : '', e.operation !== 'PUT', performance.now()));
      }
    })()
      .catch((e: unknown) => warnNats(`the watch of the leases failed (${(e as Error).message}); watching again`))
      .finally(() => {
        if (this.watcher === watcher) this.watcher = undefined;
      });
  }

  /**
   * Whether the watch is gone or deaf: ended, or this worker's own heartbeat (put every round) unseen for a
   * lease. A watch whose consumer the server dropped (deleted, or gone while the worker was away) delivers
   * nothing more and says nothing: the worker then took every other worker for dead, kept partitions it
   * should hand over, and could never take over a dead worker's (it claimed at the last revision it saw).
   */
  private deafWatch(now: number): boolean {
    if (this.watcher === undefined) return true;
    const own = this.seen.get(workerKey(this.workerId));
    return now - this.watchedAt > this.leaseMs && now - Math.max(own?.at ?? 0, this.watchedAt) > this.leaseMs;
  }

  /** Stops: releases every partition (through the handler), removes the heartbeat. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    for (const p of this.owned()) await this.give(p, { why: 'stop' });
    await this.kv.delete(workerKey(this.workerId)).catch(() => undefined);
    this.watcher?.stop();
  }

  private async run(): Promise<void> {
    const interval = Math.max(50, Math.floor(this.leaseMs / 3));
    while (this.running) {
      try {
        await this.tick();
      } catch (e) {
        warnNats(`lease round failed: ${(e as Error).message}`);
      }
      if (this.running) await new Promise((r) => setTimeout(r, interval));
    }
  }

  private stale(key: string, now: number): boolean {
    const s = this.seen.get(key);
    return s === undefined || s.deleted || now - s.at > this.leaseMs;
  }

  private async tick(): Promise<void> {
    await this.kv.put(workerKey(this.workerId), this.workerId);
    if (this.running && this.deafWatch(performance.now())) {
      warnNats(`the watch of the leases ${this.watcher === undefined ? 'ended' : `heard nothing for ${(this.leaseMs / 1000).toFixed(1)} s, not even this worker's heartbeat`}; watching again`);
      await this.watch();
    }
    for (const [p, revision] of this.held) {
      try {
        this.held.set(p, await this.kv.update(leaseKey(p), this.workerId, revision));
      } catch {
        this.held.delete(p);
        const s = this.seen.get(leaseKey(p));
        // the one that took it, when the watch has shown it already
        const by = s !== undefined && !s.deleted && s.revision > revision && s.value !== this.workerId ? s.value : undefined;
        this.handlers.lost(p, by === undefined ? { why: 'taken' } : { why: 'taken', by });
      }
    }
    const now = performance.now();
    // wait one lease before claiming, to see the other workers' heartbeats first
    if (now - this.started < this.leaseMs / 2) return;
    const live = [...this.seen].filter(([k]) => k.startsWith('w.')).filter(([k]) => !this.stale(k, now)).map(([k]) => k.slice(2));
    if (!live.includes(this.workerId)) live.push(this.workerId);
    live.sort();
    this.sayWorkers(live, now);
    const share = shareOf(this.partitions, live.length, live.indexOf(this.workerId));
    const mine = this.owned();
    for (let i = mine.length - 1; i >= share; i--) await this.give(mine[i] as number, { why: 'share', workers: live.length, share });
    for (let p = 0; p < this.partitions && this.held.size < share && this.running; p++) {
      if (this.held.has(p) || !this.stale(leaseKey(p), now)) continue;
      const s = this.seen.get(leaseKey(p));
      const before = this.lastHolder.get(leaseKey(p));
      const reason: AcquireReason = s === undefined || s.deleted ? { why: 'free', ...(before === undefined || before === this.workerId ? {} : { from: before }) } : { why: 'stale', from: s.value, silentMs: now - s.at };
      let revision: number;
      try {
        revision = s === undefined || s.deleted ? await this.kv.create(leaseKey(p), this.workerId) : await this.kv.update(leaseKey(p), this.workerId, s.revision);
        this.held.set(p, revision);
      } catch {
        continue; // another worker won it
      }
      try {
        await this.handlers.acquire(p, revision, reason);
      } catch (e) {
        warnNats(`could not start partition ${p}: ${(e as Error).message}`);
        await this.give(p, { why: 'failed', problem: (e as Error).message });
      }
    }
  }

  /** Gives a partition up without writing anything (its state is dropped): the lease is deleted, to be claimed again. */
  async forfeit(p: number): Promise<void> {
    const revision = this.held.get(p);
    if (revision === undefined) return;
    this.held.delete(p);
    await this.kv.delete(leaseKey(p), { previousSeq: revision }).catch(() => undefined);
  }

  /**
   * Tells the handler which workers joined, stopped (heartbeat deleted) or went silent (heartbeat stale)
   * since the last round; the first round's view is the start, not a change.
   */
  private sayWorkers(live: readonly string[], now: number): void {
    const before = this.lastLive;
    this.lastLive = new Set(live);
    if (before === undefined || this.handlers.workers === undefined) return;
    const joined = live.filter((w) => !before.has(w));
    const gone = [...before].filter((w) => !this.lastLive?.has(w));
    if (joined.length === 0 && gone.length === 0) return;
    const stopped: string[] = [];
    const silent: { worker: string; silentMs: number }[] = [];
    for (const w of gone) {
      const s = this.seen.get(workerKey(w));
      if (s === undefined || s.deleted) stopped.push(w);
      else silent.push({ worker: w, silentMs: now - s.at });
    }
    this.handlers.workers({ joined, stopped, silent, live: live.length });
  }

  /** Releases a held partition: the handler writes its sessions, then the lease is deleted. */
  private async give(p: number, reason: ReleaseReason): Promise<void> {
    const revision = this.held.get(p);
    if (revision === undefined) return;
    await this.handlers.release(p, reason);
    this.held.delete(p);
    await this.kv.delete(leaseKey(p), { previousSeq: revision }).catch(() => undefined);
  }
}
