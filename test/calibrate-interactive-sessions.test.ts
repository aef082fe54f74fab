/**
 * calibrate judges a person's interactive session (`exit_status: "interactive"`) as finished work, like a
 * submitted run: a break is a false alarm and a warning a cost; one labelled as a genuine loop
 * (`loop: true`) counts as neither.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { runClass } from '../src/calibrate/objective.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('calibrate and interactive sessions', () => {
  it('should class interactive sessions as finished work, and genuine loops as neither', () => {
    expect(runClass('interactive', false)).toEqual({ stuck: false, finished: true, limit: false });
    expect(runClass('submitted', false)).toEqual({ stuck: false, finished: true, limit: false });
    expect(runClass('interactive', true)).toEqual({ stuck: false, finished: false, limit: false });
    expect(runClass('step_limit', false)).toEqual({ stuck: true, finished: false, limit: true });
  });

  it('should fit interactive sessions exactly as submitted runs', async () => {
    const submitted = writeSyntheticRuns(36, 9);
    const interactive = writeSyntheticRuns(36, 9);
    made.push(submitted, interactive);
    const labels = join(interactive, 'sessions.jsonl');
    writeFileSync(labels, readFileSync(labels, 'utf8').replaceAll('"exit_status":"submitted"', '"exit_status":"interactive"'));
    const settings = { start: {}, maxFalseAlarms: 0.03, folds: 3, seed: 2, restarts: 0 } as const;
    const a = await calibrate({ ...settings, dir: submitted });
    const b = await calibrate({ ...settings, dir: interactive });
    expect(b.data.finished).toBe(a.data.finished);
    expect(b.data.finished).toBeGreaterThan(10);
    expect(b.fitted).toEqual(a.fitted);
    expect(b.heldOut).toEqual(a.heldOut);
  }, 120_000);
});
