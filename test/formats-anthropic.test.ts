/**
 * The Anthropic Messages reader: tool_use blocks paired with tool_result blocks by id, `is_error` deciding
 * the error knowledge, text blocks on the calls of their message, results given as text blocks joined.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-anthropic');

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const result = (tool_use_id: string, content: unknown, is_error?: boolean) => ({ type: 'tool_result', tool_use_id, content, ...(is_error === undefined ? {} : { is_error }) });

const messages = [
  { role: 'user', content: 'Fix the test.' },
  { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'Running the tests.' }, use('t1', 'bash', { command: 'npm test' }), use('t2', 'read', { path: 'a.ts' }), { type: 'text', text: 'And reading.' }] },
  { role: 'user', content: [result('t2', [{ type: 'text', text: 'line 1' }, { type: 'text', text: 'line 2' }], false), result('t1', 'exit 1: 3 failing', true)] },
  { role: 'assistant', content: [use('t3', 'bash', { command: 'npm test' })] },
  { role: 'user', content: [result('t3', 'ok')] },
  { role: 'assistant', content: [use('t4', 'bash', { command: 'git diff' })] },
];

describe('Anthropic format', () => {
  it('should pair tool uses with results by id, take is_error as known error knowledge, and give the message text to its first call once', async () => {
    const file = write('claude.jsonl', JSON.stringify({ id: 'msg-conv', system: 'Be brief.', messages }) + '\n');
    const text = 'Running the tests.\nAnd reading.';
    expect(await collect([file])).toEqual([
      { kind: 'call', session: 'msg-conv', event: { tool: 'bash', args: { command: 'npm test' }, result: 'exit 1: 3 failing', error: 'exit 1: 3 failing', text, step: 0, round: 0 }, errorInfo: 'known', file, line: 1 },
      { kind: 'call', session: 'msg-conv', event: { tool: 'read', args: { path: 'a.ts' }, result: 'line 1\nline 2', step: 1, round: 0 }, errorInfo: 'absent', file, line: 1 },
      { kind: 'call', session: 'msg-conv', event: { tool: 'bash', args: { command: 'npm test' }, result: 'ok', step: 2, round: 1 }, errorInfo: 'absent', file, line: 1 },
      { kind: 'call', session: 'msg-conv', event: { tool: 'bash', args: { command: 'git diff' }, step: 3, round: 2 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'end', session: 'msg-conv', file },
    ]);
  });

  it('should give an error without text as true', async () => {
    const file = write('empty-error.jsonl', JSON.stringify({ messages: [{ role: 'assistant', content: [use('e', 'x', {})] }, { role: 'user', content: [result('e', [], true)] }] }) + '\n');
    const [c] = (await collect([file])).filter((i) => i.kind === 'call');
    expect([c?.errorInfo, c?.event.error]).toEqual(['known', true]);
  });

  it('should read a JSON array of conversations, one session per element, named by session or file#index', async () => {
    const file = write('convs.json', JSON.stringify([{ messages }, { session: 'two', messages: messages.slice(0, 3) }], null, 1));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'end').map((e) => e.session)).toEqual([`${file}#0`, 'two']);
    expect(items.filter((i) => i.kind === 'call')).toHaveLength(6);
  });

  it('should report tool uses without a name and results without an id', async () => {
    const bad = [{ role: 'assistant', content: [{ type: 'tool_use', id: 'n', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', content: 'x' }] }, 42];
    const file = write('bad.jsonl', JSON.stringify({ id: 'b', messages: [...messages, ...bad] }) + '\n');
    const issues = (await collect([file], { format: 'anthropic' })).filter((i) => i.kind === 'issue');
    expect(issues.map((i) => `${i.code} ${i.line} ${i.message}`)).toEqual([
      'bad-record 1 message 6: block 0 (tool_use) has no name (received undefined); skipped',
      'bad-record 1 message 7: block 0 (tool_result) has no string "tool_use_id" (received undefined); skipped',
      'bad-record 1 message 8: expected an object, received 42 (number); skipped',
    ]);
  });
});
