/**
 * `loopwatch calibrate DIR DIR...` fits on several folders of labelled runs at once (the public traces and
 * a set of one's own sessions, each with its own sessions.jsonl): each run is judged by the labels of its
 * own folder, so a fit on the runs split into two folders is the fit on them in one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir } from './helpers/cli.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
const sessionOf = (line: string): string => (JSON.parse(line) as { session: string }).session;

/** The runs of `dir` split into two folders by session (even-numbered runs in the first), each with its labels. */
function splitRuns(dir: string): [string, string] {
  const root = tempDir();
  made.push(root);
  const parts: [string, string] = [join(root, 'a'), join(root, 'b')];
  const first = (line: string): boolean => Number(sessionOf(line).replace('run-', '')) % 2 === 0;
  for (const [k, part] of parts.entries()) {
    mkdirSync(part);
    for (const name of ['events.jsonl', 'sessions.jsonl']) {
      writeFileSync(join(part, name), `${lines(join(dir, name)).filter((l) => first(l) === (k === 0)).join('\n')}\n`);
    }
  }
  return parts;
}

describe('loopwatch calibrate on several folders', () => {
  it('should judge each run by its own folder\'s labels, as one folder holding them all', async () => {
    const dir = writeSyntheticRuns(36, 4);
    made.push(dir);
    const [a, b] = splitRuns(dir);
    // a label in the other folder does not count: folder b's labels also label folder a's runs, as finished
    const other = lines(join(a, 'sessions.jsonl')).map((l) => JSON.stringify({ ...(JSON.parse(l) as object), exit_status: 'submitted', task_group: 'elsewhere' }));
    writeFileSync(join(b, 'sessions.jsonl'), `${[...lines(join(b, 'sessions.jsonl')), ...other].join('\n')}\n`);
    const settings = { start: {}, maxFalseAlarms: 0.05, folds: 3, seed: 2, restarts: 0 } as const;
    const one = await calibrate({ ...settings, dir });
    const two = await calibrate({ ...settings, dir: [a, b] });
    expect(two.data).toEqual(one.data);
    expect(two.data.runs).toBe(36);
    expect(two.heldOut.twoPhase.stepLimitBroken.of).toBe(one.heldOut.twoPhase.stepLimitBroken.of);
    expect(two.starting).toEqual(one.starting);
  }, 120_000);

  it('should take several folders on the command line, and --labels with one only', async () => {
    const dir = writeSyntheticRuns(18, 5);
    made.push(dir);
    const [a, b] = splitRuns(dir);
    const run = await loopwatchInProcess(['calibrate', a, b, '--folds', '2', '--restarts', '0', '--json', '-o', join(dir, 'fit.json')]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { data: { runs: number } }).data.runs).toBe(18);
    const refused = await loopwatchInProcess(['calibrate', a, b, '--labels', join(a, 'sessions.jsonl')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--labels names the label file of one folder/);
  }, 120_000);
});
