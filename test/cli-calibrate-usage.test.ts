/**
 * `loopwatch calibrate`'s usage errors: each is one line on stderr naming the flag, the rule and what was
 * received, with exit code 2 and nothing on stdout; and its help.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCalibrateArgs, percentFlag } from '../src/cli/calibrate-command.js';
import { UsageError } from '../src/cli/usage-error.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `loopwatch calibrate ...args` and expects a usage error whose message matches `message`. */
async function usage(args: readonly string[], message: RegExp): Promise<void> {
  const run = await loopwatchInProcess(['calibrate', ...args]);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
}

describe('loopwatch calibrate: usage errors', () => {
  it('should want a folder, and --labels with one folder only', async () => {
    await usage([], /name the folder of labelled runs: loopwatch calibrate DIR/);
    await usage([dir, dir, '--labels', join(dir, 'l.jsonl')], /--labels names the label file of one folder, received 2 folders/);
  });

  it('should take budgets as percentages from 0% to 100%', async () => {
    await usage([dir, '--max-false-alarms', 'lots'], /--max-false-alarms must be a percentage from 0% to 100% \(as 1% or 0.5\), received "lots"/);
    await usage([dir, '--max-warnings', '150%'], /--max-warnings must be a percentage from 0% to 100%.*received "150%"/);
    await usage([dir, '--max-false-alarms', '-1%'], /--max-false-alarms needs a value|--max-false-alarms must be a percentage/);
    expect(percentFlag('--x', '1%', undefined)).toBe(0.01);
    expect(percentFlag('--x', '0.5', undefined)).toBe(0.005);
    expect(percentFlag('--x', undefined, 0.01)).toBe(0.01);
  });

  it('should check folds, seed and restarts', async () => {
    await usage([dir, '--folds', '1'], /--folds must be an integer from 2 to 100, received "1"/);
    await usage([dir, '--folds', 'five'], /--folds must be an integer from 2 to 100, received "five"/);
    await usage([dir, '--seed', '1.5'], /--seed must be an integer from 0 to 4,294,967,295, received "1.5"/);
    await usage([dir, '--restarts', '101'], /--restarts must be an integer from 0 to 100, received "101"/);
  });

  it('should name an unknown flag with the closest known one', async () => {
    await usage([dir, '--fold', '3'], /unknown flag --fold \(did you mean --folds\?\)/);
    await usage([dir, '--family', 'nope'], /--family must be PATTERN=FAMILY/);
  });

  it('should need labels, labelled runs and as many task groups as folds', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await usage([empty], /no labels: .*sessions.jsonl does not exist/);
    await usage([join(dir, 'missing')], /no such file or folder/);
    const few = join(dir, 'few');
    mkdirSync(few);
    writeJsonl(few, 'events.jsonl', [
      { session: 'a', tool: 'ls', args: {}, result: 'x' },
      { session: 'b', tool: 'ls', args: {}, result: 'x' },
    ]);
    writeJsonl(few, 'sessions.jsonl', [
      { session: 'a', exit_status: 'submitted', task_group: 't1' },
      { session: 'b', exit_status: 'step_limit', task_group: 't1' },
    ]);
    await usage([few, '--folds', '2'], /2 folds need at least 2 task groups, the labelled runs have 1; lower --folds/);
    const unmatched = join(dir, 'unmatched');
    mkdirSync(unmatched);
    writeJsonl(unmatched, 'events.jsonl', [{ session: 'a', tool: 'ls', args: {}, result: 'x' }]);
    writeJsonl(unmatched, 'sessions.jsonl', [{ session: 'zzz', exit_status: 'submitted' }]);
    await usage([unmatched], /no run matched a label of/);
  });

  it('should refuse a bad starting point before reading runs', async () => {
    await usage([dir, '--preset', 'loud'], /--preset must be one of default, hand-tuned, balanced/);
    await usage([dir, '--config', join(dir, 'none.json')], /--config .*none.json: cannot read the file/);
  });

  it('should parse the defaults', async () => {
    const s = parseCalibrateArgs(['runs/']);
    expect(s).toMatchObject({ dirs: ['runs/'], maxFalseAlarms: 0.01, maxWarnings: undefined, budgetScope: 'two-phase', folds: 5, seed: 1, restarts: 2, output: undefined, json: false });
    expect(parseCalibrateArgs(['runs/', '--replay', 'both']).budgetScope).toBe('both');
    expect(s.holdOther).toBe(false);
    expect(parseCalibrateArgs(['runs/', '--hold-other']).holdOther).toBe(true);
    expect(() => parseCalibrateArgs(['runs/', '--replay', 'live'])).toThrow(/--replay must be one of two-phase, one-phase, both, received "live"/);
    expect(() => parseCalibrateArgs(['runs/', '-o', ''])).toThrow(UsageError);
    expect(parseCalibrateArgs(['runs/', 'devset/']).dirs).toEqual(['runs/', 'devset/']);
  });

  it('should print its help', async () => {
    const run = await loopwatchInProcess(['calibrate', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--max-false-alarms', '--max-warnings', '--replay', '--hold-other', '--folds', '--seed', '--preset', '--config', '-o, --output', '--json']) expect(run.stdout).toContain(flag);
    expect((await loopwatchInProcess(['--help'])).stdout).toContain('calibrate DIR');
  });
});
