/**
 * The fleet benchmark: a synthetic fleet (10,000 sessions x 100 calls by default; 50% small, 40% medium,
 * 10% large args, with results) checked in batches of 1,000 calls of 1,000 sessions, by
 *
 * - the seed-style plain-JS pipeline (sorted-keys JSON + MD5 + a window of hex strings per session),
 * - a LoopEngine in this thread (`checkBatch`),
 * - a LoopPool with 1 and 2 workers, and with 1 worker beside a shard checked in this thread (`inlineShard`)
 *   (batches submitted while earlier ones are in flight, up to 8),
 * - the same calls as events-format records' bytes (`checkLines`): a LoopEngine reading them in this thread,
 *   and LoopPools whose calling thread only finds each record's session (2 workers; 1 worker + a shard here).
 *
 * Reported: calls per second over the whole fleet and the latency of a batch (submit to verdicts), p50
 * and p99. Each implementation first warms up on a fleet of other sessions.
 *
 * The calls are built a window of FLEET_WINDOW batches at a time, outside the timed part: the harness never
 * holds the whole fleet's objects (a million events hold over a gigabyte, and the garbage collector's
 * tracing of them was timed as the checker's own work). A pool finishes each window's batches before the
 * next window is built, so its timed part includes a drain per window.
 */
import { readFileSync } from 'node:fs';
import { LoopEngine, type SessionEvent } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import type { ToolEvent } from '../src/types.js';
import { Md5Baseline } from './baselines.js';
import { fleetEvents, fleetSlice } from './fleet.js';
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
  /**
   * CPU time of every thread of this process (this one, the pool's workers, V8's helpers) over the wall
   * time, while the implementation checked the fleet: cores kept busy (issue 29: the engine alone <= ~1.05).
   */
  coresBusy?: number;
  /**
   * CPU time of every thread over this thread's own (Linux: /proc/self/task/PID/stat; NaN elsewhere): for the
   * engine, the cores it keeps busy per core of its own thread, which a loaded machine does not skew as it
   * skews the wall time (V8's compiler and collector threads are the rest).
   */
  cpuPerOwnCpu?: number;
  /** A pool's calls/s over the engine's in this thread in the same run, fed the same way (objects or bytes). */
  vsEngine?: number;
  /** With --repeat: the lowest and highest calls/s over the runs (the median is callsPerSecond). */
  minRate?: number;
  maxRate?: number;
}

/** Calls per batch. */
export const FLEET_BATCH = 1000;
/** Batches a pool may have in flight. */
const POOL_DEPTH = 8;
/** Batches built (and then checked) at a time. */
export const FLEET_WINDOW = 100;

/** A run's timed seconds, the CPU seconds of all threads and of this thread meanwhile, and batch latencies. */
interface Run {
  seconds: number;
  cpuSeconds: number;
  ownCpuSeconds: number;
  latencies: number[];
}

/** CPU seconds of every thread of the process since `from` (a process.cpuUsage() reading). */
function cpuSince(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
}

/** CPU seconds of this (the main) thread so far: utime + stime of /proc/self/task/PID/stat, in 10 ms ticks; NaN where unreadable. */
function ownCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Runs `run` over the fleet's batches `from` to `to`, a window at a time (each built just before it is
 * run, outside the timing); the timed seconds and latencies of all windows together.
 */
async function windowed(sessions: number, calls: number, from: number, to: number, run: (work: readonly SessionEvent[][]) => Run | Promise<Run>): Promise<Run> {
  const total: Run = { seconds: 0, cpuSeconds: 0, ownCpuSeconds: 0, latencies: [] };
  for (let b = from; b < to; b += FLEET_WINDOW) {
    const work = batches(fleetSlice(sessions, calls, b * FLEET_BATCH, Math.min(to, b + FLEET_WINDOW) * FLEET_BATCH));
    const r = await run(work);
    total.seconds += r.seconds;
    total.cpuSeconds += r.cpuSeconds;
    total.ownCpuSeconds += r.ownCpuSeconds;
    for (const l of r.latencies) total.latencies.push(l);
  }
  return total;
}

/** As windowed, with each call handed over as its events-format record's bytes (made before the clock starts). */
async function windowedLines(sessions: number, calls: number, from: number, to: number, run: (work: readonly Buffer[][]) => Run | Promise<Run>): Promise<Run> {
  return windowed(sessions, calls, from, to, (work) => run(work.map((b) => b.map((e) => Buffer.from(JSON.stringify(e))))));
}

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

/** Runs `check` over the batches in this thread, one after another. */
function runHere<T>(check: (batch: T[]) => unknown, work: readonly T[][]): Run {
  const latencies: number[] = [];
  const c0 = process.cpuUsage();
  const own0 = ownCpu();
  const t0 = performance.now();
  for (const b of work) {
    const t = performance.now();
    check(b);
    latencies.push(performance.now() - t);
  }
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuSince(c0), ownCpuSeconds: ownCpu() - own0, latencies };
}

/** Runs `check` over the batches with up to POOL_DEPTH of them in flight. */
async function runInFlight<T>(check: (batch: T[]) => Promise<unknown>, work: readonly T[][]): Promise<Run> {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const c0 = process.cpuUsage();
  const own0 = ownCpu();
  const t0 = performance.now();
  for (const b of work) {
    if (inFlight.size >= POOL_DEPTH) await Promise.race(inFlight);
    const t = performance.now();
    const p: Promise<void> = check(b).then(() => {
      latencies.push(performance.now() - t);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuSince(c0), ownCpuSeconds: ownCpu() - own0, latencies };
}

function runBaseline(sessions: Map<string, Md5Baseline>, work: readonly SessionEvent[][]): Run {
  const latencies: number[] = [];
  const c0 = process.cpuUsage();
  const own0 = ownCpu();
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
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuSince(c0), ownCpuSeconds: ownCpu() - own0, latencies };
}

/** Checks the fleet with every implementation; `which` picks the detector set. */
export async function fleetFigures(which: 'core' | 'all', sessions: number, calls: number, scope: string): Promise<FleetFigure[]> {
  const options = FLEET_DETECTORS[which];
  const total = sessions * calls;
  const nBatches = Math.ceil(total / FLEET_BATCH);
  const warm = batches(fleetEvents(Math.min(sessions, 2000), 10).map((e) => ({ ...e, session: `warm-${e.session}` })));
  const figures: FleetFigure[] = [];
  const add = (impl: string, r: Run, n = total): void => {
    figures.push({ scope, impl, callsPerSecond: n / r.seconds, p50Ms: quantile(r.latencies, 0.5), p99Ms: quantile(r.latencies, 0.99), coresBusy: r.cpuSeconds / r.seconds, cpuPerOwnCpu: r.cpuSeconds / r.ownCpuSeconds });
  };

  // the baseline on a fifth of the fleet's batches (it is the slowest; its rate is what matters)
  const share = Math.max(1, Math.floor(nBatches / 5));
  runBaseline(new Map(), warm);
  const md5 = new Map<string, Md5Baseline>();
  add('plain JS (md5, seed-style)', await windowed(sessions, calls, 0, share, (w) => runBaseline(md5, w)), Math.min(total, share * FLEET_BATCH));

  const engine = new LoopEngine(options);
  runHere((b) => engine.checkBatch(b), warm);
  add('LoopEngine, this thread', await windowed(sessions, calls, 0, nBatches, (w) => runHere((b) => engine.checkBatch(b), w)));
  engine.close();

  for (const [workers, inlineShard] of [[1, false], [2, false], [1, true]] as const) {
    const pool = new LoopPool({ ...options, workers, inlineShard });
    await runInFlight((b) => pool.checkBatch(b), warm);
    add(`LoopPool, ${workers} worker${workers === 1 ? '' : 's'}${inlineShard ? ' + a shard in this thread' : ''}`, await windowed(sessions, calls, 0, nBatches, (w) => runInFlight((b) => pool.checkBatch(b), w)));
    await pool.close();
  }

  // the same calls as events-format records' bytes (as JSON Lines, HTTP bodies and messages bring them):
  // the engine reads each in this thread; a pool's calling thread only finds each one's session
  const warmLines = warm.map((b) => b.map((e) => Buffer.from(JSON.stringify(e))));
  const engineLines = new LoopEngine(options);
  runHere((b) => engineLines.checkLines(b), warmLines);
  add('LoopEngine, this thread, from bytes', await windowedLines(sessions, calls, 0, nBatches, (w) => runHere((b) => engineLines.checkLines(b), w)));
  engineLines.close();
  for (const [workers, inlineShard] of [[2, false], [1, true]] as const) {
    const pool = new LoopPool({ ...options, workers, inlineShard });
    await runInFlight((b) => pool.checkLines(b), warmLines);
    add(`LoopPool, ${workers} worker${workers === 1 ? '' : 's'}${inlineShard ? ' + a shard in this thread' : ''}, from bytes`, await windowedLines(sessions, calls, 0, nBatches, (w) => runInFlight((b) => pool.checkLines(b), w)));
    await pool.close();
  }
  const base = figures[0]?.callsPerSecond ?? NaN;
  const engineRate = (bytes: boolean): number => figures.find((f) => f.impl === `LoopEngine, this thread${bytes ? ', from bytes' : ''}`)?.callsPerSecond ?? NaN;
  for (const f of figures) {
    f.vsBaseline = f.callsPerSecond / base;
    if (f.impl.startsWith('LoopPool')) f.vsEngine = f.callsPerSecond / engineRate(f.impl.endsWith('from bytes'));
  }
  return figures;
}
