/**
 * What a fit's budgets cover (objective.ts, calibrate.ts budgetFor): the budgets hold per replay; the
 * replays of the scope (`--replay`, two-phase by default) get the budgets given and are the ones the fit
 * improves; a replay outside the scope has no budget (its finished runs broken, then warned, only break
 * ties), or with `holdOther` (`--hold-other`) is held to the starting point's own shares (it may get no
 * worse, and is not traded for); among points within budget, more step-limit runs broken, then more
 * warned, then more calls saved. The false-alarm budget of the scope is met with a margin: finished runs
 * broken counted by their Wilson centre.
 */
import { describe, expect, it } from 'vitest';
import { budgetFor } from '../src/calibrate/calibrate.js';
import { BUDGET_MARGIN, type Budget, type ReplayTotals, type Totals, better, budgetCount, budgetShare, overshoot } from '../src/calibrate/objective.js';

/** Totals of 100 step-limit and 1,000 finished runs per replay. */
function totals(one: Partial<ReplayTotals>, two: Partial<ReplayTotals>): Totals {
  const base: ReplayTotals = { stuck: 100, stuckWarned: 0, stuckBroken: 0, finished: 1000, finishedWarned: 0, finishedBroken: 0, saved: 0 };
  return { one: { ...base, ...one }, two: { ...base, ...two } };
}

// the starting point: one-phase breaks 19 of 1,000 finished runs, two-phase 6
const start = totals({ stuckBroken: 50, finishedBroken: 19, finishedWarned: 100 }, { stuckBroken: 47, finishedBroken: 6, finishedWarned: 140 });

describe('calibrate: what the budgets cover', () => {
  it('should give the two-phase replay the budget and leave the one-phase one free by default', () => {
    const b = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: undefined }, start);
    expect(b.scope).toBe('two-phase');
    expect(b.maxFalseAlarms).toEqual([1, 0.01]);
    expect(b.maxWarnings).toEqual([1, 0.14]);
    expect(b.margin).toBe(BUDGET_MARGIN);
    const held = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: undefined, holdOther: true }, start);
    expect(held.maxFalseAlarms).toEqual([0.019, 0.01]);
    expect(held.maxWarnings).toEqual([0.1, 0.14]);
    const both = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: 0.12, budgetScope: 'both' }, start);
    expect(both.maxFalseAlarms).toEqual([0.01, 0.01]);
    expect(both.maxWarnings).toEqual([0.12, 0.12]);
    const one = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'one-phase', holdOther: true }, start);
    expect(one.maxFalseAlarms).toEqual([0.01, 0.006]);
  });

  it('should let a two-phase fit trade one-phase false alarms unless the other replay is held', () => {
    const two = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase' }, start);
    const held = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase', holdOther: true }, start);
    const both = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'both' }, start);
    expect(overshoot(start, two)).toBe(0);
    expect(overshoot(start, held)).toBe(0);
    expect(overshoot(start, both)).toBeGreaterThan(0);
    // more step-limit runs broken two-phase for more finished runs broken one-phase: a trade a free
    // one-phase replay allows and a held one does not
    const traded = totals({ ...start.one, finishedBroken: 26, finishedWarned: 120 }, { ...start.two, stuckBroken: 52 });
    expect(overshoot(traded, two)).toBe(0);
    expect(better(traded, start, two)).toBe(true);
    expect(overshoot(traded, held)).toBeGreaterThan(0);
    expect(better(traded, start, held)).toBe(false);
  });

  it('should meet the false-alarm budget of the scope by the Wilson centre of finished runs broken', () => {
    const two = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase' }, start);
    // 1% of 1,000 finished runs: 8 broken (centre 0.99%) within, 9 (1.09%) over, though 9 / 1,000 is below 1%
    expect(budgetCount(0.01, 1000, BUDGET_MARGIN)).toBe(8);
    expect(overshoot(totals(start.one, { ...start.two, finishedBroken: 8 }), two)).toBe(0);
    expect(overshoot(totals(start.one, { ...start.two, finishedBroken: 9 }), two)).toBeGreaterThan(0);
    expect(overshoot(totals(start.one, { ...start.two, finishedBroken: 9 }), { ...two, margin: 0 })).toBe(0);
    // the count and the share agree at every size; below 189 finished runs even none is over 1%
    for (const n of [50, 188, 189, 250, 985, 1231, 5000]) {
      const k = budgetCount(0.01, n, BUDGET_MARGIN);
      if (k >= 0) expect(budgetShare(k, n, BUDGET_MARGIN)).toBeLessThanOrEqual(0.01);
      expect(budgetShare(k + 1, n, BUDGET_MARGIN)).toBeGreaterThan(0.01);
    }
    expect(budgetCount(0.01, 188, BUDGET_MARGIN)).toBe(-1);
    expect(budgetCount(0.01, 189, BUDGET_MARGIN)).toBe(0);
    expect(budgetCount(0.01, 985, BUDGET_MARGIN)).toBe(7);
    // the held replay outside the scope keeps its share without a margin: the start is within its own
    const held = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase', holdOther: true }, start);
    expect(overshoot(start, held)).toBe(0);
  });

  it('should improve the replays of the scope only', () => {
    const b: Budget = { maxFalseAlarms: [0.019, 0.01], maxWarnings: [0.1, 0.14], scope: 'two-phase' };
    // more step-limit runs broken two-phase, fewer one-phase: better for a two-phase fit
    const a = totals({ ...start.one, stuckBroken: 40 }, { ...start.two, stuckBroken: 48 });
    expect(better(a, start, b)).toBe(true);
    expect(better(a, start, { ...b, scope: 'both' })).toBe(false);
    expect(better(a, start, { ...b, scope: 'one-phase' })).toBe(false);
    // the same in the scope: fewer finished runs broken outside it is better
    const quieter = totals({ ...start.one, finishedBroken: 15 }, start.two);
    expect(better(quieter, start, b)).toBe(true);
    expect(better(start, quieter, b)).toBe(false);
  });

  it('should count step-limit runs warned after those broken and before calls saved', () => {
    const b: Budget = { maxFalseAlarms: [0.019, 0.01], maxWarnings: [0.1, 0.14], scope: 'two-phase' };
    const warnedMore = totals(start.one, { ...start.two, stuckWarned: 80, saved: 100 });
    const savedMore = totals(start.one, { ...start.two, stuckWarned: 70, saved: 300 });
    expect(better(warnedMore, savedMore, b)).toBe(true);
    const brokeMore = totals(start.one, { ...start.two, stuckBroken: 48, stuckWarned: 60 });
    expect(better(brokeMore, warnedMore, b)).toBe(true);
  });
});
