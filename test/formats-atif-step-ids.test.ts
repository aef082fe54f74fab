/**
 * ATIF steps are numbered by the trajectory (`step_id`, from 1; a user step first): a call's step is its
 * step's `step_id`, so `scan --jsonl`, the summary's "loop began step N, flagged at step M", `explain` and
 * the report name the step a person finds in the file (newuser18: they named the call's position, 0, 1,
 * 2, ..., so "flagged at step 2" pointed at the user's step 2 while the call was step_id 4). A `step_id`
 * that is not a whole number from 0 leaves the call its position.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { writeFileSync } from 'node:fs';

const { write } = scratchDir('formats-atif-step-ids');

/** An ATIF trajectory: a user step (step_id 1), then `n` agent steps running the same failing command. */
function looping(n: number, stepId: (k: number) => unknown = (k) => k + 2): unknown {
  const steps: unknown[] = [{ step_id: 1, source: 'user', message: 'Fix the failing test.' }];
  for (let k = 0; k < n; k++) {
    steps.push({ step_id: stepId(k), source: 'agent', message: 'Running the tests.', tool_calls: [{ tool_call_id: `call_${k}`, function_name: 'bash', arguments: { command: 'pytest -x' } }], observation: { results: [{ source_call_id: `call_${k}`, content: '1 failed' }] } });
  }
  return { schema_version: 'ATIF-v1.5', session_id: 'fix-tests__a1b2', agent: { name: 'terminus-2', version: '2.0.0' }, steps };
}

describe('ATIF step numbers', () => {
  it('should give each call its step\'s step_id', async () => {
    const file = write('trial/agent/trajectory.json', JSON.stringify(looping(3)));
    const steps = (await collect([file])).flatMap((i) => (i.kind === 'call' ? [i.event.step] : []));
    expect(steps).toEqual([2, 3, 4]);
  });

  it('should give a call its position when its step_id is not a whole number from 0', async () => {
    const ids: unknown[] = ['7', -1, 2.5, null];
    const file = write('odd/agent/trajectory.json', JSON.stringify(looping(5, (k) => (k < ids.length ? ids[k] : 40))));
    const steps = (await collect([file])).flatMap((i) => (i.kind === 'call' ? [i.event.step] : []));
    expect(steps).toEqual([0, 1, 2, 3, 40]);
  });

  it('should name the trajectory\'s steps in scan --jsonl, the summary and explain', async () => {
    const dir = tempDir();
    const file = join(dir, 'trajectory.json');
    writeFileSync(file, JSON.stringify(looping(5)));
    const jsonl = await loopwatchInProcess(['scan', file, '--jsonl', '--workers', '0']);
    expect(jsonl.code).toBe(1);
    const verdicts = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as { index: number; step: number; loopStart: number });
    expect(verdicts.map((v) => [v.index, v.step, v.loopStart])).toEqual([[2, 4, 0], [3, 5, 0], [4, 6, 0]]);
    const summary = await loopwatchInProcess(['scan', file, '--workers', '0', '--no-progress']);
    expect(summary.stdout).toContain('step 2, flagged at step 4');
    const explain = await loopwatchInProcess(['explain', 'fix-tests__a1b2', file]);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain("first verdict: call #3 (input's step 4) exact_repeat (warn)");
    expect(explain.stdout).toContain("first break: call #4 (input's step 5) exact_repeat; calls after it: 1");
  });
});
