/**
 * Scores points of the search space on a set of recorded runs by simulation (simulate.ts), remembering
 * each run's outcomes: a run's outcome depends only on the policy's parameters and on those of the kinds
 * its signals have, so a step that changes another kind's weight or threshold costs it nothing, and the
 * folds of a fit, which walk mostly the same points, share what was simulated.
 */
import type { LoopDetectorOptions } from '../options/options.js';
import type { ResolvedOptions } from '../options/options.js';
import { resolveOptions } from '../options/resolve-options.js';
import { type Point, type Space, fittedOf, withFitted } from './candidate.js';
import { type Emulation, Variants, emulationOf } from './emulation.js';
import { type RunClass, type Totals, addRun, noTotals } from './objective.js';
import { type PreparedRun, simulateOnePhase, simulateTwoPhase } from './simulate.js';

/** A labelled, recorded run. */
export interface CalibrationRun {
  readonly prepared: PreparedRun;
  readonly cls: RunClass;
}

/** A point's policy and emulated detectors. */
type Candidate = Emulation;

/** Outcomes a run remembers at most before it forgets them all (bounds memory on long fits). */
const RUN_MEMORY = 50_000;

/** Packs both replays' outcomes of a run: per replay, warned and the first break (+1, 0: none). */
const pack = (w1: boolean, b1: number | null, w2: boolean, b2: number | null): number => ((b1 === null ? 0 : b1 + 1) * 2 + (w1 ? 1 : 0)) * 2 ** 26 + (b2 === null ? 0 : b2 + 1) * 2 + (w2 ? 1 : 0);

/**
 * Counts a point may reach before it is certainly worse than the best so far (which is within budget):
 * finished runs broken and warned, per replay. Finished runs are scored first, so such a point is given
 * up early.
 */
export interface Limits {
  readonly broken: readonly [number, number];
  readonly warned: readonly [number, number];
}

/** What evaluate() gives for a point that went over its limits. */
export const OVER = 'over';

/** How a run's remembered outcomes are keyed: by the values of the parameters it depends on. */
interface RunKey {
  readonly params: readonly number[];
  /** Mixed-radix multipliers of those values (an exact number), or null: a string key (too many values). */
  readonly mult: readonly number[] | null;
}

function runKeyOf(params: readonly number[], space: Space): RunKey {
  let radix = 1;
  const mult: number[] = [];
  for (const j of params) {
    mult.push(radix);
    radix *= space.params[j]?.values.length ?? 1;
  }
  return { params, mult: radix <= Number.MAX_SAFE_INTEGER ? mult : null };
}

/** Scores points of one space on recorded runs. */
export class Evaluator {
  /** Per run, the parameters its outcome depends on. */
  private readonly keys: readonly RunKey[];
  private readonly memory: Map<number | string, number>[];
  private readonly candidates = new Map<string, Candidate | null>();
  private readonly variants = new Variants();
  /** Runs simulated (a remembered outcome is not counted). */
  simulations = 0;

  constructor(
    private readonly start: LoopDetectorOptions,
    readonly space: Space,
    private readonly recordedWith: ResolvedOptions,
    readonly runs: readonly CalibrationRun[],
  ) {
    this.keys = runs.map((r) => {
      const kinds = new Set<string>();
      for (const c of r.prepared.list) for (const e of [...c.proposed, ...c.recorded]) kinds.add(e.signal.kind);
      const out: number[] = [];
      space.params.forEach((p, i) => {
        if (p.kind === null || kinds.has(p.kind)) out.push(i);
      });
      return runKeyOf(out, space);
    });
    this.memory = runs.map(() => new Map());
  }

  /** The point's options (null when they are not valid options, e.g. a threshold above its window). */
  optionsOf(point: Point): ResolvedOptions | null {
    try {
      return resolveOptions(withFitted(this.start, fittedOf(this.space, point)));
    } catch {
      return null;
    }
  }

  private candidate(point: Point): Candidate | null {
    const key = point.join(',');
    let c = this.candidates.get(key);
    if (c === undefined) {
      const o = this.optionsOf(point);
      c = o === null ? null : emulationOf(o, this.recordedWith, this.variants);
      this.candidates.set(key, c);
    }
    return c;
  }

  private outcomes(i: number, point: Point, cand: Candidate): number {
    const run = this.runs[i] as CalibrationRun;
    const k = this.keys[i] as RunKey;
    let key: number | string;
    if (k.mult !== null) {
      key = 0;
      for (let j = 0; j < k.params.length; j++) key += (point[k.params[j] as number] as number) * (k.mult[j] as number);
    } else key = k.params.map((j) => point[j]).join(',');
    const mem = this.memory[i] as Map<number | string, number>;
    const known = mem.get(key);
    if (known !== undefined) return known;
    const a = simulateOnePhase(run.prepared, cand);
    const b = simulateTwoPhase(run.prepared, cand);
    const packed = pack(a.warned, a.firstBreak, b.warned, b.firstBreak);
    if (mem.size >= RUN_MEMORY) mem.clear();
    mem.set(key, packed);
    this.simulations++;
    return packed;
  }

  /**
   * The counts of both replays of the runs at `indices` under `point`: null for a point that is not valid,
   * OVER when it went past `limits`.
   */
  evaluate(point: Point, indices: readonly number[], limits?: Limits): Totals | null | typeof OVER {
    const cand = this.candidate(point);
    if (cand === null) return null;
    const one = noTotals();
    const two = noTotals();
    for (const i of indices) {
      const run = this.runs[i] as CalibrationRun;
      const p = run.prepared;
      const packed = p.active ? this.outcomes(i, point, cand) : 0;
      const hi = Math.floor(packed / 2 ** 26);
      const lo = packed - hi * 2 ** 26;
      const b1 = Math.floor(hi / 2) - 1;
      const b2 = Math.floor(lo / 2) - 1;
      addRun(one, run.cls, (hi & 1) === 1, b1 >= 0, b1 >= 0 ? p.calls - b1 - 1 : 0);
      addRun(two, run.cls, (lo & 1) === 1, b2 >= 0, b2 >= 0 ? p.calls - b2 : 0);
      if (limits !== undefined && run.cls.finished && (one.finishedBroken > limits.broken[0] || two.finishedBroken > limits.broken[1] || one.finishedWarned > limits.warned[0] || two.finishedWarned > limits.warned[1])) return OVER;
    }
    return { one, two };
  }
}
