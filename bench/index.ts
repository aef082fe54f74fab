/**
 * The benchmark suite: detection cost per call, measured from the event object (canonicalisation and
 * hashing included), with the baselines users write today measured in the same run.
 *
 *   npm run bench                      every scope, a table per scope
 *   npm run bench -- --scope core      only scopes whose id or name contains "core" (ids: core-objects,
 *                                      core-results, core-json, all-objects, all-json, fleet-core,
 *                                      fleet-all, threads, serve, nats, hook, kernel, memory, rss, sketch,
 *                                      scan, real); one that none contains is a usage error (exit 2), as is
 *                                      an unknown option or a number that is not one
 *   npm run bench -- --json            the same figures as JSON on stdout
 *   npm run bench -- --time 500        milliseconds per task (default 400)
 *   npm run bench -- --sessions 1,100  session counts (default 1,1000,10000)
 *   npm run bench -- --repeat 3        run each scope 3 times (fresh processes), report medians
 *   npm run bench -- --scope fleet     the fleet scopes only (fleet-core, fleet-all): engine vs pool
 *   npm run bench -- --scope threads   how plain JavaScript scales across two threads on this machine
 *   npm run bench -- --scope serve     loopwatch serve over HTTP (a server process, keep-alive clients)
 *   npm run bench -- --scope nats      the NATS service: 1 and 2 worker processes on a real nats-server
 *   npm run bench -- --scope hook      one `loopwatch hook` process per tool call: p50/p90 wall time, beside Node's own start
 *   npm run bench -- --scope scan      `loopwatch scan` of the real traces x10, sessions renamed per copy, end to end (plain
 *                                      and gzip, --workers 1, 2 and the default): calls/s and cores busy of a whole child
 *                                      process, medians of --repeat rounds (at least 3)
 *   npm run bench -- --scope real      the real traces' calls in memory through one LoopEngine: every default detector,
 *                                      each alone, beside the seed md5 pipeline in the same run (bench/real-calls.ts;
 *                                      medians of --repeat alternating rounds, at least 5)
 *   npm run bench -- --fleet-sessions 10000 --fleet-calls 100   the fleet's size (these are the defaults)
 *
 * Each task processes a batch of calls per iteration (interleaved over 1, 1,000 or 10,000 sessions, each
 * session walking a stream of its own), so timer overhead is amortised; figures are the mean ns per call
 * and its ratio to the MD5 baseline measured beside it. Each scope runs in a fresh process.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { LoopDetector } from '../src/session/loop-detector.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import type { ToolEvent } from '../src/types.js';
import { Md5Baseline, Sha256Baseline } from './baselines.js';
import { type Size, argsBytes, asJsonText, events } from './fixtures.js';
import { kernelTasks } from './kernel.js';
import { memoryFigures } from './memory.js';
import { sessionRss } from './session-rss.js';
import { sketchAgreement } from './sketch-agreement.js';
import { CORE } from './index-core.js';
import { FLEET_BATCH, type FleetFigure, fleetFigures } from './fleet-bench.js';
import { type ThreadScaling, threadScaling } from './thread-scaling.js';
import { type ServiceFigure, serviceTable } from './service-figures.js';
import { serveFigures } from './serve-bench.js';
import { natsFigures } from './nats-bench.js';
import { type HookFigure, type HookPhases, hookFigures, hookPhases, hookTable } from './hook-bench.js';
import { scanFigures, scanTable } from './scan-end-to-end.js';
import { type RealCallBench, realCallTable } from './real-calls.js';
import { defaultCheckerThreads } from '../src/cli/scan/session-checker.js';
import { type BenchArgs, BenchUsageError, readBenchArgs } from './bench-args.js';
import { median } from './bench-stats.js';

const BATCH = 1000;
const STREAM = 20_000;


/** One measured figure. */
export interface Figure {
  scope: string;
  size: Size | '-';
  argsBytes: number;
  sessions: number;
  impl: string;
  nsPerCall: number;
  /** md5 baseline ns / this ns, in the same scope, size and session count. */
  speedupVsMd5?: number;
  /** With --repeat 2 or more: the lowest and highest ns per call over the runs (the median is nsPerCall). */
  minNs?: number;
  maxNs?: number;
}

type Checker = { check(e: ToolEvent): unknown };

/** Prints a scope's table; a scope not run gives '' and prints nothing (not an empty line). */
function printSection(text: string): void {
  if (text !== '') console.log(text);
}

/**
 * Session s's j-th call is stream[(j + 13 s) mod length]: every session walks the same kind of stream (a
 * call comes round again every VARIANTS calls) whatever the session count, so session counts compare
 * like with like.
 */
class Cursor {
  /** The session of the current call. */
  s = 0;
  /** The stream index of the current call. */
  e = 0;
  private k = 0;

  constructor(
    private readonly sessions: number,
    private readonly length: number,
  ) {}

  /** Moves to the next call. */
  next(): void {
    const s = this.k % this.sessions;
    this.s = s;
    this.e = ((this.k - s) / this.sessions + 13 * s) % this.length;
    this.k++;
  }
}

/** A task that runs BATCH calls of a stream round-robin over `sessions` checkers. */
function batchTask(make: () => Checker, sessions: number, stream: readonly ToolEvent[]): () => void {
  const checkers = Array.from({ length: sessions }, make);
  const c = new Cursor(sessions, stream.length);
  return () => {
    for (let i = 0; i < BATCH; i++) {
      c.next();
      (checkers[c.s] as Checker).check(stream[c.e] as ToolEvent);
    }
  };
}

/** The same stream through LoopDetector.checkBatch, BATCH calls (of all sessions) per batch. */
function checkBatchTask(make: () => LoopDetector, sessions: number, stream: readonly ToolEvent[]): () => void {
  const detectors = Array.from({ length: sessions }, make);
  const entries = Array.from({ length: BATCH }, () => ({ detector: detectors[0] as LoopDetector, event: stream[0] as ToolEvent }));
  const c = new Cursor(sessions, stream.length);
  return () => {
    for (const entry of entries) {
      c.next();
      entry.detector = detectors[c.s] as LoopDetector;
      entry.event = stream[c.e] as ToolEvent;
    }
    LoopDetector.checkBatch(entries);
  };
}

async function measure(tasks: readonly { name: string; fn: () => void; perIteration: number }[]): Promise<Map<string, number>> {
  const bench = new Bench({ time: TIME, warmupTime: 100 });
  for (const t of tasks) bench.add(t.name, t.fn);
  await bench.run();
  const out = new Map<string, number>();
  for (const task of bench.tasks) {
    const per = tasks.find((t) => t.name === task.name)?.perIteration ?? 1;
    const r = task.result as { latency?: { mean: number } } | undefined;
    out.set(task.name, ((r?.latency?.mean ?? NaN) * 1e6) / per);
  }
  return out;
}

const figures: Figure[] = [];
const fleet: FleetFigure[] = [];
const threads: ThreadScaling[] = [];
const service: ServiceFigure[] = [];
const hook: HookFigure[] = [];
const phases: HookPhases[] = [];
const wanted = (scope: string) => values.scope === '' || scope.includes(values.scope);

async function callScope(scope: string, opts: LoopDetectorOptions, streamOf: (s: Size) => ToolEvent[], withBaselines: boolean): Promise<void> {
  if (!wanted(scope)) return;
  for (const size of ['small', 'medium', 'large'] as const) {
    const stream = streamOf(size);
    for (const sessions of SESSION_COUNTS) {
      const detectors: LoopDetector[] = [];
      const tasks = [
        {
          name: 'loopwatch (wasm)',
          fn: batchTask(() => {
            const d = new LoopDetector({ ...opts, engine: 'wasm' });
            detectors.push(d);
            return d;
          }, sessions, stream),
          perIteration: BATCH,
        },
        {
          name: 'loopwatch (wasm, checkBatch)',
          fn: checkBatchTask(() => {
            const d = new LoopDetector({ ...opts, engine: 'wasm' });
            detectors.push(d);
            return d;
          }, sessions, stream),
          perIteration: BATCH,
        },
        { name: 'loopwatch (TS reference)', fn: batchTask(() => new LoopDetector({ ...opts, engine: 'reference' }), sessions, stream), perIteration: BATCH },
      ];
      if (withBaselines) {
        tasks.push({ name: 'baseline md5 (sorted JSON)', fn: batchTask(() => new Md5Baseline(), sessions, stream), perIteration: BATCH });
        tasks.push({ name: 'baseline sha256 (JSON.stringify)', fn: batchTask(() => new Sha256Baseline(), sessions, stream), perIteration: BATCH });
      }
      const ns = await measure(tasks);
      for (const d of detectors) d.dispose();
      const md5 = ns.get('baseline md5 (sorted JSON)');
      for (const [impl, v] of ns) {
        figures.push({ scope, size, argsBytes: argsBytes(stream[0] as ToolEvent), sessions, impl, nsPerCall: v, ...(md5 === undefined ? {} : { speedupVsMd5: md5 / v }) });
      }
      process.stderr.write(values.json ? '' : '.');
    }
  }
}

/** Nanoseconds as the tables print them: whole from 100, else with one decimal (the runs' spread alike). */
const nsText = (ns: number): string => (ns >= 100 ? ns.toFixed(0) : ns.toFixed(1));

function table(scope: string): string {
  const rows = figures.filter((f) => f.scope === scope);
  if (rows.length === 0) return '';
  const spread = rows.some((f) => f.minNs !== undefined);
  const lines = [`\n## ${scope}`, `| size | args | sessions | implementation | ns/call | vs md5 |${spread ? ' runs (min-max) |' : ''}`, `|---|---|---|---|---|---|${spread ? '---|' : ''}`];
  for (const f of rows) {
    const ns = nsText(f.nsPerCall);
    const runs = f.minNs === undefined || f.maxNs === undefined ? '' : ` ${nsText(f.minNs)}-${nsText(f.maxNs)} |`;
    lines.push(`| ${f.size} | ${f.size === '-' ? '-' : `${f.argsBytes} B`} | ${f.sessions} | ${f.impl} | ${ns} | ${f.speedupVsMd5 === undefined ? '' : `${f.speedupVsMd5.toFixed(1)}x`} |${runs}`);
  }
  return lines.join('\n');
}

/** The suite's scopes; each runs in a process of its own so one scope's JIT history never skews another. */
const SCOPES: readonly { id: string; name: string; run: () => Promise<void> }[] = [
  { id: 'core-objects', name: 'core: exact + frequency + cycle, args as objects', run: () => callScope('core: exact + frequency + cycle, args as objects', { detectors: CORE }, (s) => events(s, STREAM), true) },
  { id: 'core-results', name: 'core: exact + frequency + cycle, args as objects, with a 200 B result', run: () => callScope('core: exact + frequency + cycle, args as objects, with a 200 B result', { detectors: CORE }, (s) => events(s, STREAM, true), true) },
  { id: 'core-json', name: 'core: exact + frequency + cycle, args as JSON text', run: () => callScope('core: exact + frequency + cycle, args as JSON text', { detectors: CORE }, (s) => asJsonText(events(s, STREAM)), true) },
  { id: 'all-objects', name: 'all default detectors, with results', run: () => callScope('all default detectors, with results', {}, (s) => events(s, STREAM, true), false) },
  { id: 'all-json', name: 'all default detectors, args as JSON text, with results', run: () => callScope('all default detectors, args as JSON text, with results', {}, (s) => asJsonText(events(s, STREAM, true)), false) },
  {
    id: 'fleet-core',
    name: 'fleet: exact + frequency + cycle + result',
    run: async () => void fleet.push(...(await fleetFigures('core', FLEET_SESSIONS, FLEET_CALLS, 'fleet: exact + frequency + cycle + result repeat'))),
  },
  {
    id: 'fleet-all',
    name: 'fleet: all default detectors',
    run: async () => void fleet.push(...(await fleetFigures('all', FLEET_SESSIONS, FLEET_CALLS, 'fleet: all default detectors'))),
  },
  { id: 'threads', name: 'threads: how JavaScript scales across threads here', run: async () => void threads.push(...(await threadScaling())) },
  { id: 'serve', name: 'serve: HTTP service', run: async () => void service.push(...(await serveFigures())) },
  { id: 'nats', name: 'nats: JetStream service', run: async () => void service.push(...(await natsFigures())) },
  {
    id: 'hook',
    name: 'hook: one process per tool call',
    run: async () => {
      hook.push(...hookFigures());
      phases.push(hookPhases());
    },
  },
  {
    id: 'kernel',
    name: 'kernel',
    run: async () => {
      const ns = await measure(await kernelTasks(BATCH));
      for (const [impl, v] of ns) figures.push({ scope: 'kernel', size: '-', argsBytes: 0, sessions: 1, impl, nsPerCall: v });
    },
  },
];

/** Scopes the parent process measures itself, after the scopes above (`--scope` matches their ids). */
const PARENT_SCOPES = ['memory', 'rss', 'sketch', 'scan', 'real'].map((id) => ({ id, name: id }));

// read once SCOPES is known: a --scope that names none of them is refused (it measured nothing, exit 0)
let args: BenchArgs;
try {
  args = readBenchArgs(process.argv.slice(2), [...SCOPES, ...PARENT_SCOPES]);
} catch (e) {
  if (!(e instanceof BenchUsageError)) throw e;
  process.stderr.write(`loopwatch bench: ${e.message}\n`);
  process.exit(2);
}
const values = { scope: args.scope, json: args.json, run: args.run };
const FLEET_SESSIONS = args.fleetSessions;
const FLEET_CALLS = args.fleetCalls;
const TIME = args.time;
const SESSION_COUNTS = args.sessions;

/** The median of some numbers. */
/**
 * Per figure, the median over the runs (figures come in the same order in every run); a ratio is the
 * median of the ratios each run measured side by side, never one run's baseline over another's figure.
 */
function medians(runs: readonly Figure[][]): Figure[] {
  return (runs[0] ?? []).map((f, i) => {
    const all = runs.map((r) => r[i] as Figure);
    const ns = all.map((g) => g.nsPerCall);
    // a spread only from several runs (one run's "12.8 | 13-13" said nothing)
    const out: Figure = { ...f, nsPerCall: median(ns), ...(ns.length > 1 ? { minNs: Math.min(...ns), maxNs: Math.max(...ns) } : {}) };
    if (f.speedupVsMd5 !== undefined) out.speedupVsMd5 = median(all.map((g) => g.speedupVsMd5 as number));
    return out;
  });
}

/** Per fleet figure, the median over the runs (ratios: the median of each run's own ratio). */
function fleetMedians(runs: readonly FleetFigure[][]): FleetFigure[] {
  return (runs[0] ?? []).map((f, i) => {
    const all = runs.map((r) => r[i] as FleetFigure);
    const rates = all.map((g) => g.callsPerSecond);
    return { ...f, callsPerSecond: median(rates), minRate: Math.min(...rates), maxRate: Math.max(...rates), p50Ms: median(all.map((g) => g.p50Ms)), p99Ms: median(all.map((g) => g.p99Ms)), vsBaseline: median(all.map((g) => g.vsBaseline ?? NaN)), coresBusy: median(all.map((g) => g.coresBusy ?? NaN)), cpuPerOwnCpu: median(all.map((g) => g.cpuPerOwnCpu ?? NaN)), ...(f.vsEngine === undefined ? {} : { vsEngine: median(all.map((g) => g.vsEngine ?? NaN)) }) };
  });
}

/** Per service figure, the median over the runs (ratios: the median of each run's own ratio). */
function serviceMedians(runs: readonly ServiceFigure[][]): ServiceFigure[] {
  return (runs[0] ?? []).map((f, i) => {
    const all = runs.map((r) => r[i] as ServiceFigure);
    return { ...f, callsPerSecond: median(all.map((g) => g.callsPerSecond)), p50Ms: median(all.map((g) => g.p50Ms)), p99Ms: median(all.map((g) => g.p99Ms)), vsBaseline: median(all.map((g) => g.vsBaseline)) };
  });
}

/** Per hook figure, the median over the runs. */
function hookMedians(runs: readonly HookFigure[][]): HookFigure[] {
  return (runs[0] ?? []).map((f, i) => {
    const all = runs.map((r) => r[i] as HookFigure);
    return { ...f, p50Ms: median(all.map((g) => g.p50Ms)), p90Ms: median(all.map((g) => g.p90Ms)), loadEnd: (runs[runs.length - 1]?.[i] as HookFigure).loadEnd };
  });
}

/** What one scope's process reports. */
interface ScopeReport {
  figures: Figure[];
  fleet: FleetFigure[];
  threads: ThreadScaling[];
  service: ServiceFigure[];
  hook: HookFigure[];
  phases: HookPhases[];
}

if (values.run !== '') {
  // a child: run one scope and report its figures as JSON
  const scope = SCOPES.find((x) => x.id === values.run);
  if (scope === undefined) throw new Error(`unknown scope id ${values.run}`);
  await scope.run();
  console.log(JSON.stringify({ figures, fleet, threads, service, hook, phases } satisfies ScopeReport));
} else {
  const started = Date.now();
  const self = fileURLToPath(import.meta.url);
  const repeat = args.repeat;
  for (const scope of SCOPES) {
    if (!wanted(scope.id) && !wanted(scope.name)) continue;
    const runs: Figure[][] = [];
    const fleetRuns: FleetFigure[][] = [];
    const serviceRuns: ServiceFigure[][] = [];
    const hookRuns: HookFigure[][] = [];
    for (let r = 0; r < repeat; r++) {
      if (!values.json) process.stderr.write(`${scope.id} `);
      const out = execFileSync(process.execPath, [self, '--run', scope.id, '--time', String(TIME), '--sessions', SESSION_COUNTS.join(','), '--fleet-sessions', String(FLEET_SESSIONS), '--fleet-calls', String(FLEET_CALLS), ...(values.json ? ['--json'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
      const report = JSON.parse(out) as ScopeReport;
      runs.push(report.figures);
      fleetRuns.push(report.fleet);
      serviceRuns.push(report.service);
      hookRuns.push(report.hook);
      if (r === repeat - 1) phases.push(...report.phases);
      if (r === repeat - 1) threads.push(...report.threads);
    }
    figures.push(...medians(runs));
    fleet.push(...fleetMedians(fleetRuns));
    service.push(...serviceMedians(serviceRuns));
    hook.push(...hookMedians(hookRuns));
  }
  const memory = wanted('memory') ? await memoryFigures() : [];
  const rss = wanted('rss') ? sessionRss() : [];
  const sketch = wanted('sketch') ? await sketchAgreement() : null;
  const scan = wanted('scan') ? await scanFigures(Math.max(3, repeat), defaultCheckerThreads(os.availableParallelism())) : null;
  // in a process of its own, as the other scopes
  const real = wanted('real')
    ? (JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./real-calls.js', import.meta.url)), String(Math.max(5, repeat)), '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 })) as RealCallBench | null)
    : null;

  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` };
  if (values.json) {
    console.log(JSON.stringify({ machine, batch: BATCH, timeMsPerTask: TIME, repeat, figures, fleet, threads, service, hook, phases, memory, rss, sketch, scan, real }, null, 2));
  } else {
    process.stderr.write('\n');
    console.log(`# loopwatch benchmarks\n${machine.cpus} x ${machine.model}, Node ${machine.node}, ${machine.platform}; ${TIME} ms per task, ${BATCH} calls per iteration, each scope in a fresh process${repeat > 1 ? `, median of ${repeat} runs` : ''}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const scope of [...new Set(figures.map((f) => f.scope))]) console.log(table(scope));
    for (const scope of [...new Set(fleet.map((f) => f.scope))]) {
      console.log(`\n## ${scope}\n${FLEET_SESSIONS.toLocaleString('en')} sessions x ${FLEET_CALLS} calls (50% small, 40% medium, 10% large args, with results; 1 session in 8 loops from mid-way), batches of ${FLEET_BATCH} calls\n| implementation | calls/s | vs plain JS | pool vs engine (same input) | cores busy (CPU / wall) | CPU / own thread's CPU | batch p50 | batch p99 | runs (min-max calls/s) |\n|---|---|---|---|---|---|---|---|---|`);
      for (const f of fleet.filter((x) => x.scope === scope)) console.log(`| ${f.impl} | ${Math.round(f.callsPerSecond).toLocaleString('en')} | ${(f.vsBaseline ?? NaN).toFixed(2)}x | ${f.vsEngine === undefined ? '' : `${f.vsEngine.toFixed(2)}x`} | ${(f.coresBusy ?? NaN).toFixed(2)} | ${(f.cpuPerOwnCpu ?? NaN).toFixed(2)} | ${f.p50Ms.toFixed(1)} ms | ${f.p99Ms.toFixed(1)} ms | ${f.minRate === undefined ? '' : `${Math.round(f.minRate).toLocaleString('en')}-${Math.round(f.maxRate ?? NaN).toLocaleString('en')}`} |`);
    }
    printSection(serviceTable('serve: HTTP, all default detectors', '2,000 sessions x 50 calls (fleet mix, with results); server: `loopwatch serve` in a child process; client: this process, keep-alive; p50/p99 per request', service));
    printSection(serviceTable('nats: JetStream, all default detectors', '2,000 sessions x 100 calls as messages of 50 calls of one session, 8 partitions, worker processes on one nats-server 2.10; batched rows: calls/s from the first answer to the last on a stream filled beforehand; request/reply row: p50/p99 per call, publish to answer', service));
    printSection(hookTable(hook, phases));
    if (threads.length > 0) {
      console.log(`\n## threads: how JavaScript scales across threads on this machine (bounds what a pool can gain; medians of ${threads[0]?.rounds ?? 0} alternating rounds)\n| task | one thread | two threads, same task each | scaling (2.00 = perfect) | rounds (min-max) |\n|---|---|---|---|---|`);
      for (const t of threads) console.log(`| ${t.task} | ${t.oneThreadMs.toFixed(0)} ms | ${t.twoThreadsMs.toFixed(0)} ms | ${t.scaling.toFixed(2)}x | ${t.minScaling.toFixed(2)}-${t.maxScaling.toFixed(2)}x |`);
    }
    if (memory.length > 0) {
      console.log('\n## memory per session (10,000 sessions in a fresh process)\n| detectors | slot (layout) | WebAssembly memory grown | JS heap, new | JS heap after 30 calls |\n|---|---|---|---|---|');
      for (const m of memory) console.log(`| ${m.detectors} | ${m.slotBytes} B | ${m.wasmBytes.toFixed(0)} B | ${m.jsHeapBytes.toFixed(0)} B | ${m.jsHeapAfterCallsBytes.toFixed(0)} B |`);
    }
    if (rss.length > 0) {
      console.log(`\n## resident memory per session (after 100 calls of 491 B args with a 200 B result; marginal over ${rss[0]?.extra.toLocaleString('en')} sessions beyond ${rss[0]?.small.toLocaleString('en')}, each count in a fresh process)\n| detectors | RSS per session |\n|---|---|`);
      for (const r of rss) console.log(`| ${r.detectors === 'core' ? 'exact + frequency + cycle + result repeat' : 'every default detector'} | ${Math.round(r.bytesPerSession).toLocaleString('en')} B |`);
    }
    if (wanted('sketch')) console.log(`\n## semantic sketch vs exact Jaccard\n${sketch?.note ?? 'skipped: ../shared/data/traces is absent'}`);
    if (wanted('scan')) console.log(scanTable(scan));
    if (wanted('real')) console.log(realCallTable(real));
  }
}
