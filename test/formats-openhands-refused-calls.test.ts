/**
 * OpenHands calls the harness refused as malformed: the controller writes an `error` observation from the
 * agent with no `cause` where the action would be. Each is a call (of `_invalid_action`, a known failure
 * holding the message), so a run stuck sending malformed calls is counted and found, not read as quiet;
 * the controller's own reports (an iteration limit, "stuck in a loop") stay no calls.
 */
import { describe, expect, it } from 'vitest';
import { REFUSED_TOOL } from '../src/formats/openhands-refused.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const { write } = scratchDir('formats-openhands-refused-calls');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const user = { id: 0, source: 'user', action: 'message', args: { content: 'Fix the bug.' } };
const run = (id: number, command: string) => ({ id, source: 'agent', action: 'run', args: { command, thought: '' }, tool_call_metadata: { function_name: 'execute_bash', model_response: { id: `r${id}` } } });
const ran = (id: number, cause: number, content: string, exit: number) => ({ id, source: 'agent', cause, observation: 'run', content, extras: { metadata: { exit_code: exit } } });
const refused = (id: number, content: string) => ({ id, source: 'agent', observation: 'error', content, extras: { error_id: '' } });
const MISSING = 'Missing required argument "command" in tool call execute_bash';

describe('OpenHands calls the harness refused', () => {
  it('should read an agent error observation without a cause as a failed call, and a controller report or a caused error as before', async () => {
    const file = write('refused/trajectory.jsonl', jsonl([
      user,
      run(1, 'ls'),
      ran(2, 1, 'a.py', 0),
      refused(3, MISSING),
      run(4, 'cat a.py'),
      { id: 5, source: 'agent', cause: 4, observation: 'error', content: 'File not found' },
      refused(6, 'Tool str_replace_editr is not registered. Please check the tool name and retry with an existing tool.'),
      refused(7, 'Agent reached maximum iteration in headless mode, task stopped.'),
      { id: 8, source: 'user', observation: 'error', content: 'user side' },
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.flatMap((i) => (i.kind === 'call' ? [[i.event.tool, i.event.args, i.errorInfo, i.event.error, i.event.round, i.line]] : []));
    expect(calls).toEqual([
      ['execute_bash', { command: 'ls' }, 'absent', undefined, 0, 2],
      [REFUSED_TOOL, {}, 'known', MISSING, 1, 4],
      ['execute_bash', { command: 'cat a.py' }, 'known', 'File not found', 2, 5],
      [REFUSED_TOOL, {}, 'known', 'Tool str_replace_editr is not registered. Please check the tool name and retry with an existing tool.', 3, 7],
    ]);
  });

  it('should read an error of an old flattened history that answers no action as a refused call', async () => {
    const file = write('flat/output.jsonl', jsonl([{ instance_id: 'repo__repo-1', history: [
      { action: 'run', command: 'ls', thought: 'look' },
      { observation: 'run', content: 'a.py', exit_code: 0 },
      { observation: 'error', content: MISSING },
    ] }]));
    const calls = (await collect([file])).flatMap((i) => (i.kind === 'call' ? [[i.session, i.event.tool, i.errorInfo]] : []));
    expect(calls).toEqual([['repo__repo-1', 'run', 'absent'], ['repo__repo-1', REFUSED_TOOL, 'known']]);
  });

  it('should flag a run stuck sending the same malformed call, which read as quiet before', async () => {
    const events: unknown[] = [user, run(1, 'ls'), ran(2, 1, 'a.py', 0)];
    for (let i = 0; i < 12; i++) events.push(refused(3 + i, MISSING));
    const file = write('stuck/trajectory.jsonl', jsonl(events));
    const r = await loopwatchInProcess(['scan', file, '--json', '--no-progress']);
    const report = JSON.parse(r.stdout) as { summary: { events: number; flaggedSessions: number } };
    expect(report.summary.events).toBe(13);
    expect(report.summary.flaggedSessions).toBe(1);
    expect(r.code).toBe(1);
  });
});
