/**
 * The OpenHands SDK's `ACPToolCallEvent` (a tool call an ACP server ran under the SDK's ACPAgent) is read as a
 * call, once: the SDK emits a call several times under one `tool_call_id` (an early `pending` / `in_progress`
 * emission, often with no input yet, then one terminal `completed` or `failed` one with the final input and
 * output: acp_agent.py `_emit_tool_call_event`), and the terminal emission has the final word. The events here
 * are shaped from the SDK's model (openhands/sdk/event/acp_tool_call.py), not copied from a session.
 */
import { describe, expect, it } from 'vitest';
import { SdkEventSession } from '../src/formats/openhands-sdk.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-openhands-acp');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
let n = 0;
const id = (): string => `0000${(n++).toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`;
const at = '2026-11-02T09:00:00.000000';
/** One emission of ACP tool call `call`, in the SDK's fields (a placeholder has no input, output or content). */
const acp = (call: string, status: string | null, fields: Record<string, unknown> = {}) => ({
  id: id(), timestamp: at, source: 'agent', tool_call_id: call, title: 'Terminal', status, tool_kind: 'execute',
  raw_input: null, raw_output: null, content: null, is_error: status === 'failed', kind: 'ACPToolCallEvent', ...fields,
});
const message = (text: string) => ({ id: id(), timestamp: at, source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] }, kind: 'MessageEvent' });

/** The calls read from `file`, as their tool events and errorInfo. */
const calls = async (file: string) => (await collect([file])).flatMap((i) => (i.kind === 'call' ? [{ ...i.event, errorInfo: i.errorInfo, line: i.line }] : []));

describe('OpenHands SDK ACPToolCallEvent', () => {
  it('should read a call emitted as pending, in progress and completed once, with its final input and output', async () => {
    const file = write('one.jsonl', jsonl([
      message('list the files'),
      acp('toolu_1', 'pending'),
      acp('toolu_1', 'in_progress', { title: '`ls`', raw_input: { command: 'ls' } }),
      acp('toolu_2', 'pending'),
      acp('toolu_1', 'completed', { title: '`ls`', raw_input: { command: 'ls', description: 'list' }, raw_output: 'a.py\n' }),
      acp('toolu_2', 'failed', { title: '`cat b.py`', raw_input: { command: 'cat b.py' }, raw_output: 'No such file' }),
    ]));
    const got = await calls(file);
    expect(got).toEqual([
      { tool: '`ls`', args: { command: 'ls', description: 'list' }, result: 'a.py\n', round: 0, errorInfo: 'absent', line: 2 },
      { tool: '`cat b.py`', args: { command: 'cat b.py' }, result: 'No such file', error: 'No such file', round: 1, errorInfo: 'known', line: 4 },
    ]);
    expect((await collect([file])).filter((i) => i.kind === 'note')).toEqual([]);
  });

  it('should read an id used again after its call ended as another call, and a call never ended with its outcome unknown', async () => {
    const file = write('again.jsonl', jsonl([
      acp('exec_1', 'pending', { raw_input: { command: 'make' } }),
      acp('exec_1', 'completed', { raw_input: { command: 'make' }, raw_output: 'ok' }),
      message('again'),
      acp('exec_1', 'completed', { raw_input: { command: 'make' }, raw_output: 'ok' }),
      acp('exec_2', 'in_progress', { raw_input: { command: 'sleep 99' } }),
    ]));
    expect((await calls(file)).map((c) => [c.tool, c.args, c.errorInfo, c.line])).toEqual([
      ['Terminal', { command: 'make' }, 'absent', 1],
      ['Terminal', { command: 'make' }, 'absent', 4],
      ['Terminal', { command: 'sleep 99' }, 'unknown', 5],
    ]);
  });

  it('should keep the args of an earlier emission when the terminal one has none, and name the tool by its kind when untitled', async () => {
    const file = write('kind.jsonl', jsonl([
      acp('t1', 'in_progress', { title: '', raw_input: { path: 'a.py' }, tool_kind: 'read' }),
      acp('t1', 'completed', { title: '', tool_kind: 'read', raw_output: 'x = 1' }),
    ]));
    expect(await calls(file)).toEqual([{ tool: 'read', args: { path: 'a.py' }, result: 'x = 1', round: 0, errorInfo: 'absent', line: 1 }]);
  });

  it('should report and skip an emission without a tool_call_id that is not terminal, and read a terminal one as a call', async () => {
    const file = write('no-id.jsonl', jsonl([
      acp('t1', 'completed', { raw_input: { command: 'ls' }, raw_output: 'a.py' }),
      acp(undefined as unknown as string, 'pending', { raw_input: { command: 'make' } }),
      acp('t2', 'completed', { raw_input: { command: 'pwd' }, raw_output: '/w' }),
      acp(undefined as unknown as string, 'completed', { raw_input: { command: 'make' }, raw_output: 'ok' }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue').map((i) => i.kind === 'issue' && [i.code, i.line, i.message])).toEqual([
      ['bad-record', 2, 'ACPToolCallEvent with status "pending" has no "tool_call_id", so nothing ties it to its call\'s later emissions (a terminal one without an id is read as a call on its own); skipped'],
    ]);
    expect((await calls(file)).map((c) => [c.args, c.result, c.errorInfo, c.line])).toEqual([
      [{ command: 'ls' }, 'a.py', 'absent', 1],
      [{ command: 'pwd' }, '/w', 'absent', 3],
      [{ command: 'make' }, 'ok', 'absent', 4],
    ]);
  });

  it('should not hold later calls back behind an emission without a tool_call_id: each is released once it settles', () => {
    const session = new SdkEventSession('s');
    const unit = (line: number) => ({ kind: 'record' as const, value: null, file: 'f.jsonl', line, fallbackSession: 'f.jsonl:1' });
    const kinds = (e: Record<string, unknown>, line: number) => [...session.event(e, unit(line))].map((i) => `${i.kind}@${'line' in i ? i.line : '-'}`);
    expect(kinds(acp(undefined as unknown as string, 'in_progress', { raw_input: { command: 'make' } }), 1)).toEqual(['issue@1']);
    expect(kinds(acp('t1', 'pending'), 2)).toEqual([]);
    expect(kinds(acp('t1', 'completed', { raw_input: { command: 'ls' }, raw_output: 'a.py' }), 3)).toEqual(['call@2']);
    expect(session.calls.size).toBe(0);
  });
});
