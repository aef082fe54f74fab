/**
 * `loopwatch eval` on runs labelled with an exit status no figure counts (a typo such as `exit_step_limit`
 * for `step_limit`, or `unknown`): those runs were counted in "labelled runs judged" and then fell out of
 * every share without a word, so a user's mislabelled folder read as "0 step_limit runs". The first line
 * now says how many runs carry such a status, which, and the statuses that are counted; `--json` gives
 * them as `unjudged`.
 */
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';

/** Four stuck runs labelled with a status eval does not know, two finished runs labelled `submitted`, one `unknown`. */
function mislabelledRuns(): string {
  const dir = tempDir();
  const calls: unknown[] = [];
  const labels: unknown[] = [];
  for (let s = 0; s < 4; s++) {
    for (let i = 0; i < 6; i++) calls.push({ session: `stuck-${s}`, tool: 'bash', args: { command: 'pytest -q' }, error: '1 failed' });
    labels.push({ session: `stuck-${s}`, exit_status: 'exit_step_limit', agent: 'my-agent' });
  }
  for (let s = 0; s < 2; s++) {
    for (let i = 0; i < 6; i++) calls.push({ session: `done-${s}`, tool: 'read', args: { path: `f${i}.py` }, result: `body ${i}` });
    labels.push({ session: `done-${s}`, exit_status: 'submitted', agent: 'my-agent' });
  }
  calls.push({ session: 'odd-1', tool: 'ls', args: {}, result: 'a b' });
  labels.push({ session: 'odd-1', exit_status: 'unknown', agent: 'my-agent' });
  writeJsonl(dir, 'events.jsonl', calls);
  writeJsonl(dir, 'sessions.jsonl', labels);
  return dir;
}

describe('eval with exit statuses no figure counts', () => {
  const dir = mislabelledRuns();

  it('should say how many runs carry a status no figure counts, which, and the statuses counted', async () => {
    const run = await loopwatchInProcess(['eval', dir]);
    expect(run.code).toBe(0);
    const first = run.stdout.split('\n')[0] as string;
    expect(first).toContain('7 labelled runs judged, 5 of them labelled with an exit status no figure counts ("exit_step_limit" 4, "unknown" 1; counted: submitted, step_limit, exit_cost, exit_context, interactive)');
  });

  it('should give them by status in --json', async () => {
    const run = await loopwatchInProcess(['eval', dir, '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { unjudged: Record<string, number> };
    expect(doc.unjudged).toEqual({ exit_step_limit: 4, unknown: 1 });
  });

  it('should say nothing more when every status is counted', async () => {
    const ok = tempDir();
    writeJsonl(ok, 'events.jsonl', [{ session: 'a', tool: 'ls', args: {}, result: 'x' }]);
    writeJsonl(ok, 'sessions.jsonl', [{ session: 'a', exit_status: 'submitted' }]);
    const run = await loopwatchInProcess(['eval', ok]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).not.toContain('no figure counts');
    expect((JSON.parse((await loopwatchInProcess(['eval', ok, '--json'])).stdout) as { unjudged: object }).unjudged).toEqual({});
  });
});
