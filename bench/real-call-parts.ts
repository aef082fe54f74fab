/**
 * Bound harness (not part of the suite): what each part of a real call costs the engine, measured by taking
 * it away. The traces' calls (as bench/real-calls.ts reads them) go through one LoopEngine (`checkBatch`, 64
 * a batch, fresh sessions each round) as they are and stripped of parts, beside the seed md5 pipeline on the
 * calls as they are; each variant's CPU a call (process.cpuUsage) is taken in turn within a round, the
 * order turning from round to round, so the load moves them alike.
 *
 *   node dist/bench/real-call-parts.js [rounds = 7] [exact|all|DETECTOR] [--traces DIR]
 *
 * The variants, each the calls with only these fields (and `session`, `tool`; the others undefined):
 *
 * ```
 *  as given         every field
 *  no text          args, result, error, step, round, description   (the text's cost: as given - this)
 *  no outcome       args, text, step, round, description            (the result's and error's cost)
 *  args only        args                                            (with "tiny args": the args' content)
 *  tiny args        args { n: <the call's index> }                  (what any call costs: sessions, the
 *                                                                    batch's plumbing, the crossing, the
 *                                                                    facts of a bare call, the verdict)
 * ```
 *
 * A variant stands for the engine's work on such calls, not for a build that skips the part: with the
 * result gone the module reads no head, the outcome facts read no result, and a detector may fire where it
 * did not (tiny args are all alike to similar args). It bounds what any cut of that part's handling can give.
 */
import { LoopEngine, type SessionEvent } from '../src/engine/loop-engine.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { Md5Baseline } from './baselines.js';
import { traceEvents } from './real-calls.js';
import { cpuMicros, median } from './bench-stats.js';

const DETECTORS = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'] as const;

/** The options of a detector set: `exact` (exact repeat alone), `all` (every default detector), or one detector alone. */
function setOptions(name: string): LoopDetectorOptions {
  if (name === 'all') return {};
  const on = name === 'exact' ? 'exactRepeat' : name;
  if (!(DETECTORS as readonly string[]).includes(on)) throw new Error(`unknown detector set ${name}: exact, all or a detector's option name`);
  return { detectors: Object.fromEntries(DETECTORS.map((d) => [d, d === on])) } as LoopDetectorOptions;
}

/**
 * The calls with only `keep` of their fields (the others undefined), `args` replaced by `args(i)` when given: one
 * fixed shape, the shape the traces' calls have (wire/session-event.ts), so that reading them costs what reading
 * those costs (an object made by spreading two others can get a map of its own, and every read of it then
 * misses: validating such a call cost ~1 us more here).
 */
function stripped(calls: readonly SessionEvent[], keep: ReadonlySet<string>, args?: (i: number) => unknown): SessionEvent[] {
  const has = (k: string): boolean => keep.has(k);
  return calls.map(
    (e, i): SessionEvent => ({
      session: e.session,
      tool: e.tool,
      args: args !== undefined ? args(i) : has('args') ? e.args : undefined,
      result: has('result') ? e.result : undefined,
      error: has('error') ? e.error : undefined,
      text: has('text') ? e.text : undefined,
      description: has('description') ? e.description : undefined,
      step: has('step') ? e.step : undefined,
      round: has('round') ? e.round : undefined,
    }),
  );
}

/** The variants by name: the calls each checks (null: the seed pipeline on the calls as given). */
function variants(calls: readonly SessionEvent[]): [string, readonly SessionEvent[] | null][] {
  return [
    ['as given', calls],
    ['no text', stripped(calls, new Set(['args', 'result', 'error', 'step', 'round', 'description']))],
    ['no outcome', stripped(calls, new Set(['args', 'text', 'step', 'round', 'description']))],
    ['args only', stripped(calls, new Set(['args']))],
    ['tiny args', stripped(calls, new Set(), (i) => ({ n: i }))],
    ['seed md5', null],
  ];
}

/** CPU microseconds a call of one pass over `calls` (fresh sessions), or of the seed pipeline over `seedCalls`. */
function pass(Engine: typeof LoopEngine, options: LoopDetectorOptions, calls: readonly SessionEvent[] | null, seedCalls: readonly SessionEvent[]): number {
  if (calls === null) {
    const seeds = new Map<string, Md5Baseline>();
    const t0 = cpuMicros();
    for (const e of seedCalls) {
      let s = seeds.get(e.session);
      if (s === undefined) seeds.set(e.session, (s = new Md5Baseline()));
      s.check(e);
    }
    return (cpuMicros() - t0) / seedCalls.length;
  }
  const engine = new Engine(options);
  const t0 = cpuMicros();
  for (let i = 0; i < calls.length; i += 64) engine.checkBatch(calls.slice(i, i + 64));
  engine.close();
  return (cpuMicros() - t0) / calls.length;
}

const args = process.argv.slice(2);
const at = args.indexOf('--traces');
const plain = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
const [roundsArg = '7', setArg = 'exact'] = plain;
if (!/^[1-9]\d*$/.test(roundsArg)) throw new Error(`usage: real-call-parts.js [rounds = 7] [exact|all|DETECTOR] [--traces DIR]; rounds must be a whole number above 0, received "${roundsArg}"`);
const options = setOptions(setArg);
const calls = await traceEvents(at < 0 ? undefined : args[at + 1]);
if (calls === null) {
  console.log('skipped: ../shared/data/traces is absent (--traces DIR)');
} else {
  const vs = variants(calls);
  const spent = vs.map((): number[] => []);
  for (const [, cs] of vs) pass(LoopEngine, options, cs, calls); // not counted: the JIT's first compiles
  for (let r = 0; r < Number(roundsArg); r++) {
    for (let j = 0; j < vs.length; j++) {
      const k = (j + r) % vs.length;
      (spent[k] as number[]).push(pass(LoopEngine, options, (vs[k] as [string, readonly SessionEvent[] | null])[1], calls));
    }
  }
  const seed = median(spent[vs.length - 1] as number[]);
  console.log(`${setArg}: ${calls.length} calls, ${roundsArg} rounds; CPU us a call, median (min-max), the seed's over this`);
  vs.forEach(([name], k) => {
    const xs = spent[k] as number[];
    console.log(`  ${name.padEnd(10)} ${median(xs).toFixed(2).padStart(6)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})  ${(seed / median(xs)).toFixed(2)}x`);
  });
}
