/**
 * Options of a {@link LoopPool}: the detection options every session shares (plain data only: they are
 * sent to worker threads, where functions and class instances cannot go), the engine's session limits,
 * and how the pool batches, bounds and protects its work.
 */
import os from 'node:os';
import { OptionTypeError } from '../errors.js';
import { bool, describe, integer, knownKeys, record } from '../options/checks.js';
import type { LoopDetectorOptions, ResolvedOptions } from '../options/options.js';
import { TOP_KEYS, resolveOptions } from '../options/resolve-options.js';
import { fitSessions } from '../wasm/session-capacity.js';
import { BATCH_DEADLINE_MS } from './batch-watchdog.js';

/** `batchDeadlineMs`: 0 (none) or 100 ms up to a day (a timer's range). */
function deadline(v: unknown): number {
  const ms = integer('options.batchDeadlineMs', v, 0, 86_400_000);
  if (ms !== 0 && ms < 100) throw new OptionTypeError('options.batchDeadlineMs', `options.batchDeadlineMs must be 0 (no deadline) or at least 100 ms, received ${ms}`);
  return ms;
}

/** Options of a LoopPool. */
export interface LoopPoolOptions extends Omit<LoopDetectorOptions, 'sessionId' | 'custom' | 'onDetection' | 'stats' | 'engine'> {
  /** Worker threads, one shard of the sessions each (0 only with `inlineShard`). @default os.availableParallelism() */
  readonly workers?: number;
  /**
   * One more shard, checked in the calling thread (no packing, no copies): on a machine with few cores
   * this thread otherwise only packs calls for the workers. It runs when the calling thread turns to its
   * event loop, so it adds latency to that thread. @default false
   */
  readonly inlineShard?: boolean;
  /**
   * Most sessions live at once over the whole pool (each worker holds its share, at most what its thread's
   * 4 GiB of WebAssembly memory holds under the options). @default 100000, or what the threads hold when fewer
   */
  readonly maxSessions?: number;
  /** A session unused this long (ms) expires in its worker; 0 keeps it. @default 3600000 */
  readonly idleTtlMs?: number;
  /**
   * A session's state is snapshotted after every N of its calls, so that if its worker dies it is restored
   * exactly; 0 takes no snapshots (a dead worker's sessions are reported lost and start again).
   * @default 0
   */
  readonly snapshotEvery?: number;
  /** Most calls sent to a worker in one message. @default 1024 */
  readonly maxBatch?: number;
  /** Most calls queued or in flight over the pool; `checkBatch` waits for room beyond it. @default 65536 */
  readonly maxQueued?: number;
  /**
   * A worker that leaves the batch it runs (or its start) unanswered this long (ms) is taken to hang and
   * ended: its calls get a `SessionLostError`, its sessions come back from their snapshots or are reported
   * lost, as when a worker dies. A worker's boot (a start restoring nothing) gets at least 60000. 0 waits
   * for ever. Minimum 100. @default 120000
   */
  readonly batchDeadlineMs?: number;
  /**
   * Every session only checks calls after the fact (LoopEngine's `checksOnly`): the same verdicts, cheaper;
   * propose, record, decline, snapshot and restore are refused; not with `snapshotEvery`. @default false
   */
  readonly checksOnly?: boolean;
}

/** Pool options, validated, with defaults. */
export interface ResolvedPoolOptions {
  /** The detection and engine options each worker's LoopEngine is made with (plain data). */
  readonly engine: Readonly<Record<string, unknown>>;
  /** The same detection options resolved (for the calling thread's own use: how args are walked). */
  readonly detection: ResolvedOptions;
  readonly workers: number;
  readonly inlineShard: boolean;
  readonly maxSessions: number;
  readonly snapshotEvery: number;
  readonly maxBatch: number;
  readonly maxQueued: number;
  readonly batchDeadlineMs: number;
}

const POOL_KEYS = ['workers', 'inlineShard', 'maxSessions', 'idleTtlMs', 'snapshotEvery', 'maxBatch', 'maxQueued', 'batchDeadlineMs', 'checksOnly'] as const;

/** Throws unless every value in `v` can be sent to a worker thread as data (no functions, no class instances). */
function plainData(path: string, v: unknown, depth = 0): void {
  if (depth > 32) throw new OptionTypeError(path, `${path} is nested too deeply to send to a worker thread`);
  if (typeof v === 'function') {
    throw new OptionTypeError(path, `${path} is a function, which cannot be sent to a worker thread; LoopPool takes plain-data options (use LoopEngine or LoopDetector in this thread for callbacks)`);
  }
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    v.forEach((x, i) => plainData(`${path}[${i}]`, x, depth + 1));
    return;
  }
  const obj = record(path, v);
  for (const [k, x] of Object.entries(obj)) plainData(`${path}.${k}`, x, depth + 1);
}

/** Validates pool options: names, plain data, ranges; the detection options are resolved here once. */
export function resolvePoolOptions(input: unknown = {}): ResolvedPoolOptions {
  const o = record('options', input);
  const detectionKeys = TOP_KEYS.filter((k) => !['sessionId', 'custom', 'onDetection', 'stats', 'engine'].includes(k));
  knownKeys('options', o, [...detectionKeys, ...POOL_KEYS, 'sessionId', 'custom', 'onDetection', 'stats', 'engine']);
  for (const k of ['sessionId', 'custom', 'onDetection', 'stats', 'engine'] as const) {
    if (o[k] !== undefined) {
      throw new OptionTypeError(`options.${k}`, `options.${k} cannot be given to a LoopPool (received ${describe(o[k])}): ${k === 'sessionId' ? 'each call names its session' : k === 'engine' ? 'workers always run the WebAssembly engine' : k === 'stats' ? 'use await pool.stats()' : 'callbacks and detector objects cannot cross to worker threads; use LoopEngine for them'}`);
    }
  }
  const engine: Record<string, unknown> = {};
  // strictValues is what a pool does anyway, in the calling thread: its workers need not check again
  for (const k of detectionKeys) if (o[k] !== undefined && k !== 'strictValues') engine[k] = o[k];
  if (o.strictValues !== undefined) bool('options.strictValues', o.strictValues);
  plainData('options', engine);
  const detection = resolveOptions(engine); // every detection option checked here, with the same messages as LoopDetector
  const inlineShard = o.inlineShard === undefined ? false : bool('options.inlineShard', o.inlineShard);
  const workers = o.workers === undefined ? Math.max(1, os.availableParallelism()) : integer('options.workers', o.workers, inlineShard ? 0 : 1, 256);
  const maxSessions = o.maxSessions === undefined ? 100_000 : integer('options.maxSessions', o.maxSessions, 1, 10_000_000);
  if (o.idleTtlMs !== undefined) engine.idleTtlMs = integer('options.idleTtlMs', o.idleTtlMs, 0);
  const shards = workers + (inlineShard ? 1 : 0);
  // each thread's memory holds its share: a share it cannot hold is refused (or, by default, lowered)
  engine.maxSessions = fitSessions(detection, Math.max(1, Math.ceil(maxSessions / shards)), o.maxSessions === undefined, 'options.maxSessions', shards > 1 ? ` over ${shards} threads, ${Math.ceil(maxSessions / shards).toLocaleString('en-US')} each` : '');
  const maxBatch = o.maxBatch === undefined ? 1024 : integer('options.maxBatch', o.maxBatch, 1, 1 << 20);
  const snapshotEvery = o.snapshotEvery === undefined ? 0 : integer('options.snapshotEvery', o.snapshotEvery, 0);
  if (o.checksOnly !== undefined && bool('options.checksOnly', o.checksOnly)) {
    if (snapshotEvery !== 0) throw new OptionTypeError('options.checksOnly', `options.checksOnly cannot be given with options.snapshotEvery (${snapshotEvery}): sessions that check only after the fact are never snapshotted`);
    engine.checksOnly = true;
  }
  return Object.freeze({
    engine: Object.freeze(engine),
    detection,
    workers,
    inlineShard,
    maxSessions,
    snapshotEvery,
    maxBatch,
    maxQueued: o.maxQueued === undefined ? 65_536 : integer('options.maxQueued', o.maxQueued, 1, 1 << 24),
    batchDeadlineMs: o.batchDeadlineMs === undefined ? BATCH_DEADLINE_MS : deadline(o.batchDeadlineMs),
  });
}
