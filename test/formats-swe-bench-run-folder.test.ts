/**
 * A SWE-bench batch run's folder (newuser19): mini-swe-agent 2.x's `mini-extra swebench` writes
 * `<id>/<id>.traj.json` per instance and `preds.json` beside them. Scanning the folder as it is read the
 * trajectories but called preds.json an unknown format, and exited 2 as for skipped data. The trajectory
 * here is the shape mini-swe-agent 2.4.6 saved for a tool-calling model in a real run (its DefaultAgent,
 * LocalEnvironment and test model, looping on a failing pytest), cut to what the reader looks at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const COMMAND = 'python3 -m pytest -q test_calc.py';

/** A mini-swe-agent 2.x trajectory (`trajectory_format` mini-swe-agent-1.1, chat tool calls) of `id`. */
function trajectory(id: string): unknown {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
    { role: 'user', content: 'Please solve this issue: Fix the failing test in test_calc.py' },
  ];
  for (let i = 0; i < 6; i++) {
    const callId = `call_${i}_0`;
    messages.push({ role: 'assistant', content: 'Run the tests again.', tool_calls: [{ id: callId, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: COMMAND }) } }], extra: { actions: [{ command: COMMAND, tool_call_id: callId }], cost: 1, timestamp: 1796604267.2 + i } });
    messages.push({ content: '<returncode>1</returncode>\n<output>\nFAILED test_calc.py::test_add - assert 0 == 4\n1 failed in 0.04s\n</output>', extra: { raw_output: 'FAILED test_calc.py::test_add - assert 0 == 4\n1 failed in 0.04s\n', returncode: 1, timestamp: 1796604267.5 + i, exception_info: '' }, tool_call_id: callId, role: 'tool' });
  }
  messages.push({ role: 'exit', content: 'Submitted', extra: { exit_status: 'Submitted', submission: '' } });
  return { info: { mini_version: '2.4.6', exit_status: 'Submitted', submission: '' }, messages, trajectory_format: 'mini-swe-agent-1.1', instance_id: id };
}

/** A batch run's folder of `ids`, with its preds.json and exit statuses, as mini-extra swebench leaves it. */
function batchRun(ids: readonly string[], withTrajectories = true): string {
  const dir = join(tempDir(), 'run');
  mkdirSync(dir, { recursive: true });
  for (const id of ids) {
    mkdirSync(join(dir, id));
    if (withTrajectories) writeFileSync(join(dir, id, `${id}.traj.json`), JSON.stringify(trajectory(id), null, 2));
  }
  const preds = Object.fromEntries(ids.map((id) => [id, { model_name_or_path: 'gpt-x', instance_id: id, model_patch: '' }]));
  writeFileSync(join(dir, 'preds.json'), JSON.stringify(preds, null, 2));
  writeFileSync(join(dir, 'exit_statuses_1796604267.3.yaml'), `instances_by_exit_status:\n  Submitted:\n${ids.map((id) => `  - ${id}\n`).join('')}`);
  return dir;
}

describe('a SWE-bench batch run folder', () => {
  it('should read the trajectories and pass preds.json over with a note, not skip it as unknown', async () => {
    const dir = batchRun(['calc-1', 'calc-2']);
    const run = await loopwatchInProcess(['scan', dir, '--json', '--workers', '0']);
    expect(run.stderr).not.toContain('unknown-format');
    expect(run.stderr).toContain('preds.json (the patches submitted, no calls) passed over');
    expect(run.code).toBe(1); // each run's loop reached break; nothing skipped
    const summary = JSON.parse(run.stdout).summary as { sessions: number; events: number; skipped: number; toolFailures: number };
    expect(summary).toMatchObject({ sessions: 2, events: 12, skipped: 0, toolFailures: 12 });
  });

  it('should still report a preds.json beside no trajectory (not plainly a batch run)', async () => {
    const dir = batchRun(['calc-1'], false);
    const run = await loopwatchInProcess(['scan', dir]);
    expect(run.stderr).toContain('preds.json:1: skipped (unknown-format)');
    expect(run.code).toBe(2);
  });
});
