/**
 * Bound harness (not part of the suite): where a LoopPool's CPU goes, against a LoopEngine's, in CPU time
 * (which a loaded machine skews far less than wall time). The fleet's calls (bench/fleet.ts) are checked in
 * batches of 1,000 (up to 8 in flight for a pool) by
 *
 * - a LoopEngine in this thread (`checkBatch`),
 * - a LoopPool of `workers` worker threads, no shard in this thread, fed objects (`checkBatch`),
 * - the same pool fed each call's events-format record's bytes (`checkLines`, the bytes made outside the timing),
 *
 * each after a warm-up on other sessions, in turn within a round. Printed per way, medians over the rounds:
 * this (the calling) thread's CPU a call (Linux: /proc/self/task/PID/stat, 10 ms ticks) and every thread's
 * (process.cpuUsage: the workers and V8's helper threads too). The calling thread's CPU a call fed objects,
 * less fed bytes, bounds what encoding calls straight into the buffer a worker reads could save it; what
 * every thread spends over the engine is the pool's own cost.
 *
 *   node dist/bench/pool-thread-cpu.js [core|all] [sessions = 4000] [calls = 40] [rounds = 3] [workers = 2]
 */
import { readFileSync } from 'node:fs';
import { LoopEngine, type SessionEvent } from '../src/engine/loop-engine.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import { FLEET_BATCH, FLEET_DETECTORS } from './fleet-bench.js';
import { fleetEvents } from './fleet.js';
import { median } from './bench-stats.js';

/** This thread's CPU microseconds so far (NaN where /proc cannot be read). */
function ownCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 1e4;
  } catch {
    return NaN;
  }
}

/** Every thread's CPU microseconds so far. */
function allCpu(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** `xs` in batches of FLEET_BATCH. */
function batches<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += FLEET_BATCH) out.push(xs.slice(i, i + FLEET_BATCH));
  return out;
}

const [which = 'all', sessions = '4000', callsArg = '40', roundsArg = '3', workersArg = '2'] = process.argv.slice(2);
if (which !== 'core' && which !== 'all') throw new Error(`unknown detector set ${which}: core or all`);
for (const [name, v] of [['sessions', sessions], ['calls', callsArg], ['rounds', roundsArg], ['workers', workersArg]] as const) {
  if (!/^[1-9]\d*$/.test(v)) throw new Error(`usage: pool-thread-cpu.js [core|all] [sessions] [calls] [rounds] [workers]; ${name} must be a whole number above 0, received "${v}"`);
}
const options = FLEET_DETECTORS[which];
const events = fleetEvents(Number(sessions), Number(callsArg));
const byObjects = batches(events);
const byLines = batches(events.map((e) => Buffer.from(JSON.stringify(e))));
const warm = fleetEvents(1000, 10).map((e): SessionEvent => ({ ...e, session: `warm-${e.session}` }));
const ways = ['engine', 'pool, objects', 'pool, lines'] as const;
const spent = ways.map((): { own: number; all: number }[] => []);

for (let r = 0; r < Number(roundsArg); r++) {
  for (let j = 0; j < ways.length; j++) {
    const k = (j + r) % ways.length;
    const way = ways[k] as (typeof ways)[number];
    if (way === 'engine') {
      const engine = new LoopEngine(options);
      for (const b of batches(warm)) engine.checkBatch(b);
      const own0 = ownCpu();
      const all0 = allCpu();
      for (const b of byObjects) engine.checkBatch(b);
      (spent[k] as { own: number; all: number }[]).push({ own: (ownCpu() - own0) / events.length, all: (allCpu() - all0) / events.length });
      engine.close();
      continue;
    }
    const pool = new LoopPool({ ...options, workers: Number(workersArg) });
    for (const b of batches(warm)) await pool.checkBatch(b);
    const own0 = ownCpu();
    const all0 = allCpu();
    const inFlight = new Set<Promise<unknown>>();
    for (let i = 0; i < byObjects.length; i++) {
      if (inFlight.size >= 8) await Promise.race(inFlight);
      const p: Promise<unknown> = (way === 'pool, objects' ? pool.checkBatch(byObjects[i] as SessionEvent[]) : pool.checkLines(byLines[i] as Buffer[])).then(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    (spent[k] as { own: number; all: number }[]).push({ own: (ownCpu() - own0) / events.length, all: (allCpu() - all0) / events.length });
    await pool.close();
  }
}

console.log(`${which}: ${events.length} calls (${sessions} sessions), ${roundsArg} rounds, pool of ${workersArg} workers; CPU us a call, medians (every round)`);
ways.forEach((way, k) => {
  const xs = spent[k] as { own: number; all: number }[];
  const show = (f: (x: { own: number; all: number }) => number): string => `${median(xs.map(f)).toFixed(2)} [${xs.map((x) => f(x).toFixed(2)).join(' ')}]`;
  console.log(`  ${way.padEnd(14)} this thread ${show((x) => x.own)}   every thread ${show((x) => x.all)}`);
});
