/**
 * The OpenAI Responses reader: function calls paired with their outputs by call_id, the assistant
 * message's text on the calls of its turn, reasoning ignored, sessions from `input`/`output` or `items`.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-responses');

const fc = (call_id: string, name: string, args: string) => ({ type: 'function_call', id: `fc_${call_id}`, call_id, name, arguments: args });
const out = (call_id: string, output: string) => ({ type: 'function_call_output', call_id, output });
const say = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });

const input = [
  { role: 'user', content: 'What is the weather in Paris and Rome?' },
  { type: 'reasoning', id: 'rs_1', summary: [] },
  say('Checking both cities.'),
  fc('a', 'weather', '{"city":"Paris"}'),
  fc('b', 'weather', '{"city":"Rome"}'),
  out('b', '21C'),
  out('a', '18C'),
];
const output = [{ type: 'reasoning', id: 'rs_2', summary: [] }, fc('c', 'weather', '{"city":"Paris"'), say('Paris again, to be sure.')];

describe('OpenAI Responses format', () => {
  it('should pair calls with outputs by call_id, give each turn its round and its text once (to its first call), and keep bad JSON args as text', async () => {
    const file = write('resp.jsonl', JSON.stringify({ id: 'resp_1', input, output }) + '\n');
    expect(await collect([file])).toEqual([
      { kind: 'call', session: 'resp_1', event: { tool: 'weather', args: { city: 'Paris' }, result: '18C', text: 'Checking both cities.', step: 0, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session: 'resp_1', event: { tool: 'weather', args: { city: 'Rome' }, result: '21C', step: 1, round: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session: 'resp_1', event: { tool: 'weather', args: '{"city":"Paris"', text: 'Paris again, to be sure.', step: 2, round: 1 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'end', session: 'resp_1', file },
    ]);
  });

  it('should read `items` and bare arrays of items, and name sessions by file and line', async () => {
    const file = write('items.jsonl', [JSON.stringify({ session: 'S', items: input }), JSON.stringify([...input, ...output])].join('\n'));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.map((i) => `${i.kind} ${'session' in i ? i.session : i.message}`)).toEqual(['call S', 'call S', 'end S', `call ${file}:2`, `call ${file}:2`, `call ${file}:2`, `end ${file}:2`]);
  });

  it('should read custom tool calls and report outputs without a call and calls without a name', async () => {
    const items3 = [
      { type: 'custom_tool_call', call_id: 'x', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'custom_tool_call_output', call_id: 'x', output: 'Done' },
      { type: 'function_call', call_id: 'y', arguments: '{}' },
      { type: 'function_call_output', call_id: 'zzz', output: 'lost' },
      'not an item',
    ];
    const file = write('custom.jsonl', JSON.stringify({ id: 'c', output: items3 }) + '\n');
    const items = await collect([file]);
    expect(items.map((i) => (i.kind === 'call' ? [i.event.tool, i.event.args, i.event.result] : i.kind === 'issue' ? `${i.code}: ${i.message}` : i.kind))).toEqual([
      'bad-record: item 2: function_call has no name (received undefined); skipped',
      'unpaired-result: result for call id "zzz" has no call in session "c"; skipped',
      'bad-record: item 4: expected an object, received "not an item" (string); skipped',
      ['apply_patch', '*** Begin Patch', 'Done'],
      'end',
    ]);
  });

  it('should read a Response object (output only, input given as text)', async () => {
    const file = write('response.json', JSON.stringify({ id: 'resp_9', object: 'response', input: 'hello', output: [fc('q', 'search', '{"q":"x"}')] }, null, 2));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls.map((c) => [c.session, c.event.tool, c.event.args, c.line])).toEqual([['resp_9', 'search', { q: 'x' }, 1]]);
  });
});
