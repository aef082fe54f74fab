/**
 * `loopwatch calibrate` on a small sample of labelled runs written here (a few dozen synthetic runs in
 * task groups): the contract of a fit. The budgets hold on the data it was fitted on; the held-out
 * figures are reported per fold and pooled; the same seed gives the same fit; and the config it writes is
 * accepted by `eval --config`, `scan --config`, LoopDetector, LoopEngine and LoopPool (through
 * configOptions), with the same verdicts as the options it stands for.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Calibration, calibrate } from '../src/calibrate/calibrate.js';
import { evaluate } from '../src/eval/eval-report.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import { LoopDetector, LoopEngine, LoopPool, configOptions } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir } from './helpers/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const dir = writeSyntheticRuns(54, 3);
made.push(dir);

const settings = { dir, start: {}, maxFalseAlarms: 0.02, folds: 3, seed: 5, restarts: 1 } as const;

/** The fit's result without its timings (which differ from run to run). */
const timeless = (c: Calibration): object => ({ ...c, millis: null });

describe('loopwatch calibrate on a sample', () => {
  let first: Calibration;

  it('should keep the budget on the runs it was fitted on: two-phase the one given, one-phase free', async () => {
    first = await calibrate(settings);
    expect(first.data.runs).toBe(54);
    expect(first.data.groups).toBe(27);
    const options = { policy: first.fitted.policy, detectors: first.fitted.detectors } as LoopDetectorOptions;
    const report = await evaluate(await openEvalSource(dir), options);
    // fitted for the two-phase replay (the default): the budget there, none one-phase
    expect(first.budget.maxFalseAlarms).toEqual([1, settings.maxFalseAlarms]);
    expect(report.twoPhase.overall.submittedBroken.rate).toBeLessThanOrEqual(settings.maxFalseAlarms);
    // the warning budget is the starting point's own share two-phase
    const started = await evaluate(await openEvalSource(dir), {});
    expect(first.budget.maxWarnings[1]).toBe(started.twoPhase.overall.submittedWarned.rate);
    expect(report.twoPhase.overall.submittedWarned.rate).toBeLessThanOrEqual(first.budget.maxWarnings[1]);
    // and it does catch loops
    expect(report.onePhase.overall.stepLimitBroken.count).toBeGreaterThan(0);
  }, 120_000);

  it('should report held-out figures per fold, pooled over the folds', async () => {
    expect(first.perFold.map((f) => f.fold)).toEqual([1, 2, 3]);
    expect(first.perFold.reduce((n, f) => n + f.runs, 0)).toBe(first.data.runs);
    for (const phase of ['onePhase', 'twoPhase'] as const) {
      const pooled = first.heldOut[phase].stepLimitBroken;
      expect(first.perFold.reduce((n, f) => n + f[phase].stepLimitBroken.count, 0)).toBe(pooled.count);
      expect(first.perFold.reduce((n, f) => n + f[phase].stepLimitBroken.of, 0)).toBe(pooled.of);
      const rates = first.perFold.map((f) => f[phase].finishedBroken.rate).filter((r): r is number => r !== null);
      expect(first.heldOut[phase].finishedBroken.min).toBe(Math.min(...rates));
      expect(first.heldOut[phase].finishedBroken.max).toBe(Math.max(...rates));
      expect(pooled.low).not.toBeNull();
    }
    expect(first.heldOut.onePhase.resolvedBroken).not.toBeNull();
  });

  it('should fit the same for the same seed', async () => {
    const again = await calibrate(settings);
    expect(timeless(again)).toEqual(timeless(first));
  }, 120_000);

  it('should write a config that eval, scan, LoopDetector, LoopEngine and LoopPool accept', async () => {
    const out = tempDir();
    made.push(out);
    const file = join(out, 'fitted.json');
    const run = await loopwatchInProcess(['calibrate', dir, '--folds', '3', '--seed', '5', '--restarts', '1', '--max-false-alarms', '2%', '-o', file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('held out');
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(config)).toEqual(expect.arrayContaining(['detectors', 'policy', 'expected', 'fitted']));
    // the CLI fits what the API fits
    expect(config.policy).toEqual(first.fitted.policy);
    expect((config.fitted as { command: string }).command).toContain('loopwatch calibrate');
    expect((config.expected as { twoPhase: { finishedBroken: { rate: number } } }).twoPhase.finishedBroken.rate).toBeCloseTo(first.heldOut.twoPhase.finishedBroken.rate as number, 4);

    const evaluated = await loopwatchInProcess(['eval', dir, '--config', file, '--json']);
    expect(evaluated.stderr).toBe('');
    expect(evaluated.code).toBe(0);
    const scanned = await loopwatchInProcess(['scan', join(dir, 'events.jsonl'), '--config', file, '--json']);
    // (scan notes the label file beside the runs on stderr)
    expect(scanned.stderr).not.toMatch(/config|option|error/i);
    expect([0, 1]).toContain(scanned.code);

    const options = configOptions(config);
    const events: ToolEvent[] = Array.from({ length: 9 }, () => ({ tool: 'bash', args: { command: 'make' }, error: 'make: *** [all] Error 2' }));
    const byOptions = new LoopDetector({ policy: first.fitted.policy, detectors: first.fitted.detectors } as LoopDetectorOptions);
    const byConfig = new LoopDetector(options);
    const engine = new LoopEngine(options);
    const pool = new LoopPool({ ...options, workers: 1 });
    try {
      for (const e of events) {
        const want = byOptions.check(e);
        expect(byConfig.check(e)).toEqual(want);
        const fromEngine = engine.check('s', e);
        expect(fromEngine === null ? null : [fromEngine.kind, fromEngine.action, fromEngine.confidence]).toEqual(want === null ? null : [want.kind, want.action, want.confidence]);
        const pooled = await pool.check('s', e);
        expect(pooled?.action ?? null).toBe(want?.action ?? null);
      }
    } finally {
      engine.close();
      await pool.close();
    }
  }, 180_000);

  it('should send the config to standard output and the report to standard error without -o', async () => {
    const run = await loopwatchInProcess(['calibrate', dir, '--folds', '3', '--seed', '5', '--restarts', '0', '--json']);
    expect(run.code).toBe(0);
    const config = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(config.policy).toBeDefined();
    const report = JSON.parse(run.stderr) as { heldOut: unknown; perFold: unknown[] };
    expect(report.perFold).toHaveLength(3);
  }, 120_000);
});
