/**
 * The Claude Code transcript reader: tool_use blocks paired with later tool_result lines by id, a message
 * spread over several lines read as one (its text on its calls, one round), `is_error` deciding the error
 * knowledge, sidechains as sessions of their own, bad lines reported by line while the rest is read.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { claudeCodeLines } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-claude-code');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const base = { sessionId: 's-1', isSidechain: false, cwd: '/app', version: '2.0.14' };
const assistant = (id: string, content: unknown[], extra: object = {}) => ({ ...base, type: 'assistant', uuid: `a-${id}`, message: { id, role: 'assistant', content }, ...extra });
const user = (content: unknown, extra: object = {}) => ({ ...base, type: 'user', uuid: 'u', message: { role: 'user', content }, ...extra });
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const result = (tool_use_id: string, content: unknown, is_error?: boolean) => ({ type: 'tool_result', tool_use_id, content, ...(is_error === undefined ? {} : { is_error }) });

describe('Claude Code format', () => {
  it('should pair calls with results on later lines, read a message spread over lines as one (its text once, on its first call), and end the session', async () => {
    const file = write('session.jsonl', jsonl([
      { type: 'summary', summary: 'Tests', leafUuid: 'x' },
      user('Fix the test.'),
      assistant('m1', [{ type: 'thinking', thinking: 'hmm', signature: 's' }]),
      assistant('m1', [{ type: 'text', text: 'Running the tests.' }]),
      assistant('m1', [use('t1', 'Bash', { command: 'npm test' })]),
      assistant('m1', [use('t2', 'Read', { file_path: 'a.ts' })]),
      user([result('t2', [{ type: 'text', text: 'line 1' }, { type: 'text', text: 'line 2' }])], { toolUseResult: { type: 'text' } }),
      user([result('t1', 'Error: exit 1', true)]),
      { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', sessionId: 's-1' },
      assistant('m2', [use('t3', 'Bash', { command: 'npm test' })]),
      assistant('m2', [{ type: 'text', text: 'Said after the call.' }]),
      user([result('t3', 'ok', false)]),
      assistant('m3', [use('t4', 'Bash', { command: 'git diff' })]),
    ]));
    expect(await collect([file])).toEqual([
      { kind: 'call', session: 's-1', event: { tool: 'Bash', args: { command: 'npm test' }, result: 'Error: exit 1', error: 'Error: exit 1', text: 'Running the tests.', round: 0 }, errorInfo: 'known', file, line: 5 },
      { kind: 'call', session: 's-1', event: { tool: 'Read', args: { file_path: 'a.ts' }, result: 'line 1\nline 2', round: 0 }, errorInfo: 'absent', file, line: 6 },
      { kind: 'call', session: 's-1', event: { tool: 'Bash', args: { command: 'npm test' }, result: 'ok', text: 'Said after the call.', round: 1 }, errorInfo: 'absent', file, line: 10 },
      { kind: 'call', session: 's-1', event: { tool: 'Bash', args: { command: 'git diff' }, round: 2 }, errorInfo: 'unknown', file, line: 13 },
      { kind: 'end', session: 's-1', file },
    ]);
  });

  it('should read the fixture transcript (what Claude Code writes) with every failure known', async () => {
    const call = (i: number) => ({ tool: 'Bash', args: { command: `ls dir${i}` }, result: 'No such file' });
    const file = write('fixture.jsonl.gz', gzipSync(jsonl(claudeCodeLines('sess-f', call, true))));
    const items = await collect([file]);
    const calls = items.filter((i) => i.kind === 'call');
    expect(calls).toHaveLength(8);
    expect(calls.every((c) => c.session === 'sess-f' && c.errorInfo === 'known' && c.event.text === 'Let me check.')).toBe(true);
    expect(calls.map((c) => c.event.round)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(items.at(-1)).toEqual({ kind: 'end', session: 'sess-f', file });
  });

  it('should keep sidechains (subagents) apart from their parent session, by agentId when there is one, else by their root', async () => {
    const side = { isSidechain: true };
    const file = write('sidechains.jsonl', jsonl([
      assistant('p1', [use('p', 'Task', { prompt: 'look around' })]),
      assistant('s1', [use('s', 'Glob', { pattern: '*.ts' })], { ...side, parentUuid: null }),
      user([result('s', 'a.ts')], { ...side, uuid: 'u-s', parentUuid: 'a-s1' }),
      assistant('a1', [use('a', 'Grep', { pattern: 'x' })], { ...side, agentId: 'ab12' }),
      user([result('p', 'done')]),
    ]));
    const items = await collect([file]);
    expect(items.map((i) => (i.kind === 'call' ? `${i.session} ${i.event.tool}` : `${i.kind} ${'session' in i ? i.session : ''}`))).toEqual([
      's-1/sidechain-a-s1 Glob',
      's-1 Task',
      'end s-1',
      'end s-1/sidechain-a-s1',
      's-1/agent-ab12 Grep',
      'end s-1/agent-ab12',
    ]);
  });

  it('should name a session without sessionId by the input', async () => {
    const { sessionId: _, ...noId } = base;
    const file = write('no-id.jsonl', jsonl([{ type: 'summary', summary: 's', leafUuid: 'x' }, { ...noId, type: 'assistant', message: { id: 'm', role: 'assistant', content: [use('t', 'LS', {})] } }]));
    expect((await collect([file])).filter((i) => i.kind === 'call').map((c) => c.session)).toEqual(['no-id.jsonl']);
  });

  it('should report bad lines by line and read the rest', async () => {
    const file = write('bad.jsonl', jsonl([
      assistant('m1', [use('t1', 'Bash', { command: 'ls' })]),
      42,
      { ...base, type: 'assistant', message: 'hello' },
      assistant('m2', [{ type: 'tool_use', id: 'n', input: {} }]),
      user([{ type: 'tool_result', content: 'x' }]),
      user([result('nope', 'x')]),
      { ...base, sessionId: 7, type: 'user', message: { role: 'user', content: [] } },
      user([result('t1', 'a.ts')]),
    ]).replace('"hello"}\n', '"hello"}\n{"broken\n'));
    const items = await collect([file], { format: 'claude-code' });
    expect(items.map((i) => (i.kind !== 'issue' ? i.kind : i.code === 'invalid-json' ? `${i.code} ${i.line}` : `${i.code} ${i.line}: ${i.message}`))).toEqual([
      'bad-record 2: expected a transcript line (an object with a "type"), received 42 (number); skipped',
      'bad-record 3: an assistant line needs a "message" object, received "hello" (string); skipped',
      'invalid-json 4',
      'bad-record 5: block 0 (tool_use) has no name (received undefined); skipped',
      'bad-record 6: block 0 (tool_result) has no string "tool_use_id" (received undefined); skipped',
      'bad-record 8: "sessionId" must be a non-empty string, received 7 (number); skipped',
      'call',
      // a result waits a few lines for its call (some versions write it first): reported once none came
      'unpaired-result 7: result for call id "nope" has no call in session "s-1" within 16 lines after it; skipped',
      'end',
    ]);
    expect(items.find((i) => i.kind === 'call')).toMatchObject({ event: { tool: 'Bash', result: 'a.ts' }, errorInfo: 'absent', line: 1 });
  });
});
