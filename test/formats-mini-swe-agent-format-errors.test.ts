/**
 * A mini-swe-agent text-based run stuck answering in the wrong format (no fenced command, or several) is
 * refused by the harness each turn with its format error. Each such turn is a failed call of
 * `_format_error`, args `{n_blocks}` as the message states, so the run is counted and flagged; before, it
 * had no calls at all and read as quiet.
 */
import { describe, expect, it } from 'vitest';
import { FORMAT_ERROR_TOOL, statedBlocks } from '../src/formats/mini-swe-text.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-mini-swe-agent-format-errors');
const refusal = (n: number) => `Please always provide EXACTLY ONE action in triple backticks, found ${n} actions.\n\nPlease format your action in triple backticks as shown in <response_example>.`;
const task = [{ role: 'system', content: 'One bash block per reply.' }, { role: 'user', content: 'Fix the bug.' }];
const stuck = (turns: number) => {
  const messages: unknown[] = [...task, { role: 'assistant', content: 'THOUGHT: list.\n\n```bash\nls\n```' }, { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' }];
  for (let i = 0; i < turns; i++) messages.push({ role: 'assistant', content: 'THOUGHT: two steps.\n```bash\nls\n```\n```bash\ncat a.py\n```' }, { role: 'user', content: refusal(2) });
  return JSON.stringify({ info: { exit_status: 'LimitsExceeded' }, messages, trajectory_format: 'mini-swe-agent-1', instance_id: 'repo__repo-7' }, null, 2);
};

describe('mini-swe-agent format errors', () => {
  it('should read each refused turn as a failed _format_error call with the number of blocks its message states', async () => {
    const file = write('one/repo__repo-7.traj.json', stuck(2));
    const calls = (await collect([file])).flatMap((i) => (i.kind === 'call' ? [[i.event.tool, i.event.args, i.errorInfo, i.event.round]] : []));
    expect(calls).toEqual([['bash', { command: 'ls' }, 'absent', 0], [FORMAT_ERROR_TOOL, { n_blocks: 2 }, 'known', 1], [FORMAT_ERROR_TOOL, { n_blocks: 2 }, 'known', 2]]);
    expect([statedBlocks(refusal(3)), statedBlocks(refusal(0)), statedBlocks('Please always provide EXACTLY ONE action.')]).toEqual([3, 0, undefined]);
  });

  it('should flag a run stuck on format errors, which had one call and read as quiet before', async () => {
    const file = write('stuck/repo__repo-7.traj.json', stuck(12));
    const r = await loopwatchInProcess(['scan', file, '--json', '--no-progress']);
    const report = JSON.parse(r.stdout) as { summary: { events: number; flaggedSessions: number } };
    expect([report.summary.events, report.summary.flaggedSessions]).toEqual([13, 1]);
  });
});
