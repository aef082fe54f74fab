/**
 * The Prometheus series of a NATS worker beside the detection ones `serve` exposes (prometheus.ts
 * detectionRegistry, the same registry): partitions owned, partition moves by direction and reason,
 * repeated deliveries skipped, sessions whose state was not kept, and whether the connection is up. Read
 * when scraped; labels bounded (the moves' kinds and reasons, never a worker or session id).
 */
import type { Registry } from 'prom-client';
import { promClient } from './prometheus.js';
import type { Tally } from './prometheus.js';

/** What the worker series read when scraped. */
export interface WorkerSource {
  /** Partitions owned now. */
  partitionsOwned(): number;
  /** Partition moves by `move/reason`: `acquired/free`, `acquired/stale`, `released/share`, `released/stop`, `released/failed`, `lost/taken`, `lost/broken`. */
  moves(): Tally;
  /** Repeated deliveries skipped (calls already checked into a stored state). */
  duplicates(): number;
  /** Sessions whose state was not kept (each said on stderr). */
  sessionsLost(): number;
  /** Whether the connection to the NATS server is up. */
  connected(): boolean;
}

/** Adds the worker series to `registry` (made by detectionRegistry). */
export function addWorkerSeries(registry: Registry, source: WorkerSource): void {
  const { Counter, Gauge } = promClient();
  const registers = [registry];
  new Gauge({
    name: 'loopwatch_nats_partitions_owned',
    help: 'Partitions of the calls stream this worker owns now',
    registers,
    collect() {
      this.set(source.partitionsOwned());
    },
  });
  new Counter({
    name: 'loopwatch_nats_partition_moves_total',
    help: 'Partitions taken (acquired: free, or stale: its owner stopped answering), given up (released: share, stop, failed) or lost (taken by another worker, or broken: a state not kept)',
    labelNames: ['move', 'reason'],
    registers,
    collect() {
      this.reset();
      for (const [key, n] of source.moves()) {
        const [move = '', reason = ''] = key.split('/');
        this.labels(move, reason).inc(n);
      }
    },
  });
  new Counter({
    name: 'loopwatch_nats_duplicates_total',
    help: 'Repeated deliveries skipped (calls already checked into a stored state)',
    registers,
    collect() {
      this.reset();
      this.inc(source.duplicates());
    },
  });
  new Counter({
    name: 'loopwatch_nats_sessions_lost_total',
    help: 'Sessions whose state was not kept (unreadable, not restorable, not written, or too large)',
    registers,
    collect() {
      this.reset();
      this.inc(source.sessionsLost());
    },
  });
  new Gauge({
    name: 'loopwatch_nats_connected',
    help: '1 while the connection to the NATS server is up, else 0',
    registers,
    collect() {
      this.set(source.connected() ? 1 : 0);
    },
  });
}
