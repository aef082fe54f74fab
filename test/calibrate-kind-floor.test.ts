/**
 * A fit does not set aside a kind the starting point weighs: every kind weighed above 0 is tried only at
 * weights of at least `--min-weight` (default 0.8, DEFAULT_MIN_KIND_WEIGHT), so a default fitted on runs
 * that hardly hold a kind's loops (chanting, cycles) keeps its detector speaking. `--min-weight 0` frees
 * the weights; a kind the starting point weighs 0 stays free either way.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { spaceFor } from '../src/calibrate/candidate.js';
import { DEFAULT_MIN_KIND_WEIGHT, SEARCH_SPACE } from '../src/calibrate/search-space.js';
import { parseCalibrateArgs } from '../src/cli/calibrate-command.js';
import { UsageError } from '../src/cli/usage-error.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The weights tried per kind in the space of `start` with floor `floor`. */
function weightsTried(start: object, floor: number): Map<string, number[]> {
  const space = spaceFor(start, SEARCH_SPACE, floor);
  return new Map(space.params.flatMap((p) => ('weight' in p.at ? [[p.at.weight, p.values as number[]] as const] : [])));
}

describe('calibrate: the floor of a kind weight', () => {
  it('should try only weights at or above the floor for a kind the starting point weighs', () => {
    const tried = weightsTried({}, DEFAULT_MIN_KIND_WEIGHT);
    expect([...tried.keys()]).toEqual(expect.arrayContaining(['cycle', 'chanting', 'exact_repeat']));
    for (const [kind, values] of tried) {
      expect(Math.min(...values), kind).toBeGreaterThanOrEqual(DEFAULT_MIN_KIND_WEIGHT);
      expect(values, kind).not.toContain(0);
    }
    // free: 0 is among the values again
    for (const [kind, values] of weightsTried({}, 0)) expect(values, kind).toContain(0);
  });

  it('should keep a lower starting weight, and leave a kind weighed 0 free', () => {
    const tried = weightsTried({ policy: { kindWeights: { cycle: 0.5, chanting: 0 } } }, DEFAULT_MIN_KIND_WEIGHT);
    expect(tried.get('cycle')).toEqual([0.5, 0.6, 0.8, 1, 1.2, 1.5]);
    expect(weightsTried({}, DEFAULT_MIN_KIND_WEIGHT).get('cycle')).toEqual([0.8, 1, 1.2, 1.5]);
    expect(tried.get('chanting')).toContain(0);
    expect(tried.get('chanting')).toContain(1.5);
  });

  it('should take --min-weight from 0 to 1.5, 0.8 by default', () => {
    expect(parseCalibrateArgs(['runs']).minKindWeight).toBe(0.8);
    expect(parseCalibrateArgs(['runs', '--min-weight', '0']).minKindWeight).toBe(0);
    expect(parseCalibrateArgs(['runs', '--min-weight', '1.2']).minKindWeight).toBe(1.2);
    expect(() => parseCalibrateArgs(['runs', '--min-weight', '2'])).toThrow(UsageError);
    expect(() => parseCalibrateArgs(['runs', '--min-weight', 'none'])).toThrow(/--min-weight must be a number from 0 to 1.5/);
  });

  it('should fit within the floor by default, and over every weight with --min-weight 0', async () => {
    const dir = writeSyntheticRuns(36, 3);
    made.push(dir);
    const settings = { dir, start: {}, maxFalseAlarms: 0.02, folds: 3, seed: 5, restarts: 0 } as const;
    const floored = await calibrate(settings);
    const weights = floored.fitted.policy.kindWeights as Record<string, number>;
    expect(Object.keys(weights)).toEqual(expect.arrayContaining(['cycle', 'chanting']));
    for (const [kind, w] of Object.entries(weights)) expect(w, kind).toBeGreaterThanOrEqual(DEFAULT_MIN_KIND_WEIGHT);
    // the free fit tries weight 0 for each kind as well: more points scored
    const free = await calibrate({ ...settings, minKindWeight: 0 });
    expect(free.search.evaluations).toBeGreaterThan(floored.search.evaluations);
  }, 240_000);
});
