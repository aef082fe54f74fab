/**
 * A calibration says which runs its held-out figures are made of (`heldOutRuns`: each labelled run, its
 * fold and both replays' outcomes with the fit made without it) and with which options each fold was
 * replayed (`foldFits`), so the finished runs a fit breaks held out can be looked at one by one: the
 * runs add up to the pooled figures, and a fold's fit laid over the start replays its runs the same.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('calibrate: the held-out runs, one by one', () => {
  it('should list every labelled run with its fold and outcomes, adding up to the pooled figures', async () => {
    const dir = writeSyntheticRuns(48, 9);
    made.push(dir);
    const r = await calibrate({ dir, start: {}, maxFalseAlarms: 0.03, folds: 3, seed: 2, restarts: 0 });
    expect(r.foldFits).toHaveLength(3);
    for (const f of r.foldFits) expect(Object.keys(f.policy).length).toBeGreaterThan(0);
    expect(r.heldOutRuns).toHaveLength(r.data.runs);
    expect(new Set(r.heldOutRuns.map((x) => x.fold))).toEqual(new Set([0, 1, 2]));
    const count = (pick: (x: (typeof r.heldOutRuns)[number]) => boolean): number => r.heldOutRuns.filter(pick).length;
    expect(count((x) => x.cls.finished && x.twoPhase.firstBreak !== null)).toBe(r.heldOut.twoPhase.finishedBroken.count);
    expect(count((x) => x.cls.stuck && x.twoPhase.firstBreak !== null)).toBe(r.heldOut.twoPhase.stepLimitBroken.count);
    expect(count((x) => x.cls.stuck && x.onePhase.firstBreak !== null)).toBe(r.heldOut.onePhase.stepLimitBroken.count);
    expect(count((x) => x.cls.stuck)).toBe(r.data.stepLimit);
  }, 120_000);
});
