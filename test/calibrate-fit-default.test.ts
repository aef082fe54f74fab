/**
 * scripts/fit-default.mjs (the fit of the shipped default) rerun on a small fixed sample of the real traces
 * (every 25th labelled session, copied into a temporary folder; skipped without ../shared): the same
 * command twice gives the same fit, and the fit keeps its false-alarm budget on the runs it was fitted on
 * (1% of finished runs broken two-phase; one-phase no more than the hand default breaks).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/eval/eval-report.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import { configOptions } from '../src/index.js';
import { writeTraceSample } from './helpers/calibrate-runs.js';
import { tempDir } from './helpers/cli.js';

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'fit-default.mjs');
const sample = writeTraceSample(25, 3);
afterAll(() => {
  if (sample !== null) rmSync(sample, { recursive: true, force: true });
});

/** The fitted config of one run of the script on the sample, without its date. */
function fit(out: string): Record<string, unknown> {
  const text = execFileSync(process.execPath, [SCRIPT, '--check', '--config-out', out, sample as string], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(text).toMatch(/held out/);
  expect(text).toMatch(/two-phase, replayed on each whole set/);
  const config = JSON.parse(readFileSync(out, 'utf8')) as { fitted: Record<string, unknown> } & Record<string, unknown>;
  return { ...config, fitted: { ...config.fitted, date: null } };
}

describe.skipIf(sample === null)('scripts/fit-default.mjs on a sample of the traces', () => {
  it('should fit the same twice and keep the false-alarm budget on the runs it was fitted on', async () => {
    const dir = tempDir();
    const first = fit(join(dir, 'a.json'));
    const second = fit(join(dir, 'b.json'));
    expect(second).toEqual(first);
    // fitted for the two-phase replay at 1%, the one-phase replay held to the starting point's own share
    // (--hold-other: the shipped default is also what scan and check() run)
    const budget = (first.fitted as { maxFalseAlarms: { onePhase: number; twoPhase: number } }).maxFalseAlarms;
    expect(budget.twoPhase).toBe(0.01);
    expect(budget.onePhase).toBeLessThan(1);
    expect((first.fitted as { command: string }).command).toMatch(/ --hold-other /);
    const report = await evaluate(await openEvalSource(sample as string), configOptions(first));
    expect(report.twoPhase.overall.submittedBroken.rate ?? 0).toBeLessThanOrEqual(0.01);
  }, 600_000);
});

describe('the committed output of scripts/fit-default.mjs, the shipped default', () => {
  it('should be a config every --config reader accepts', async () => {
    const { FITTED_DEFAULT } = await import('../src/options/fitted-default.js');
    expect(() => configOptions(FITTED_DEFAULT)).not.toThrow();
    expect((FITTED_DEFAULT.fitted as { command: string }).command).toMatch(/^loopwatch calibrate /);
  });

  it('should be the shipped default, laid over the hand-tuned values', async () => {
    const { FITTED_DEFAULT } = await import('../src/options/fitted-default.js');
    const { CONFIG_PRESETS } = await import('../src/presets/config-options.js');
    const { resolveOptions } = await import('../src/options/resolve-options.js');
    const { policy, detectors } = FITTED_DEFAULT as { policy: Record<string, unknown>; detectors: Record<string, Record<string, number>> };
    const shipped = resolveOptions(configOptions({}));
    expect(shipped).toEqual(resolveOptions(configOptions({ preset: 'hand-tuned', policy, detectors })));
    expect(shipped.policy.kindWeights).toEqual(policy.kindWeights);
    expect(resolveOptions(configOptions({ preset: 'hand-tuned' })).policy.kindWeights).toEqual({});
    // a caller's options are laid over the fitted ones
    expect(resolveOptions(CONFIG_PRESETS.default?.({ policy: { cooldown: 3 } })).policy).toEqual({ ...shipped.policy, cooldown: 3 });
  });
});
