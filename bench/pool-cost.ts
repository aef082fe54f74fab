/**
 * Cost harness (not part of the suite): calls per second of a LoopPool with one worker and a shard in the
 * calling thread, or of a LoopEngine, over the fleet's calls (objects), batches of 1,000 with up to 8 in
 * flight, after a warm-up on other sessions.
 *
 *   node dist/bench/pool-cost.js core|all pool|engine [sessions = 10000] [calls = 40]
 *
 * Run builds alternating, a few times each: timings on a shared VM vary by 10% and more between runs.
 */
import { LoopEngine } from '../src/engine/loop-engine.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import { FLEET_BATCH, FLEET_DETECTORS } from './fleet-bench.js';
import { fleetEvents } from './fleet.js';

const [which = 'core', mode = 'pool', sessions = '10000', calls = '40'] = process.argv.slice(2);
if (which !== 'core' && which !== 'all') throw new Error(`unknown detector set ${which}: core or all`);
const options = FLEET_DETECTORS[which];
const events = fleetEvents(Number(sessions), Number(calls));
const batches: (typeof events)[] = [];
for (let at = 0; at < events.length; at += FLEET_BATCH) batches.push(events.slice(at, at + FLEET_BATCH));
const warm = fleetEvents(2000, 10).map((e) => ({ ...e, session: `warm-${e.session}` }));

if (mode === 'engine') {
  const engine = new LoopEngine(options);
  for (let at = 0; at < warm.length; at += FLEET_BATCH) engine.checkBatch(warm.slice(at, at + FLEET_BATCH));
  const t0 = performance.now();
  for (const b of batches) engine.checkBatch(b);
  console.log(`engine ${which}: ${Math.round(events.length / ((performance.now() - t0) / 1000))} calls/s`);
  engine.close();
} else {
  const pool = new LoopPool({ ...options, workers: 1, inlineShard: true });
  for (let at = 0; at < warm.length; at += FLEET_BATCH) await pool.checkBatch(warm.slice(at, at + FLEET_BATCH));
  const inFlight = new Set<Promise<unknown>>();
  const t0 = performance.now();
  for (const b of batches) {
    if (inFlight.size >= 8) await Promise.race(inFlight);
    const p: Promise<unknown> = pool.checkBatch(b).then(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  console.log(`pool (1 worker + a shard here) ${which}: ${Math.round(events.length / ((performance.now() - t0) / 1000))} calls/s`);
  await pool.close();
}
