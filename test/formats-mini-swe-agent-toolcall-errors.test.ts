/**
 * mini-swe-agent 2.x refuses a tool-calling model's reply with no tool call ("No tool calls found in the
 * response. Every response MUST include at least one tool call.") or with a call it cannot run ("Unknown
 * tool '...'.", "Missing 'command' argument in bash tool call.", "Error parsing tool call arguments: ..."),
 * runs nothing, and answers with a `user` message marked `extra.interrupt_type: "FormatError"`
 * (models/utils/actions_toolcall.py). Such a turn had no call (a reply without tool calls) or a call left
 * without an outcome, so a run stuck on format errors read as quiet, where 1.x's text-based format errors
 * are failed `_format_error` calls (formats-mini-swe-agent-format-errors.test.ts). Now they are read alike.
 * The messages are written as mini-swe-agent 2.x writes them, its default `format_error_template` around the error.
 */
import { describe, expect, it } from 'vitest';
import { FORMAT_ERROR_TOOL } from '../src/formats/mini-swe-text.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-mini-swe-agent-toolcall-errors');

const NO_CALLS = 'No tool calls found in the response. Every response MUST include at least one tool call.';
const refusal = (error: string, extra = true) => ({
  role: 'user',
  content: `Tool call error:\n\n<error>\n${error}\n</error>\n\nHere is general guidance on how to submit correct toolcalls:\n\nEvery response needs to use the 'bash' tool at least once to execute commands.`,
  ...(extra ? { extra: { interrupt_type: 'FormatError' } } : {}),
});
const task = [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: 'Fix the failing test.' }];
const ls = [
  { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '<returncode>0</returncode>\n<output>\na.py\n</output>', extra: { returncode: 0 } },
];
const trajectory = (messages: unknown[]) => JSON.stringify({ info: { exit_status: 'LimitsExceeded' }, messages, trajectory_format: 'mini-swe-agent-1.1', instance_id: 'repo__repo-7' }, null, 2);
const callsOf = async (file: string) => {
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.flatMap((i) => (i.kind === 'call' ? [[i.event.tool, i.event.args, i.errorInfo, i.event.round]] : []));
};

describe('mini-swe-agent 2.x tool-calling format errors', () => {
  it('should read a reply without a tool call, refused, as a failed _format_error call, with or without the FormatError mark', async () => {
    const file = write('chat/repo__repo-7.traj.json', trajectory([
      ...task, ...ls,
      { role: 'assistant', content: 'I think the fix is done.', tool_calls: null }, refusal(NO_CALLS),
      { role: 'assistant', content: 'Done.' }, refusal(NO_CALLS, false),
    ]));
    expect(await callsOf(file)).toEqual([['bash', { command: 'ls' }, 'absent', 0], [FORMAT_ERROR_TOOL, { n_blocks: 0 }, 'known', 1], [FORMAT_ERROR_TOOL, { n_blocks: 0 }, 'known', 2]]);
  });

  it("should read a refused reply's calls as failed, the refusal their error, rather than left without an outcome", async () => {
    const file = write('bad/repo__repo-7.traj.json', trajectory([
      ...task,
      { role: 'assistant', content: 'Edit it.', tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'str_replace_editor', arguments: '{"path":"a.py"}' } }] },
      refusal("Unknown tool 'str_replace_editor'.Missing 'command' argument in bash tool call."),
    ]));
    const items = (await collect([file])).filter((i) => i.kind === 'call');
    expect(items.map((c) => c.kind === 'call' && [c.event.tool, c.errorInfo, String(c.event.error).includes("Unknown tool 'str_replace_editor'")])).toEqual([['str_replace_editor', 'known', true]]);
  });

  it('should read a Responses model run the same way', async () => {
    const file = write('responses/repo__repo-7.traj.json', trajectory([
      ...task,
      { id: 'resp_1', object: 'response', output: [{ type: 'function_call', call_id: 'fc_1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { type: 'function_call_output', call_id: 'fc_1', output: 'a.py', extra: { returncode: 0 } },
      { id: 'resp_2', object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'All done.' }] }] },
      refusal(NO_CALLS),
    ]));
    expect(await callsOf(file)).toEqual([['bash', { command: 'ls' }, 'absent', 0], [FORMAT_ERROR_TOOL, { n_blocks: 0 }, 'known', 1]]);
  });

  it('should leave a chat that is not a mini-swe-agent trajectory as it was', async () => {
    const file = write('plain/chat.json', JSON.stringify({ messages: [...task, ...ls, { role: 'assistant', content: 'Done.' }, refusal(NO_CALLS)] }));
    expect(await callsOf(file)).toEqual([['bash', { command: 'ls' }, 'absent', 0]]);
  });

  it('should flag a run stuck on format errors, which had one call and read as quiet before', async () => {
    const stuck: unknown[] = [...task, ...ls];
    for (let i = 0; i < 12; i++) stuck.push({ role: 'assistant', content: 'The fix is complete.', tool_calls: null }, refusal(NO_CALLS));
    const file = write('stuck/repo__repo-7.traj.json', trajectory(stuck));
    const report = JSON.parse((await loopwatchInProcess(['scan', file, '--json', '--no-progress'])).stdout) as { summary: { events: number; flaggedSessions: number } };
    expect([report.summary.events, report.summary.flaggedSessions]).toEqual([13, 1]);
  });
});
