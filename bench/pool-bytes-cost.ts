/**
 * Cost harness (not part of the suite): the fleet's calls as events-format records' bytes (`checkLines`),
 * checked by a LoopEngine in this thread or by a LoopPool, with calls per second and where the CPU went:
 * the calling thread's CPU per call (from /proc, Linux only) and every other thread's (workers, and V8's
 * helper threads: the garbage collector's among them), and the process's minor page faults per call.
 *
 *   node dist/bench/pool-bytes-cost.js core|all|all-but-similar engine|pool1|pool2|pool1i [sessions = 10000] [calls = 40] [dist]
 *
 * all-but-similar: every default detector but similar args, the one that keeps each call's args for the
 * next `window + 1` calls (what that retention costs a fleet). With a pool, the other threads' CPU is also
 * split: the busiest ones (the workers) and the rest (V8's and libuv's helpers).
 * pool1: 1 worker; pool2: 2 workers; pool1i: 1 worker and a shard in this thread. `dist` (a built `dist`
 * folder, e.g. a base commit built with `--outDir`) times that build's engine and pool instead of this
 * one's, with this build's fleet: run two builds alternating, a few times each, and compare medians
 * (timings on this VM vary by 10-40% between runs).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FLEET_BATCH, FLEET_DETECTORS } from './fleet-bench.js';
import { fleetEvents } from './fleet.js';

const [which = 'core', mode = 'pool2', sessions = '10000', calls = '40', dist] = process.argv.slice(2);
if (which !== 'core' && which !== 'all' && which !== 'all-but-similar') throw new Error(`unknown detector set ${which}: core, all or all-but-similar`);
if (!['engine', 'pool1', 'pool2', 'pool1i'].includes(mode)) throw new Error(`unknown mode ${mode}: engine, pool1, pool2 or pool1i`);
const at = (file: string): string => (dist === undefined ? new URL(`../${file}`, import.meta.url).href : pathToFileURL(resolve(dist, file)).href);
const { LoopEngine } = (await import(at('src/engine/loop-engine.js'))) as typeof import('../src/engine/loop-engine.js');
const { LoopPool } = (await import(at('src/pool/loop-pool.js'))) as typeof import('../src/pool/loop-pool.js');

/** Records as one buffer and their offsets: no per-record object for the collector to keep. */
interface Packed {
  readonly all: Buffer;
  readonly offsets: Int32Array;
  readonly n: number;
}

function pack(events: readonly object[]): Packed {
  const parts = events.map((e) => Buffer.from(JSON.stringify(e)));
  const offsets = new Int32Array(parts.length + 1);
  let o = 0;
  parts.forEach((p, i) => {
    offsets[i] = o;
    o += p.length;
  });
  offsets[parts.length] = o;
  return { all: Buffer.concat(parts), offsets, n: parts.length };
}

function* batchesOf(p: Packed): Generator<Buffer[]> {
  for (let a = 0; a < p.n; a += FLEET_BATCH) {
    const b: Buffer[] = [];
    for (let i = a; i < Math.min(p.n, a + FLEET_BATCH); i++) b.push(p.all.subarray(p.offsets[i], p.offsets[i + 1]));
    yield b;
  }
}

/** Fields 3 on of a /proc stat file. */
const statOf = (path: string): string[] => (readFileSync(path, 'utf8').split(') ')[1] ?? '').split(' ');
/** This thread's CPU time in ms (utime + stime of /proc/self/task/<pid>/stat, in 10 ms ticks). */
function threadCpuMs(): number {
  const fields = statOf(`/proc/self/task/${process.pid}/stat`);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
/** Every thread's CPU time in ms so far, by thread id (threads that end meanwhile drop out). */
function tasksCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const f = statOf(`/proc/self/task/${tid}/stat`);
      out.set(tid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the thread ended
    }
  }
  return out;
}
/** The process's minor page faults so far (every thread's). */
const minorFaults = (): number => Number(statOf('/proc/self/stat')[7]);

const options = which === 'all-but-similar' ? { detectors: { similarArgs: false } } : FLEET_DETECTORS[which];
const main = pack(fleetEvents(Number(sessions), Number(calls)));
const warm = pack(fleetEvents(2000, 10).map((e) => ({ ...e, session: `warm-${e.session}` })));
let check: (lines: Buffer[]) => unknown;
let close: () => unknown;
if (mode === 'engine') {
  const engine = new LoopEngine(options);
  check = (b) => engine.checkLines(b);
  close = () => engine.close();
} else {
  const pool = new LoopPool({ ...options, workers: mode === 'pool2' ? 2 : 1, inlineShard: mode === 'pool1i' });
  check = (b) => pool.checkLines(b);
  close = () => pool.close();
}
for (const b of batchesOf(warm)) await check(b);
const inFlight = new Set<Promise<unknown>>();
const cpu0 = process.cpuUsage();
const thread0 = threadCpuMs();
const tasks0 = tasksCpuMs();
const faults0 = minorFaults();
const t0 = performance.now();
for (const b of batchesOf(main)) {
  if (inFlight.size >= 8) await Promise.race(inFlight);
  const p: Promise<unknown> = Promise.resolve(check(b)).then(() => inFlight.delete(p));
  inFlight.add(p);
}
await Promise.all(inFlight);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const threadMs = threadCpuMs() - thread0;
// the other threads, busiest first: a pool's workers lead, V8's and libuv's helpers follow
const others = [...tasksCpuMs()].filter(([tid]) => tid !== String(process.pid)).map(([tid, ms]) => ms - (tasks0.get(tid) ?? 0)).sort((a, b) => b - a);
const workerCount = mode === 'pool2' ? 2 : mode === 'engine' ? 0 : 1;
const faults = minorFaults() - faults0;
const allMs = (cpu.user + cpu.system) / 1000;
const perCall = (ms: number): string => `${Math.round((ms * 1e6) / main.n).toLocaleString('en')} ns`;
console.log(
  `${which} ${mode}${dist === undefined ? '' : ` (${dist})`}: ${Math.round(main.n / seconds).toLocaleString('en')} calls/s; CPU ${(allMs / 1000 / seconds).toFixed(2)} cores; per call: this thread ${perCall(threadMs)}, other threads ${perCall(allMs - threadMs)}` +
    `${workerCount === 0 ? '' : ` (the ${workerCount === 1 ? 'busiest' : `${workerCount} busiest`} ${perCall(others.slice(0, workerCount).reduce((a, b) => a + b, 0))}, the rest ${perCall(others.slice(workerCount).reduce((a, b) => a + b, 0))})`}; minor page faults ${(faults / main.n).toFixed(2)} a call`,
);
await close();
