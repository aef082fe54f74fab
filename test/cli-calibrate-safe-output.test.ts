/**
 * `loopwatch calibrate` prints what it read as eval does: a skipped file's name and an agent family from
 * the labels reach the terminal with control characters escaped and secrets redacted.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir } from './helpers/cli.js';

const dir = writeSyntheticRuns(18, 8);
const out = tempDir();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe('loopwatch calibrate: what it prints', () => {
  it('should escape control characters and redact secrets in skipped files and family names', async () => {
    writeFileSync(join(dir, 'bad\u001b[31mname.jsonl'), '{"not": "a run"}\n');
    const labels = join(dir, 'sessions.jsonl');
    const agent = 'evil\u001b]0;title\u0007 agent sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
    const relabelled = lines(readFileSync(labels, 'utf8')).map((l, i) => (i % 2 === 0 ? JSON.stringify({ ...(JSON.parse(l) as object), agent }) : l));
    writeFileSync(labels, `${relabelled.join('\n')}\n`);
    const run = await loopwatchInProcess(['calibrate', dir, '--folds', '2', '--restarts', '0', '-o', join(out, 'fit.json')]);
    expect(run.code).toBe(2); // a skipped file
    expect(run.stderr).toContain('bad\\x1b[31mname.jsonl');
    expect(run.stdout + run.stderr).not.toContain('\u001b');
    expect(run.stdout + run.stderr).not.toContain('\u0007');
    expect(run.stdout).not.toContain('AAAAAAAAAAAAAAAAAAAA');
  }, 60_000);
});
