/**
 * A fit's moves must earn their place (search.ts `changeCost`, objective.ts `better`): each parameter a
 * point moves off its starting value costs `changeCost` step-limit runs broken, so a move that breaks one
 * more step-limit run is not taken at a cost of 2, and a point is compared by its step-limit runs broken
 * less its cost; of two points equal after it, the one that moved fewer parameters wins.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { permissiveOptions, spaceFor } from '../src/calibrate/candidate.js';
import { Evaluator } from '../src/calibrate/evaluator.js';
import { type Budget, type ReplayTotals, type Totals, better, runClass } from '../src/calibrate/objective.js';
import { recordSignals } from '../src/calibrate/record-signals.js';
import { search } from '../src/calibrate/search.js';
import { prepareRun } from '../src/calibrate/simulate.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import { labelFor } from '../src/eval/labels.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Totals of 100 step-limit and 1,000 finished runs per replay. */
function totals(two: Partial<ReplayTotals>): Totals {
  const base: ReplayTotals = { stuck: 100, stuckWarned: 60, stuckBroken: 40, finished: 1000, finishedWarned: 100, finishedBroken: 4, saved: 0 };
  return { one: base, two: { ...base, ...two } };
}

const budget: Budget = { maxFalseAlarms: [1, 0.01], maxWarnings: [1, 0.2], scope: 'two-phase' };

describe('calibrate: a moved parameter costs step-limit runs broken', () => {
  it('should take a point that breaks more step-limit runs than its moves cost, and no other', () => {
    const start = totals({});
    const onePlus = totals({ stuckBroken: 41, stuckWarned: 70 });
    const threePlus = totals({ stuckBroken: 43 });
    expect(better(onePlus, start, budget)).toBe(true);
    // one parameter moved at a cost of 2: one more run broken does not pay for it, three do
    expect(better(onePlus, start, budget, 2, 0)).toBe(false);
    expect(better(start, onePlus, budget, 0, 2)).toBe(true);
    expect(better(threePlus, start, budget, 2, 0)).toBe(true);
    // equal after the cost (42 - 2 = 40): the point that moved less wins, whatever it warns
    const twoPlus = totals({ stuckBroken: 42, stuckWarned: 90 });
    expect(better(twoPlus, start, budget, 2, 0)).toBe(false);
    expect(better(start, twoPlus, budget, 0, 2)).toBe(true);
    // the budget still comes first: a point over it loses however many runs it breaks
    const over = totals({ stuckBroken: 90, finishedBroken: 40 });
    expect(better(over, start, budget, 0, 2)).toBe(false);
  });

  it('should stay at the starting point when no move pays for itself, and move otherwise', async () => {
    const dir = writeSyntheticRuns(72, 9);
    made.push(dir);
    const source = await openEvalSource(dir);
    const space = spaceFor({});
    const permissive = resolveOptions(permissiveOptions({}, space));
    const recording = await recordSignals(source.inputs, permissive);
    const runs = recording.runs.flatMap((r) => {
      const l = labelFor(source.labels.labels, r.session);
      return l === undefined ? [] : [{ prepared: prepareRun(r), cls: runClass(l.exitStatus, l.loop) }];
    });
    const ev = new Evaluator({}, space, permissive, runs);
    const all = runs.map((_, i) => i);
    const t = ev.evaluate(space.start, all) as Totals;
    const b: Budget = { maxFalseAlarms: [1, 0.5], scope: 'two-phase', maxWarnings: [1, 1] };
    const free = search(ev, all, b, 1, { restarts: 1, maxSweeps: 2 });
    const moved = (p: readonly number[]): number => p.filter((x, k) => x !== space.start[k]).length;
    // without a cost the fit moves (for more runs broken or, failing that, for the ties after them)
    expect(moved(free.point)).toBeGreaterThan(0);
    // a cost above the step-limit runs there are: no move can pay for itself
    const held = search(ev, all, b, 1, { restarts: 1, maxSweeps: 2, changeCost: t.two.stuck + 1 });
    expect(held.point).toEqual(space.start);
    // a cost of one run per parameter: every parameter moved pays for itself
    const cheap = search(ev, all, b, 1, { restarts: 1, maxSweeps: 2, changeCost: 1 });
    expect(cheap.totals.two.stuckBroken - moved(cheap.point)).toBeGreaterThanOrEqual(t.two.stuckBroken);
    expect(moved(cheap.point)).toBeLessThanOrEqual(moved(free.point));
  }, 120_000);
});
