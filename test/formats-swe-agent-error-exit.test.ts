/**
 * SWE-agent 1.x ends a run that exits on an error (the cost limit, repeated format errors, an environment
 * error) with a trajectory step whose action is empty, the exit message its thought
 * (`attempt_autosubmission_after_error`). That step is no call and no bad record: before, every such run was
 * reported (`bad-record`) and the scan exited 2. An empty action before the last step is still reported.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir } = scratchDir('formats-swe-agent-error-exit');
const step = (action: string, observation: string, thought: string) => ({ action, observation, response: `${thought}\n\n\`\`\`\n${action}\n\`\`\``, thought, execution_time: 0.4, state: { open_file: 'n/a', working_dir: '/testbed' }, query: [{}], extra_info: {} });
const exit = { action: '', observation: 'Exited (autosubmitted)', response: 'Exit due to cost limit', thought: 'Exit due to cost limit', execution_time: 0, state: {}, query: [{}], extra_info: {} };

describe('SWE-agent runs that exit on an error', () => {
  it('should pass over the empty last step, reading the calls before it', async () => {
    const file = join(dir, 'django__django-11099.traj');
    writeFileSync(file, JSON.stringify({ trajectory: [step('ls -la', 'total 4', 'Look.'), step('python reproduce.py', 'Traceback ...', 'Run it.'), exit], history: [], info: { exit_status: 'submitted (exit_cost)', submission: 'diff --git a/x b/x' }, replay_config: '{}', environment: 'main' }));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? `${i.event.tool} ${i.event.step}` : i.kind))).toEqual(['ls 0', 'python 1', 'end']);
    const run = await loopwatchInProcess(['scan', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('skipped');
  });

  it('should still report an empty action before the last step', async () => {
    const file = join(dir, 'odd.traj');
    writeFileSync(file, JSON.stringify({ trajectory: [step('ls', 'a', 'Look.'), { ...exit }, step('submit', 'diff', 'Done.')] }));
    expect((await collect([file])).map((i) => (i.kind === 'issue' ? `${i.code} ${i.message}` : i.kind))).toEqual(['call', 'bad-record trajectory step 1 has no action (received action "" (string)); skipped', 'call', 'end']);
  });
});
