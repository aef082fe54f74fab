/**
 * mini-swe-agent trajectories of text-based models (every 1.x run, `trajectory_format: "mini-swe-agent-1"`,
 * and 2.x's text-based models, `"mini-swe-agent-1.1"`): the command is the reply's one fenced block (or 2.x's
 * `extra.actions`), its output the next user message, whose `<returncode>` (or 2.x's `extra.returncode`) is
 * the outcome; a reply with no block or several ran nothing, and the format error answering it is a failed
 * call of `_format_error` (as the public traces count it); a timeout is a failure. Before, such a file was
 * skipped as an unknown format ("reading it as OpenAI chat found no call").
 */
import { describe, expect, it } from 'vitest';
import { ACTION_LOOK, fencedCommands } from '../src/formats/mini-swe-text.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-mini-swe-agent-text');

const reply = (thought: string, command: string, fence = 'bash') => ({ role: 'assistant', content: `THOUGHT: ${thought}\n\n\`\`\`${fence}\n${command}\n\`\`\``, extra: { response: { id: 'chatcmpl-1' } } });
const output = (code: number, out: string) => ({ role: 'user', content: `<returncode>${code}</returncode>\n<output>\n${out}</output>` });
const v1 = (messages: unknown[]) => ({ info: { mini_version: '1.17.5', exit_status: 'Submitted', submission: '' }, messages, trajectory_format: 'mini-swe-agent-1' });
const start = [
  { role: 'system', content: 'Your response must contain exactly ONE bash code block with ONE command.' },
  { role: 'user', content: [{ type: 'text', text: 'Please solve this issue: the tests fail.\n\n```bash\nexample only\n```' }] },
];

describe('mini-swe-agent text trajectories', () => {
  it('should read a 1.x trajectory: each fenced command a bash call, its output the next user message, the return code its outcome', async () => {
    const file = write('runs/django__django-11099/django__django-11099.traj.json', JSON.stringify(v1([
      ...start,
      reply('Run the tests first.', 'pytest -x tests/'),
      output(1, '1 failed\n'),
      reply('Look at the test.', 'cat tests/test_a.py'),
      output(0, 'def test_a(): ...\n'),
      { role: 'assistant', content: 'I think I am done, no command here.' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 0 actions.' },
      { role: 'assistant', content: 'Two at once:\n```bash\nls\n```\n```bash\npwd\n```' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.' },
      reply('Wait for the server.', 'sleep 600'),
      { role: 'user', content: 'The last command <command>sleep 600</command> timed out and has been killed.\nThe output of the command was:\n<output>\n\n</output>\nPlease try another command.' },
      reply('Submit.', 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff', 'mswea_bash_command'),
      { role: 'user', content: 'diff --git a/x b/x' },
    ]), null, 2));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.map((i) => i.kind === 'call' && [i.event.tool, i.event.args, i.errorInfo, i.event.error !== undefined, i.event.text?.slice(0, 24), i.event.round])).toEqual([
      ['bash', { command: 'pytest -x tests/' }, 'known', true, 'THOUGHT: Run the tests f', 0],
      ['bash', { command: 'cat tests/test_a.py' }, 'absent', false, 'THOUGHT: Look at the tes', 1],
      ['_format_error', { n_blocks: 0 }, 'known', true, 'I think I am done, no co', 2],
      ['_format_error', { n_blocks: 2 }, 'known', true, 'Two at once:\n```bash\nls\n', 3],
      ['bash', { command: 'sleep 600' }, 'known', true, 'THOUGHT: Wait for the se', 4],
      ['bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff' }, 'unknown', false, 'THOUGHT: Submit.\n\n```msw', 5],
      false,
    ]);
    const first = items[0];
    expect(first?.kind === 'call' && first.event.result).toBe('<returncode>1</returncode>\n<output>\n1 failed\n</output>');
  });

  it('should read a 2.x text-based trajectory by its extra.actions and extra.returncode, and a reply cut off at the end without a result', async () => {
    const file = write('runs/2x/astropy-1.traj.json', JSON.stringify({
      info: { mini_version: '2.4.6', exit_status: 'LimitsExceeded' },
      trajectory_format: 'mini-swe-agent-1.1',
      messages: [
        ...start,
        { role: 'assistant', content: 'THOUGHT: list.\n\n```mswea_bash_command\nls -la\n```', extra: { actions: [{ command: 'ls -la' }], cost: 0.01 } },
        { role: 'user', content: 'Observation: a b', extra: { raw_output: 'a b', returncode: 2, exception_info: null } },
        { role: 'assistant', content: 'THOUGHT: again.\n\n```mswea_bash_command\nls -la\n```', extra: { actions: [{ command: 'ls -la' }] } },
      ],
    }));
    const items = await collect([file]);
    expect(items.map((i) => i.kind === 'call' && [i.event.args, i.event.result, i.errorInfo])).toEqual([
      [{ command: 'ls -la' }, 'Observation: a b', 'known'],
      [{ command: 'ls -la' }, undefined, 'unknown'],
      false,
    ]);
  });

  it('should still read a chat log without the mini-swe-agent mark as before: a user message is no result', async () => {
    const file = write('chat.json', JSON.stringify({ id: 'c1', messages: [...start, reply('x', 'ls'), output(0, 'a')] }));
    expect((await collect([file])).filter((i) => i.kind !== 'end').map((i) => i.kind === 'issue' && i.code)).toEqual(['unknown-format']);
  });

  it('should find the fenced blocks as mini-swe-agent\'s regex does, looking at a bounded head of a huge reply once', () => {
    expect(fencedCommands('```bash\n  ls -la  \n```')).toEqual(['ls -la']);
    expect(fencedCommands('```bash \r\nls\n```')).toEqual(['ls']);
    expect(fencedCommands('```python\nx\n```\n```bash\nls\n```')).toEqual(['ls']);
    expect(fencedCommands('```bash_script\nls\n```')).toEqual([]);
    expect(fencedCommands('```bash\nls')).toEqual([]);
    expect(fencedCommands('```bash\na\n```\n```bash\nb\n```\n```bash\nc\n```')).toEqual(['a', 'b']);
    const huge = `${'```bash\n'.repeat(ACTION_LOOK / 4)}`;
    const t0 = process.hrtime.bigint();
    expect(fencedCommands(huge)).toEqual(['```bash', '```bash']); // as re.findall pairs them: at most two looked for
    expect(fencedCommands(`${'x'.repeat(ACTION_LOOK)}\`\`\`bash\nls\n\`\`\``)).toEqual([]);
    expect(Number(process.hrtime.bigint() - t0) / 1e9).toBeLessThan(5);
  });
});
