/**
 * mini-swe-agent's batch runs write one `<instance_id>/<instance_id>.traj.json` per task with the task's
 * `instance_id` at the top level: each trajectory is the session of that id, in every shape it is saved in
 * (a text-based model's replies, a tool-calling model's chat messages, a Responses model's saved
 * responses). Before, every one of them was named `<file>:1`, so a scan of a batch listed 500 sessions by
 * their file's line. A record's own `id` still wins, and a trajectory without an `instance_id` (a single
 * `mini` run, saved as `last_mini_run.traj.json` or its `-o` file) is named by its file's stem, as a harness
 * naming runs by their output files expects (it was `<file>:1`).
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-mini-swe-agent-session');

const task = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Fix the failing test.' },
];
const textTurns = [...task, { role: 'assistant', content: 'THOUGHT: look.\n\n```bash\nls\n```' }, { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' }];
const toolTurns = [
  ...task,
  { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'a.py', extra: { returncode: 0 } },
];
const responseTurns = [
  ...task,
  { id: 'resp_1', object: 'response', output: [{ type: 'function_call', call_id: 'fc_1', name: 'bash', arguments: '{"command":"ls"}' }] },
  { type: 'function_call_output', call_id: 'fc_1', output: 'a.py', extra: { returncode: 0 } },
];
const trajectory = (messages: unknown[], more: Record<string, unknown>) => JSON.stringify({ info: { exit_status: 'Submitted' }, messages, trajectory_format: 'mini-swe-agent-1.1', ...more }, null, 2);

/** The session of every call and end read from `files`. */
async function sessions(files: string[]): Promise<string[]> {
  const items = await collect(files);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.flatMap((i) => (i.kind === 'call' || i.kind === 'end' ? [i.session] : []));
}

describe('mini-swe-agent trajectory sessions', () => {
  it('should name each trajectory of a batch by its instance_id, whether its model writes fenced commands, chat tool calls or Responses items', async () => {
    const files = [
      write('batch/astropy__astropy-7166/astropy__astropy-7166.traj.json', trajectory(textTurns, { instance_id: 'astropy__astropy-7166' })),
      write('batch/django__django-11099/django__django-11099.traj.json', trajectory(toolTurns, { instance_id: 'django__django-11099' })),
      write('batch/sympy__sympy-20590/sympy__sympy-20590.traj.json', trajectory(responseTurns, { instance_id: 'sympy__sympy-20590' })),
    ];
    expect(await sessions(files)).toEqual(['astropy__astropy-7166', 'astropy__astropy-7166', 'django__django-11099', 'django__django-11099', 'sympy__sympy-20590', 'sympy__sympy-20590']);
  });

  it('should let a record id win over the instance_id, name a trajectory without one by its file, and keep the place of a chat without the trajectory mark', async () => {
    const withId = write('one/a.traj.json', trajectory(toolTurns, { id: 'run-7', instance_id: 'django__django-1' }));
    const single = write('one/last_mini_run.traj.json', trajectory(toolTurns, {}));
    const named = write('one/fix-login.json', trajectory(textTurns, {}));
    const plainChat = write('one/c.json', JSON.stringify({ messages: toolTurns, instance_id: 'not-a-trajectory' }));
    expect(await sessions([withId, single, named, plainChat])).toEqual(['run-7', 'run-7', 'last_mini_run', 'last_mini_run', 'fix-login', 'fix-login', `${plainChat}:1`, `${plainChat}:1`]);
  });

  it('should keep the place of each run of a .jsonl of trajectories without instance_id (one file, many runs)', async () => {
    const runs = write('one/runs.jsonl', [trajectory(toolTurns, {}), trajectory(toolTurns, {})].map((t) => JSON.stringify(JSON.parse(t))).join('\n') + '\n');
    expect(await sessions([runs])).toEqual([`${runs}:1`, `${runs}:1`, `${runs}:2`, `${runs}:2`]);
  });
});
