/**
 * A/B harness on real calls (not part of the suite): two builds' LoopEngines take the traces' calls (read
 * once, by this build, as bench/real-calls.ts reads them) chunk by chunk in turn, with the seed md5 pipeline
 * between them, each chunk timed by process.cpuUsage. Each round is a fresh pass of every call on fresh
 * sessions; the order within a chunk turns from chunk to chunk and round to round. On a shared machine the
 * load then moves both builds alike, and CPU time leaves out the time the process waited for a core.
 *
 *   node dist/bench/ab-real-calls.js DIST_A DIST_B [rounds = 7] [exact,all] [--traces DIR] [--chunk 1024] [--fresh] [--volatile]
 *
 * A set is `exact` (exact repeat alone), `all` (every default detector), or a detector's option name
 * (`chanting`, `semantic`, ...): that detector alone, as `real-calls.js` measures each detector.
 *
 * `--volatile` turns `normalizeVolatile` on in every set (texts and errors masked: the semantic detector's
 * action texts among them).
 *
 * `--fresh` reads the calls again before each round, a copy for each build (not timed): each round then
 * meets strings never used before, as a scan does (V8 hashes a string the first time it is a Map's key, and keeps the hash: a bench
 * that reads the same strings again measures that cost only in its first round).
 *
 * Prints per detector set: each build's median CPU microseconds a call, the seed's, the median of the
 * rounds' B/A (with every round's), and each build's median ratio to the seed. A build against itself
 * gives the harness's noise (0.92-1.12 a round at load 14, median 0.99).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopEngine, SessionEvent } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { Md5Baseline } from './baselines.js';
import { traceEvents } from './real-calls.js';
import { cpuMicros, median } from './bench-stats.js';

const DETECTORS = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'] as const;
/** The detector sets by name: exact repeat alone, and every default detector. */
const SETS: Record<string, LoopDetectorOptions> = {
  exact: { detectors: Object.fromEntries(DETECTORS.map((d) => [d, d === 'exactRepeat'])) } as LoopDetectorOptions,
  all: {},
};

/** The options with detector `name` alone on. */
const alone = (name: string): LoopDetectorOptions => ({ detectors: Object.fromEntries(DETECTORS.map((d) => [d, d === name])) }) as LoopDetectorOptions;

type Engine = typeof LoopEngine;

async function engineOf(dist: string): Promise<Engine> {
  return ((await import(pathToFileURL(resolve(dist, 'src', 'engine', 'loop-engine.js')).href)) as { LoopEngine: Engine }).LoopEngine;
}

/** One round: CPU nanoseconds a call of A, B and the seed over every call. */
function round(calls: readonly SessionEvent[], callsB: readonly SessionEvent[], A: Engine, B: Engine, options: LoopDetectorOptions, chunk: number, turn: number): { a: number; b: number; s: number } {
  const ea = new A(options);
  const eb = new B(options);
  const seeds = new Map<string, Md5Baseline>();
  const spent = { a: 0, b: 0, s: 0 };
  const orders = [['a', 'b', 's'], ['b', 's', 'a'], ['s', 'a', 'b']] as const;
  for (let from = 0, k = turn; from < calls.length; from += chunk, k++) {
    const to = Math.min(from + chunk, calls.length);
    for (const w of orders[k % 3] as readonly ('a' | 'b' | 's')[]) {
      const t0 = cpuMicros();
      if (w === 's') {
        for (let i = from; i < to; i++) {
          const e = calls[i] as SessionEvent;
          let s = seeds.get(e.session);
          if (s === undefined) seeds.set(e.session, (s = new Md5Baseline()));
          s.check(e);
        }
      } else {
        const engine = w === 'a' ? ea : eb;
        const own = w === 'a' ? calls : callsB;
        for (let i = from; i < to; i += 64) engine.checkBatch(own.slice(i, Math.min(i + 64, to)));
      }
      spent[w] += cpuMicros() - t0;
    }
  }
  ea.close();
  eb.close();
  const perCall = (us: number): number => (us * 1000) / calls.length;
  return { a: perCall(spent.a), b: perCall(spent.b), s: perCall(spent.s) };
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const plain = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
const [distA, distB, roundsArg = '7', setsArg = 'exact,all'] = plain;
if (distA === undefined || distB === undefined) throw new Error('usage: ab-real-calls.js DIST_A DIST_B [rounds] [exact,all] [--traces DIR] [--chunk N]');
const fresh = args.includes('--fresh');
const calls = await traceEvents(flag('--traces'));
if (calls === null) {
  console.log('skipped: ../shared/data/traces is absent (--traces DIR)');
} else {
  const A = await engineOf(distA);
  const B = await engineOf(distB);
  const chunk = Number(flag('--chunk') ?? 1024);
  const us = (ns: number): string => (ns / 1000).toFixed(2);
  for (const name of setsArg.split(',')) {
    const named = SETS[name] ?? ((DETECTORS as readonly string[]).includes(name) ? alone(name) : undefined);
    if (named === undefined) throw new Error(`unknown detector set ${name}: exact, all or a detector's option name`);
    const options: LoopDetectorOptions = args.includes('--volatile') ? { ...named, normalizeVolatile: true } : named;
    round(calls, calls, A, B, options, chunk, 0); // not counted: the JIT's first compiles
    const rs: { a: number; b: number; s: number }[] = [];
    for (let r = 0; r < Number(roundsArg); r++) {
      // fresh: a copy of the calls for each build, so neither finds strings the other already hashed
      const [forA, forB] = fresh ? [(await traceEvents(flag('--traces'))) as SessionEvent[], (await traceEvents(flag('--traces'))) as SessionEvent[]] : [calls, calls];
      rs.push(round(forA, forB, A, B, options, chunk, r));
    }
    const ratios = rs.map((r) => r.b / r.a);
    console.log(
      `${name}: A ${us(median(rs.map((r) => r.a)))} us, B ${us(median(rs.map((r) => r.b)))} us, seed ${us(median(rs.map((r) => r.s)))} us a call (CPU); ` +
        `B/A ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]; vs seed: A ${median(rs.map((r) => r.s / r.a)).toFixed(2)}x, B ${median(rs.map((r) => r.s / r.b)).toFixed(2)}x`,
    );
  }
}
