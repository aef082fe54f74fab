/**
 * mini-swe-agent 2.x trajectories (`.traj.json`, `trajectory_format: mini-swe-agent-1.1`): the command's exit
 * status in each observation's `extra.returncode` is its outcome, with a chat model (`role: 'tool'`
 * messages, read as OpenAI chat) and with a Responses model (saved responses and `function_call_output`
 * items, read as OpenAI Responses). Shapes as `format_toolcall_observation_messages` writes them
 * (mini-swe-agent src/minisweagent/models/utils/actions_toolcall*.py) and as a published run holds them
 * (eval/example_trajectories/astropy__astropy-12907.traj.json, mini 2.3.0).
 */
import { describe, expect, it } from 'vitest';
import { NOT_EXECUTED } from '../src/formats/mini-swe-outcome.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-mini-swe');

const observation = (returncode: number, output: string, exception_info = '') =>
  `${exception_info === '' ? '' : `<exception>${exception_info}</exception>\n`}<returncode>${returncode}</returncode>\n<output>\n${output}</output>`;
const extra = (returncode: number, output: string, exception_info = '') => ({ raw_output: output, returncode, timestamp: 1780680349.6, exception_info });

const bash = (id: string, command: string) => ({ index: 0, function: { arguments: JSON.stringify({ command }), name: 'bash' }, id, type: 'function' });
const assistant = (id: string, command: string) => ({ content: '', role: 'assistant', tool_calls: [bash(id, command)], function_call: null, extra: { actions: [{ command, tool_call_id: id }] } });
const tool = (id: string, returncode: number, output: string, exception_info = '') => ({ content: observation(returncode, output, exception_info), extra: extra(returncode, output, exception_info), tool_call_id: id, role: 'tool' });

/** A chat-model trajectory: one command per returncode case, and a plain OpenAI tool message without `extra`. */
const chatTrajectory = {
  info: { mini_version: '2.3.0', exit_status: 'Submitted', submission: '' },
  messages: [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer shell to solve programming tasks.' },
    { role: 'user', content: '<pr_description>Fix separability_matrix.</pr_description>' },
    assistant('call_1', 'cd /testbed && ls'),
    tool('call_1', 0, 'astropy\nsetup.py\n'),
    assistant('call_2', 'cd /testbed && python -c "import astropy"'),
    tool('call_2', 1, 'Traceback (most recent call last):\nModuleNotFoundError: No module named erfa\n'),
    assistant('call_3', 'sleep 100'),
    tool('call_3', -1, '', 'An error occurred while executing the command: Command timed out'),
    assistant('call_4', 'cat patch.txt'),
    tool('call_4', -1, '', NOT_EXECUTED),
    assistant('call_5', 'git diff'),
    { role: 'tool', tool_call_id: 'call_5', content: 'diff --git a/x b/x' },
    { role: 'exit', content: '', extra: { exit_status: 'Submitted', submission: '' } },
  ],
  trajectory_format: 'mini-swe-agent-1.1',
};

describe('mini-swe-agent 2.x trajectories: extra.returncode', () => {
  it('should read a chat-model trajectory exit status as the outcome: 0 clean, other failed, -1 failed when it raised, unknown when not run or absent', async () => {
    const file = write('chat/astropy__astropy-12907.traj.json', JSON.stringify(chatTrajectory, null, 2));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls.map((c) => [c.event.tool, c.errorInfo, c.event.error])).toEqual([
      ['bash', 'absent', undefined],
      ['bash', 'known', observation(1, 'Traceback (most recent call last):\nModuleNotFoundError: No module named erfa\n')],
      ['bash', 'known', observation(-1, '', 'An error occurred while executing the command: Command timed out')],
      ['bash', 'unknown', undefined],
      ['bash', 'unknown', undefined],
    ]);
    expect(calls[1]!.event.result).toBe(observation(1, 'Traceback (most recent call last):\nModuleNotFoundError: No module named erfa\n'));
  });

  it('should read a Responses-model trajectory: saved responses as their output items, function_call_output exit status as the outcome', async () => {
    const fc = (call_id: string, command: string) => ({ type: 'function_call', id: `fc_${call_id}`, call_id, name: 'bash', arguments: JSON.stringify({ command }), status: 'completed' });
    const response = (n: number, ...output: unknown[]) => ({ id: `resp_${n}`, object: 'response', created_at: 1000 + n, model: 'gpt-5.5', output, usage: { input_tokens: 10, output_tokens: 5 }, extra: { actions: [], cost: 0.01 } });
    const out = (call_id: string, returncode: number, output: string) => ({ extra: { ...extra(returncode, output) }, type: 'function_call_output', call_id, output: observation(returncode, output) });
    const trajectory = {
      info: { mini_version: '2.2.8', exit_status: 'LimitsExceeded' },
      messages: [
        { role: 'system', content: 'system' },
        { role: 'user', content: 'task' },
        response(1, { type: 'reasoning', id: 'rs_1', summary: [] }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Running the tests.' }] }, fc('a', 'pytest -q')),
        out('a', 2, 'ERROR: usage'),
        response(2, fc('b', 'ls')),
        out('b', 0, 'tests\n'),
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const file = write('responses/run.traj.json', JSON.stringify(trajectory, null, 2));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i) => i.kind === 'call');
    expect(calls.map((c) => [c.event.args, c.event.text, c.errorInfo, c.event.error])).toEqual([
      [{ command: 'pytest -q' }, 'Running the tests.', 'known', observation(2, 'ERROR: usage')],
      [{ command: 'ls' }, undefined, 'absent', undefined],
    ]);
  });

  it('should count the failed commands in scan\'s summary', async () => {
    const file = write('scan/run.traj.json', JSON.stringify(chatTrajectory));
    const r = await loopwatchInProcess(['scan', file, '--json', '--no-progress']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: { events: number; toolFailures: number } };
    expect(report.summary).toMatchObject({ events: 5, toolFailures: 2 });
  });
});
