/**
 * Profiling harness (not part of the suite): PROF=out.cpuprofile node dist/bench/prof-fleet.js core|all [sessions] [calls]
 * [objects|lines]: the fleet through `checkBatch` (objects) or `checkLines` (each call its record's bytes, made
 * outside the timing).
 */
import { LoopEngine } from '../src/engine/loop-engine.js';
import { FLEET_BATCH, FLEET_DETECTORS } from './fleet-bench.js';
import { fleetEvents, fleetSlice } from './fleet.js';

const [which = 'core', sessions = '10000', calls = '100', way = 'objects'] = process.argv.slice(2);
const total = Number(sessions) * Number(calls);
const engine = new LoopEngine(FLEET_DETECTORS[which as 'core' | 'all']);
const warm = fleetEvents(2000, 50).map((e) => ({ ...e, session: `w-${e.session}` }));
const warmLines = way === 'lines' ? warm.map((e) => Buffer.from(JSON.stringify(e))) : [];
for (let at = 0; at < warm.length; at += FLEET_BATCH) {
  if (way === 'lines') engine.checkLines(warmLines.slice(at, at + FLEET_BATCH));
  else engine.checkBatch(warm.slice(at, at + FLEET_BATCH));
}
import { PerformanceObserver } from 'node:perf_hooks';
let gcMs = 0;
let timing = false;
const gcKinds: Record<string, number> = {};
const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) { if (!timing) continue; gcMs += e.duration; const k = String((e as unknown as { detail?: { kind?: number } }).detail?.kind); gcKinds[k] = (gcKinds[k] ?? 0) + e.duration; } });
obs.observe({ entryTypes: ['gc'] });
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const insp = new Session();
if (process.env.PROF) { insp.connect(); await insp.post('Profiler.enable'); await insp.post('Profiler.start'); }
if (process.env.HEAP) { insp.connect(); await insp.post('HeapProfiler.enable'); await insp.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: !process.env.LIVE, includeObjectsCollectedByMinorGC: !process.env.LIVE }); }
// built a window at a time (outside the timing), as the fleet benchmark does
let ms = 0;
let cpuUs = 0;
for (let w = 0; w < total; w += 100 * FLEET_BATCH) {
  let events = fleetSlice(Number(sessions), Number(calls), w, w + 100 * FLEET_BATCH);
  const lines = way === 'lines' ? events.map((e) => Buffer.from(JSON.stringify(e))) : [];
  if (way === 'lines') events = [];
  // GC=1 (with --expose-gc): the window's inputs promoted before the clock starts, so that the timed
  // scavenges copy only what the checker itself keeps
  if (process.env.GC) (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 0)); // the observer's entries of the build delivered while not timing
  timing = true;
  const c0 = process.cpuUsage();
  const t = performance.now();
  if (way === 'lines') for (let at = 0; at < lines.length; at += FLEET_BATCH) engine.checkLines(lines.slice(at, at + FLEET_BATCH));
  else for (let at = 0; at < events.length; at += FLEET_BATCH) engine.checkBatch(events.slice(at, at + FLEET_BATCH));
  ms += performance.now() - t;
  const c = process.cpuUsage(c0);
  cpuUs += c.user + c.system;
  await new Promise((r) => setTimeout(r, 0));
  timing = false;
}
if (process.env.HEAP) { const { profile } = await insp.post('HeapProfiler.stopSampling'); writeFileSync(process.env.HEAP, JSON.stringify(profile)); }
if (process.env.PROF) { const { profile } = await insp.post('Profiler.stop'); writeFileSync(process.env.PROF, JSON.stringify(profile)); }
await new Promise((r) => setTimeout(r, 10));
console.log(`gc ${gcMs.toFixed(0)} ms of ${ms.toFixed(0)} ms`, JSON.stringify(gcKinds));
console.log(which, way, `${Math.round(total / (ms / 1000))} calls/s`, `${((ms * 1e6) / total).toFixed(0)} ns/call`, `CPU (all threads) ${((cpuUs * 1e3) / total).toFixed(0)} ns/call`);
