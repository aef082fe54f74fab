/**
 * Real calls: every call of the real agent traces (`../shared/data/traces`, 28,505 calls of 1,464 sessions)
 * read into memory first (the scan's reader: parsing is not measured), then checked in file order through
 * one `LoopEngine` (`checkBatch`, 64 calls a batch, as a scan hands them over), with every default detector,
 * with each detector alone, with every detector but the three that read text and args (semantic, chanting,
 * similar args), every default detector and frequency alone with `checksOnly` (as `loopwatch scan` checks;
 * the default engine is the one users construct), and the seed-style pipeline on the same calls in the same run (`Md5Baseline`: md5 of the
 * tool and sorted-keys JSON args, a window of 20 per session).
 *
 *   node dist/bench/real-calls.js [rounds = 5] [--json] [--traces DIR] [--dist DIR]
 *
 * `--traces DIR`: a folder holding `events.jsonl.gz` (default: `../shared/data/traces` beside the repository,
 * found from this file's own folder, so a build copied elsewhere needs it). `--dist DIR`: the `dist` folder
 * of another build whose LoopEngine is measured (e.g. a base commit built with `--outDir`); the calls are
 * read, and the seed measured, by this build.
 *
 * Variants take turns within each round (the first variant of a round moves by one each round), each on
 * fresh sessions, after one round that is not counted (the JIT's first compiles). A variant's figure is
 * the median over the rounds of its wall time a call; its ratio to the seed is the median of the rounds'
 * own ratios (seed time / variant time, measured in the same round), so a burst of load on a shared
 * machine moves both sides alike. Prints "skipped" when the traces are absent.
 */
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultTraceDir } from '../src/eval/trace-dir.js';
import { readInputBatches } from '../src/formats/read-inputs.js';
import { LoopEngine, type SessionEvent, sessionEvent } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { Md5Baseline } from './baselines.js';
import { median } from './bench-stats.js';

/** Calls a `checkBatch` takes at once (what `readInputBatches` hands a scan). */
const BATCH = 64;

/** The built-in detectors, by option name, in detector order. */
const DETECTORS = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'] as const;

/** One measured variant of the real-call scope. */
export interface RealCallFigure {
  /** `every default detector`, `<detector> alone`, `... but semantic, chanting, similar args`, or `seed md5`. */
  readonly variant: string;
  /** Median wall nanoseconds a call over the rounds. */
  readonly nsPerCall: number;
  readonly minNs: number;
  readonly maxNs: number;
  /** Median over the rounds of (seed's ns / this variant's ns) in the same round; 1 for the seed. */
  readonly vsSeed: number;
  /** This variant's ns over `exactRepeat alone`'s, medians of the rounds' differences (how much a detector adds). */
  readonly overExactNs: number;
}

/** What the scope measured. */
export interface RealCallBench {
  readonly calls: number;
  readonly sessions: number;
  readonly rounds: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
  readonly figures: readonly RealCallFigure[];
}

/** Options turning on only `keep` (the others off), each kept detector with its defaults. */
function only(...keep: readonly string[]): LoopDetectorOptions {
  const detectors: Record<string, boolean> = {};
  for (const d of DETECTORS) detectors[d] = keep.includes(d);
  return { detectors } as LoopDetectorOptions;
}

/** The variants: name and what checks a pass of the calls. */
function variants(): { name: string; options: LoopDetectorOptions | null }[] {
  // checksOnly (as `loopwatch scan` and eval's replay check: never snapshots nor proposes), beside the default
  // engine users construct; dropped when the build measured (`--dist`) has no such option
  const checksOnly = (o: LoopDetectorOptions): LoopDetectorOptions => ({ ...o, checksOnly: true }) as LoopDetectorOptions;
  return [
    { name: 'every default detector', options: {} },
    { name: 'every default detector, checksOnly (as scan checks)', options: checksOnly({}) },
    { name: 'frequency alone, checksOnly', options: checksOnly(only('frequency')) },
    ...DETECTORS.map((d) => ({ name: `${d} alone`, options: only(d) })),
    { name: 'every detector but semantic, chanting, similar args', options: only(...DETECTORS.filter((d) => d !== 'semantic' && d !== 'chanting' && d !== 'similarArgs')) },
    { name: 'seed md5 (sorted JSON, window of 20)', options: null },
  ];
}

/** The engine class measured: this build's, or another build's (`--dist`). */
type Engine = typeof LoopEngine;

/**
 * The traces' calls in file order, read as a scan reads them; null when the traces are absent. `traces`:
 * the folder holding `events.jsonl.gz` (default: `LOOPWATCH_TRACES`, else the one beside the repository,
 * which a git worktree outside the repository's folder does not have).
 */
export async function traceEvents(traces = process.env.LOOPWATCH_TRACES): Promise<SessionEvent[] | null> {
  const dir = traces !== undefined && traces !== '' ? resolve(traces) : defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (dir === null) return null;
  const out: SessionEvent[] = [];
  for await (const batch of readInputBatches([join(dir, 'events.jsonl.gz')])) {
    for (const item of batch) if (item.kind === 'call') out.push(sessionEvent(item.session, item.event));
  }
  return out;
}

/** Wall nanoseconds a call of one pass over `calls` on fresh sessions. */
function pass(calls: readonly SessionEvent[], options: LoopDetectorOptions | null, Engine: Engine): number {
  if (options === null) {
    const seeds = new Map<string, Md5Baseline>();
    const t0 = process.hrtime.bigint();
    for (const e of calls) {
      let s = seeds.get(e.session);
      if (s === undefined) seeds.set(e.session, (s = new Md5Baseline()));
      s.check(e);
    }
    return Number(process.hrtime.bigint() - t0) / calls.length;
  }
  const engine = new Engine(options);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls.length; i += BATCH) engine.checkBatch(calls.slice(i, i + BATCH));
  const ns = Number(process.hrtime.bigint() - t0) / calls.length;
  engine.close();
  return ns;
}

/**
 * The figures over `rounds` rounds of every variant; null when the traces are absent. `traces`: the folder of
 * `events.jsonl.gz` (default: beside the repository); `dist`: another build's `dist` folder to measure.
 */
export async function realCallFigures(rounds: number, traces?: string, dist?: string): Promise<RealCallBench | null> {
  const Engine: Engine = dist === undefined ? LoopEngine : ((await import(pathToFileURL(resolve(dist, 'src', 'engine', 'loop-engine.js')).href)) as { LoopEngine: Engine }).LoopEngine;
  const calls = await traceEvents(traces);
  if (calls === null) return null;
  // not counted: the JIT's first compiles (a variant the build refuses, an option it has not, is dropped)
  const vs = variants().filter((v) => {
    try {
      pass(calls, v.options, Engine);
      return true;
    } catch (err) {
      if (v.options !== null && 'checksOnly' in v.options) return false;
      throw err;
    }
  });
  const seed = vs.length - 1;
  const exact = vs.findIndex((v) => v.name === 'exactRepeat alone');
  const loadBefore = os.loadavg()[0] as number;
  const times = vs.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < vs.length; k++) {
      const i = (k + r) % vs.length;
      times[i]?.push(pass(calls, (vs[i] as (typeof vs)[number]).options, Engine));
    }
  }
  const loadAfter = os.loadavg()[0] as number;
  const figures = vs.map((v, i) => {
    const t = times[i] as number[];
    const seedT = times[seed] as number[];
    const exactT = times[exact] as number[];
    return {
      variant: v.name,
      nsPerCall: median(t),
      minNs: Math.min(...t),
      maxNs: Math.max(...t),
      vsSeed: median(t.map((x, r) => (seedT[r] as number) / x)),
      overExactNs: median(t.map((x, r) => x - (exactT[r] as number))),
    };
  });
  return { calls: calls.length, sessions: new Set(calls.map((c) => c.session)).size, rounds, loadBefore, loadAfter, figures };
}

/** The scope's table (markdown), or why it was skipped. */
export function realCallTable(b: RealCallBench | null): string {
  if (b === null) return '\n## real calls\nskipped: ../shared/data/traces is absent (or set LOOPWATCH_TRACES to the folder of events.jsonl.gz)';
  const lines = [
    `\n## real calls: the traces' ${b.calls.toLocaleString('en')} calls of ${b.sessions.toLocaleString('en')} sessions, in memory, checked in file order through one LoopEngine (checkBatch of ${BATCH}); medians of ${b.rounds} alternating rounds, load ${b.loadBefore.toFixed(1)} -> ${b.loadAfter.toFixed(1)}`,
    '| detectors | us a call | runs (min-max) | vs seed md5 (same round) | over exact repeat alone |',
    '|---|---|---|---|---|',
  ];
  for (const f of b.figures) {
    lines.push(`| ${f.variant} | ${(f.nsPerCall / 1000).toFixed(2)} | ${(f.minNs / 1000).toFixed(2)}-${(f.maxNs / 1000).toFixed(2)} | ${f.vsSeed.toFixed(2)}x | ${f.variant.startsWith('seed') ? '' : `${f.overExactNs >= 0 ? '+' : ''}${(f.overExactNs / 1000).toFixed(2)}`} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const valueOf = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i < 0 ? undefined : args[i + 1];
  };
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
  const b = await realCallFigures(rounds, valueOf('--traces'), valueOf('--dist'));
  console.log(args.includes('--json') ? JSON.stringify(b) : realCallTable(b));
}
