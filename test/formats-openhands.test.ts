/**
 * The OpenHands reader: an events folder read as one input in numeric order (its companions left out),
 * trajectories as JSON arrays or JSON Lines, evaluation output lines with a history; agent actions paired
 * with the observations they caused, failures from error observations, exit codes and success flags, the
 * thought as text, calls of one model response in one round, bad events reported by file and line.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHandsEvents, writeOpenHands } from './helpers/format-fixtures.js';
import { collect, collectAll, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-openhands');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const meta = (response: string, name: string) => ({ function_name: name, tool_call_id: `t-${response}-${name}`, model_response: { id: response }, total_calls_in_response: 2 });
const act = (id: number, action: string, args: object, extra: object = {}) => ({ id, timestamp: '2026-01-05T10:00:00', source: 'agent', message: '', action, args, ...extra });
const obs = (id: number, cause: number, observation: string, content: string, extra: object = {}) => ({ id, timestamp: '2026-01-05T10:00:01', source: 'agent', message: '', cause, observation, content, extras: {}, ...extra });

describe('OpenHands format', () => {
  it('should read an events folder as one session in numeric order, named by its conversation, leaving its companions out', async () => {
    const sessions = writeOpenHands(dir);
    const items = await collectAll([sessions]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const stuck = join(sessions, 'oh-stuck', 'events');
    const calls = items.filter((i) => i.kind === 'call' && i.file === stuck);
    expect(calls).toHaveLength(8);
    expect(calls[0]).toEqual({
      kind: 'call', session: 'oh-stuck', file: stuck, line: 5, errorInfo: 'known',
      event: { tool: 'execute_bash', args: { command: 'pytest -x tests/test_api.py', is_input: false, blocking: false, hidden: false, confirmation_state: 'confirmed' }, result: 'FAILED tests/test_api.py::test_get - AssertionError: 404 != 200', error: 'FAILED tests/test_api.py::test_get - AssertionError: 404 != 200', text: 'Let me run the tests again.', round: 0 },
    });
    expect(calls.map((c) => c.kind === 'call' && c.line)).toEqual([5, 7, 9, 11, 13, 15, 17, 19]);
    expect(items.filter((i) => i.kind !== 'call').map((i) => `${i.kind} ${'session' in i ? i.session : ''} ${i.file.slice(sessions.length)}`)).toEqual([
      'end oh-clean /oh-clean/events',
      'input-end  /oh-clean/events',
      'end oh-stuck /oh-stuck/events',
      'input-end  /oh-stuck/events',
    ]);
  });

  it('should read a trajectory (a JSON array of events): failures, rounds of one model response, actions that are no calls', async () => {
    const file = write('trajectory.json', JSON.stringify([
      { id: 0, source: 'user', message: 'go', action: 'message', args: { content: 'go' } },
      act(1, 'run', { command: 'make', thought: 'Build first.' }, { tool_call_metadata: meta('r1', 'execute_bash') }),
      act(2, 'read', { path: '/a.c', thought: '' }, { tool_call_metadata: meta('r1', 'str_replace_editor') }),
      obs(3, 2, 'error', 'File not found: /a.c'),
      obs(4, 1, 'run', 'still running', { extras: { metadata: { exit_code: -1 } }, success: false }),
      { id: 5, source: 'user', message: '', action: 'run', args: { command: 'ls' } },
      act(6, 'browse', { url: 'http://localhost' }),
      obs(7, 6, 'browse', 'timeout', { extras: { url: 'http://localhost', error: true } }),
      act(8, 'edit', { path: '/a.c' }),
      obs(9, 8, 'user_rejected', 'Action has been rejected by the user!'),
      act(10, 'call_tool_mcp', { name: 'fetch', arguments: { url: 'x' } }),
      obs(11, 10, 'mcp', '{"ok": true}', { success: true }),
      act(12, 'message', { content: 'Done.' }),
      act(13, 'finish', { final_thought: 'Done.', outputs: {} }),
    ], null, 2));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? [i.session, i.event.tool, i.event.round, i.errorInfo, i.event.text ?? null] : [i.kind]))).toEqual([
      ['trajectory.json', 'execute_bash', 0, 'unknown', 'Build first.'],
      ['trajectory.json', 'str_replace_editor', 0, 'known', null],
      ['trajectory.json', 'browse', 1, 'known', null],
      ['trajectory.json', 'edit', 2, 'known', null],
      ['trajectory.json', 'call_tool_mcp', 3, 'absent', null],
      ['trajectory.json', 'finish', 4, 'unknown', null],
      ['end'],
    ]);
  });

  it('should read evaluation output lines, one session per instance, and JSON Lines of events', async () => {
    const history = openHandsEvents((i) => ({ tool: 'bash', args: { command: `ls ${i}` }, result: 'x' }), false);
    const out = write('output.jsonl', jsonl([
      { instance_id: 'django__django-11099', instruction: 'fix', history, metrics: {}, error: null },
      { instance_id: 'sympy__sympy-20590', instruction: 'fix', history: history.slice(0, 8), metrics: {}, error: null },
    ]));
    const items = await collect([out]);
    expect(items.filter((i) => i.kind === 'end').map((e) => e.session)).toEqual(['django__django-11099', 'sympy__sympy-20590']);
    expect(items.filter((i) => i.kind === 'call').map((c) => c.session)).toEqual([...Array(8).fill('django__django-11099'), 'sympy__sympy-20590', 'sympy__sympy-20590']);
    const stream = write('events.jsonl', jsonl(history));
    expect((await collect([stream])).filter((i) => i.kind === 'call').every((c) => c.session === 'events.jsonl' && c.errorInfo === 'absent')).toBe(true);
  });

  it('should report bad events by the file and line they are in, and read the rest', async () => {
    const events = [act(0, 'run', { command: 'ls' }), obs(1, 0, 'run', 'a', { extras: { metadata: { exit_code: 0 } } }), 'oops', { id: 3, source: 'agent', content: 'x' }, act(Number.NaN, 'run', { command: 'ls' })];
    const { write: put } = scratchDir('openhands-bad');
    const folder = join(put('conv-9/events/0.json', JSON.stringify(events[0])), '..');
    events.slice(1).forEach((e, i) => put(`conv-9/events/${i + 1}.json`, JSON.stringify(e)));
    put('conv-9/events/5.json', '{"id": 5, "source": "agent",');
    const items = await collect([folder], { format: 'openhands' });
    expect(items.map((i) => (i.kind === 'issue' ? `${i.code} ${i.file.slice(folder.length)}:${i.line}${i.code === 'bad-record' ? ` ${i.message}` : ''}` : `${i.kind} ${'session' in i ? i.session : i.message}`))).toEqual([
      'call conv-9',
      'bad-record /2.json:1 expected an OpenHands event (an object with an "action" or "observation"), received "oops" (string); skipped',
      'bad-record /3.json:1 expected an OpenHands event (an object with an "action" or "observation"), received an object with neither; skipped',
      'bad-record /4.json:1 action "run" has no numeric "id" (received null); skipped',
      'invalid-json /5.json:1',
      'end conv-9',
    ]);
  });

  it('should read an events folder given directly as its conversation, and walk an events folder holding other files as usual', async () => {
    const { write: put } = scratchDir('openhands-folders');
    const pair = [act(0, 'run', { command: 'ls' }), obs(1, 0, 'run', 'a', { extras: { metadata: { exit_code: 0 } } })];
    const events = join(put('abc/events/0.json', JSON.stringify(pair[0])), '..');
    put('abc/events/1.json', JSON.stringify(pair[1]));
    expect((await collect([events])).map((i) => `${i.kind} ${'session' in i ? i.session : ''}`)).toEqual(['call abc', 'end abc']);
    const mixed = join(put('other/events/0.json', jsonl(pair)), '..');
    put('other/events/notes.json', jsonl([pair[0]]));
    put('other/metadata.json', '{"title": "t"}');
    const items = await collect([join(mixed, '..')]);
    expect(items.map((i) => `${i.kind} ${'session' in i ? i.session : i.kind === 'issue' ? i.code : i.message}`)).toEqual(['call events/0.json', 'end events/0.json', 'call events/notes.json', 'end events/notes.json', 'issue unknown-format']);
  });
});
