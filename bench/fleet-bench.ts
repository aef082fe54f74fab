/**
 * The fleet benchmark: a synthetic fleet (10,000 sessions x 100 calls by default; 50% small, 40% medium,
 * 10% large args, with results) checked in batches of 1,000 calls of 1,000 sessions, by
 *
 * - the seed-style plain-JS pipeline (sorted-keys JSON + MD5 + a window of hex strings per session),
 * - a LoopEngine in this thread (`checkBatch`),
 * - a LoopPool with 1 and 2 workers, and with 1 worker beside a shard checked in this thread (`inlineShard`)
 *   (batches submitted while earlier ones are in flight, up to 8).
 *
 * Reported: calls per second over the whole fleet and the latency of a batch (submit to verdicts), p50
 * and p99. Each implementation first warms up on a fleet of other sessions.
 */
import { LoopEngine, type SessionEvent } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import type { ToolEvent } from '../src/types.js';
import { Md5Baseline } from './baselines.js';
import { fleetEvents } from './fleet.js';
import { CORE } from './index-core.js';

/** One implementation's figures on the fleet. */
export interface FleetFigure {
  scope: string;
  impl: string;
  callsPerSecond: number;
  /** Batch latency, ms. */
  p50Ms: number;
  p99Ms: number;
  /** callsPerSecond over the plain-JS baseline's, measured in the same process. */
  vsBaseline?: number;
}

/** Calls per batch. */
export const FLEET_BATCH = 1000;
/** Batches a pool may have in flight. */
const POOL_DEPTH = 8;

/** Detector sets the fleet is checked with. */
export const FLEET_DETECTORS: Readonly<Record<'core' | 'all', LoopDetectorOptions>> = {
  core: { detectors: { ...CORE, resultRepeat: true } },
  all: {},
};

function quantile(xs: readonly number[], q: number): number {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))] ?? NaN;
}

function batches(events: readonly SessionEvent[]): SessionEvent[][] {
  const out: SessionEvent[][] = [];
  for (let at = 0; at < events.length; at += FLEET_BATCH) out.push(events.slice(at, at + FLEET_BATCH));
  return out;
}

function runEngine(engine: LoopEngine, work: readonly SessionEvent[][]): { seconds: number; latencies: number[] } {
  const latencies: number[] = [];
  const t0 = performance.now();
  for (const b of work) {
    const t = performance.now();
    engine.checkBatch(b);
    latencies.push(performance.now() - t);
  }
  return { seconds: (performance.now() - t0) / 1000, latencies };
}

async function runPool(pool: LoopPool, work: readonly SessionEvent[][]): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  for (const b of work) {
    if (inFlight.size >= POOL_DEPTH) await Promise.race(inFlight);
    const t = performance.now();
    const p: Promise<void> = pool.checkBatch(b).then(() => {
      latencies.push(performance.now() - t);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  return { seconds: (performance.now() - t0) / 1000, latencies };
}

function runBaseline(work: readonly SessionEvent[][]): { seconds: number; latencies: number[] } {
  const sessions = new Map<string, Md5Baseline>();
  const latencies: number[] = [];
  const t0 = performance.now();
  for (const b of work) {
    const t = performance.now();
    for (const e of b) {
      let s = sessions.get(e.session);
      if (s === undefined) sessions.set(e.session, (s = new Md5Baseline()));
      s.check(e as ToolEvent);
    }
    latencies.push(performance.now() - t);
  }
  return { seconds: (performance.now() - t0) / 1000, latencies };
}

/** Checks the fleet with every implementation; `which` picks the detector set. */
export async function fleetFigures(which: 'core' | 'all', sessions: number, calls: number, scope: string): Promise<FleetFigure[]> {
  const options = FLEET_DETECTORS[which];
  const work = batches(fleetEvents(sessions, calls));
  const total = sessions * calls;
  const warm = batches(fleetEvents(Math.min(sessions, 2000), 10).map((e) => ({ ...e, session: `warm-${e.session}` })));
  const figures: FleetFigure[] = [];
  const add = (impl: string, r: { seconds: number; latencies: number[] }, n = total): void => {
    figures.push({ scope, impl, callsPerSecond: n / r.seconds, p50Ms: quantile(r.latencies, 0.5), p99Ms: quantile(r.latencies, 0.99) });
  };

  // the baseline on a fifth of the fleet's batches (it is the slowest; its rate is what matters)
  const share = work.slice(0, Math.max(1, Math.floor(work.length / 5)));
  runBaseline(warm);
  add('plain JS (md5, seed-style)', runBaseline(share), share.reduce((n, b) => n + b.length, 0));

  const engine = new LoopEngine(options);
  runEngine(engine, warm);
  add('LoopEngine, this thread', runEngine(engine, work));
  engine.close();

  for (const [workers, inlineShard] of [[1, false], [2, false], [1, true]] as const) {
    const pool = new LoopPool({ ...options, workers, inlineShard });
    await runPool(pool, warm);
    add(`LoopPool, ${workers} worker${workers === 1 ? '' : 's'}${inlineShard ? ' + a shard in this thread' : ''}`, await runPool(pool, work));
    await pool.close();
  }
  const base = figures[0]?.callsPerSecond ?? NaN;
  for (const f of figures) f.vsBaseline = f.callsPerSecond / base;
  return figures;
}
