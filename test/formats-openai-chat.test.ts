/**
 * The OpenAI chat reader: tool calls paired with tool messages by id, arguments parsed when they are JSON,
 * the assistant's text on its calls, one conversation per line, per bare array or per JSON array element.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-chat');

const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

const messages = [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'Find the bug.' },
  { role: 'assistant', content: 'Searching first.', tool_calls: [call('c1', 'grep', '{"pattern":"bug"}'), call('c2', 'ls', 'not json')] },
  { role: 'tool', tool_call_id: 'c2', content: 'a.py' },
  { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'a.py:3' }, { type: 'text', text: 'b.py:9' }] },
  { role: 'assistant', content: null, tool_calls: [call('c3', 'open', '{"path":"a.py"}')] },
];

describe('OpenAI chat format', () => {
  it('should pair calls with tool messages by id, in call order, with the text of their message once (on its first call)', async () => {
    const file = write('chat.jsonl', JSON.stringify({ id: 'conv-1', messages }) + '\n');
    expect(await collect([file])).toEqual([
      { kind: 'call', session: 'conv-1', event: { tool: 'grep', args: { pattern: 'bug' }, result: 'a.py:3\nb.py:9', text: 'Searching first.', step: 0, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session: 'conv-1', event: { tool: 'ls', args: 'not json', result: 'a.py', step: 1, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session: 'conv-1', event: { tool: 'open', args: { path: 'a.py' }, step: 2, round: 1 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'end', session: 'conv-1', file },
    ]);
  });

  it('should name sessions by session, id or conversation_id, else by file and line', async () => {
    const lines = [{ session: 's', messages }, { conversation_id: 'k', messages }, { messages }, messages];
    const file = write('ids.jsonl', lines.map((l) => JSON.stringify(l)).join('\n\n') + '\n');
    const ends = (await collect([file])).filter((i) => i.kind === 'end').map((e) => e.session);
    expect(ends).toEqual(['s', 'k', `${file}:5`, `${file}:7`]);
  });

  it('should read a pretty-printed JSON array of conversations, one session per element', async () => {
    const file = write('convs.json', JSON.stringify([{ messages }, { id: 'named', messages: messages.slice(0, 4) }], null, 2));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'end').map((e) => e.session)).toEqual([`${file}#0`, 'named']);
    const calls = items.filter((i) => i.kind === 'call');
    expect(calls.map((c) => `${c.session} ${c.event.tool} ${c.line}`)).toEqual([`${file}#0 grep 2`, `${file}#0 ls 2`, `${file}#0 open 2`, `named grep ${calls[3]!.line}`, `named ls ${calls[3]!.line}`]);
    expect(calls[3]!.line).toBeGreaterThan(2);
    expect(calls[3]!.event.result).toBeUndefined();
  });

  it('should read a one-line JSON array of conversations as elements too', async () => {
    const file = write('convs-line.json', JSON.stringify([{ messages }, { messages }]));
    const ends = (await collect([file])).filter((i) => i.kind === 'end').map((e) => e.session);
    expect(ends).toEqual([`${file}#0`, `${file}#1`]);
  });

  it('should report a tool message whose call is missing, and keep the rest', async () => {
    const file = write('orphan.jsonl', JSON.stringify({ id: 'o', messages: [...messages, { role: 'tool', tool_call_id: 'nope', content: 'x' }] }) + '\n');
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([
      { kind: 'issue', code: 'unpaired-result', file, line: 1, message: 'result for call id "nope" has no call in session "o"; skipped' },
    ]);
    expect(items.filter((i) => i.kind === 'call')).toHaveLength(3);
  });

  it('should pair legacy function_call messages by name, and report calls without a name', async () => {
    const legacy = [
      { role: 'assistant', content: '', function_call: { name: 'search', arguments: '{"q":1}' } },
      { role: 'function', name: 'search', content: 'found' },
      { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { arguments: '{}' } }] },
    ];
    const file = write('legacy.jsonl', JSON.stringify({ id: 'L', messages: legacy }) + '\n');
    const items = await collect([file], { format: 'openai-chat' });
    expect(items.map((i) => (i.kind === 'call' ? [i.event.tool, i.event.args, i.event.result] : i.kind === 'issue' ? i.message : i.kind))).toEqual([
      'message 2: tool call 0 has no function name (received an object); skipped',
      ['search', { q: 1 }, 'found'],
      'end',
    ]);
  });

  it('should not set error: chat says nothing about failures', async () => {
    const file = write('noerr.jsonl', JSON.stringify({ messages }) + '\n');
    for (const i of await collect([file])) if (i.kind === 'call') expect(i.event.error).toBeUndefined();
  });
});
