/**
 * The calibrate search never does worse for searching harder: a fit with restarts starts with the same
 * descent from the starting point as a fit without, and a restart's point replaces the best only when it
 * is strictly better, so `restarts: N` finds a point at least as good as `restarts: 0` for every seed.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { permissiveOptions, spaceFor } from '../src/calibrate/candidate.js';
import { Evaluator } from '../src/calibrate/evaluator.js';
import { type Budget, type Totals, better, runClass } from '../src/calibrate/objective.js';
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

describe('calibrate search: restarts', () => {
  it('should find a point at least as good with restarts as without, for every seed', async () => {
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
    const start = ev.evaluate(space.start, all) as Totals;
    const budget: Budget = { maxFalseAlarms: [0.03, 0.03], scope: 'both', maxWarnings: [start.one.finishedWarned / start.one.finished, start.two.finishedWarned / start.two.finished] };
    for (let seed = 1; seed <= 2; seed++) {
      const none = search(ev, all, budget, seed, { restarts: 0, maxSweeps: 2 });
      const some = search(ev, all, budget, seed, { restarts: 2, maxSweeps: 2 });
      expect(better(none.totals, some.totals, budget), `seed ${seed}`).toBe(false);
    }
  }, 120_000);
});
