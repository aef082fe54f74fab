/**
 * What a fit's budgets cover (objective.ts, calibrate.ts budgetFor): the budgets hold per replay; the
 * replays of the scope (`--replay`, two-phase by default) get the budgets given and are the ones the fit
 * improves, a replay outside the scope is held to the starting point's own shares (it may get no worse, and
 * is not traded for); among points within budget, more step-limit runs broken, then more warned, then
 * more calls saved.
 */
import { describe, expect, it } from 'vitest';
import { budgetFor } from '../src/calibrate/calibrate.js';
import { type Budget, type ReplayTotals, type Totals, better, overshoot } from '../src/calibrate/objective.js';

/** Totals of 100 step-limit and 1,000 finished runs per replay. */
function totals(one: Partial<ReplayTotals>, two: Partial<ReplayTotals>): Totals {
  const base: ReplayTotals = { stuck: 100, stuckWarned: 0, stuckBroken: 0, finished: 1000, finishedWarned: 0, finishedBroken: 0, saved: 0 };
  return { one: { ...base, ...one }, two: { ...base, ...two } };
}

// the starting point: one-phase breaks 19 of 1,000 finished runs, two-phase 9
const start = totals({ stuckBroken: 50, finishedBroken: 19, finishedWarned: 100 }, { stuckBroken: 47, finishedBroken: 9, finishedWarned: 140 });

describe('calibrate: what the budgets cover', () => {
  it('should give the two-phase replay the budget and hold the one-phase one to its start by default', () => {
    const b = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: undefined }, start);
    expect(b.scope).toBe('two-phase');
    expect(b.maxFalseAlarms).toEqual([0.019, 0.01]);
    expect(b.maxWarnings).toEqual([0.1, 0.14]);
    const both = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: 0.12, budgetScope: 'both' }, start);
    expect(both.maxFalseAlarms).toEqual([0.01, 0.01]);
    expect(both.maxWarnings).toEqual([0.12, 0.12]);
    const one = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'one-phase' }, start);
    expect(one.maxFalseAlarms).toEqual([0.01, 0.009]);
  });

  it('should let the starting point stand within a two-phase budget its one-phase replay is over', () => {
    const two = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase' }, start);
    const both = budgetFor({ maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'both' }, start);
    expect(overshoot(start, two)).toBe(0);
    expect(overshoot(start, both)).toBeGreaterThan(0);
    // a one-phase replay worse than the start is over a two-phase budget too
    expect(overshoot(totals({ ...start.one, finishedBroken: 20 }, start.two), two)).toBeGreaterThan(0);
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
