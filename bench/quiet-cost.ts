/**
 * Cost harness (not part of the suite): microseconds per quiet call of LoopEngine.checkBatch on the fleet's
 * sessions that never loop, for a detector set and a session count.
 *
 *   node dist/bench/quiet-cost.js all|no-semantic|core [sessions = 10000] [calls = 100]
 *
 * Run it a few times and take the median: timings on a shared VM vary by 10% and more between runs.
 */
import { LoopEngine } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/index.js';
import { FLEET_BATCH, FLEET_DETECTORS } from './fleet-bench.js';
import { fleetEvents, isLooping, sessionName } from './fleet.js';

const VARIANTS: Record<string, LoopDetectorOptions> = {
  all: FLEET_DETECTORS.all,
  'no-semantic': { detectors: { semantic: false } },
  core: FLEET_DETECTORS.core,
};

const [which = 'all', sessions = '10000', calls = '100'] = process.argv.slice(2);
const options = VARIANTS[which];
if (options === undefined) throw new Error(`unknown detector set ${which}: one of ${Object.keys(VARIANTS).join(', ')}`);
const looping = new Set(Array.from({ length: Number(sessions) }, (_, s) => s).filter(isLooping).map(sessionName));
const events = fleetEvents(Number(sessions), Number(calls)).filter((e) => !looping.has(e.session));
const engine = new LoopEngine(options);
const warm = fleetEvents(2000, 20).map((e) => ({ ...e, session: `warm-${e.session}` }));
for (let at = 0; at < warm.length; at += FLEET_BATCH) engine.checkBatch(warm.slice(at, at + FLEET_BATCH));
const t = performance.now();
for (let at = 0; at < events.length; at += FLEET_BATCH) engine.checkBatch(events.slice(at, at + FLEET_BATCH));
const us = ((performance.now() - t) * 1000) / events.length;
console.log(`${which}: ${sessions} sessions x ${calls} calls, ${events.length} quiet calls, ${us.toFixed(2)} µs per call`);
