/**
 * `loopwatch explain SESSION DIR` on a folder holding the traces and their labels (`sessions.jsonl`, as
 * `../shared/data/traces` has them): the labels file is passed over as scan passes over it, not skipped as
 * an unknown format (exit 2), and its label of the session still reaches the footer. A `sessions.jsonl`
 * that holds no labels is read as any other input.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { writeEvents } from './helpers/format-fixtures.js';

const dirs: string[] = [];
const folder = (): string => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('loopwatch explain on a folder with labels', () => {
  it('should pass over the labels file, exit 0, and show the session label in the footer', async () => {
    const dir = folder();
    writeEvents(dir);
    writeJsonl(dir, 'sessions.jsonl', [{ session: 'stuck', exit_status: 'step_limit', resolved: false, agent: 'SWE-agent' }, { session: 'clean', exit_status: 'submitted' }]);
    const run = await loopwatchInProcess(['explain', 'stuck', dir]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('step_limit');
    expect(await scanStderr(dir)).toContain('not read as a trace');
  });

  it('should still read a sessions.jsonl that holds no labels as an input', async () => {
    const dir = folder();
    writeEvents(dir, 'sessions.jsonl');
    const run = await loopwatchInProcess(['explain', 'stuck', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sessions.jsonl');
  });
});

/** What scan says on stderr about the same folder (the rule explain now shares). */
async function scanStderr(dir: string): Promise<string> {
  return (await loopwatchInProcess(['scan', dir, '--fail-on', 'never'])).stderr;
}
