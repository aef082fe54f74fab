/**
 * A message's text is said once: the readers give it to the first call of the message (or turn), never to
 * each of its parallel calls, so four parallel Reads after "Let me read these files." are not the same
 * sentence said four times. Text a later block adds after the first call still goes with the message.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-text-once');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const texts = async (file: string): Promise<(string | undefined)[]> => (await collect([file])).filter((i): i is TraceCall => i.kind === 'call').map((c) => c.event.text);
const SAID = 'Let me read the four modules.';

describe('a message text said once', () => {
  it('should give a Claude Code message text (spread over lines, some after its calls) to its first call only', async () => {
    const base = { sessionId: 's', isSidechain: false, type: 'assistant' };
    const line = (uuid: string, id: string, content: unknown[]) => ({ ...base, uuid, message: { id, role: 'assistant', content } });
    const read = (n: number) => ({ type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: `src/m${n}.ts` } });
    const file = write('cc.jsonl', jsonl([
      line('a0', 'msg_1', [{ type: 'text', text: SAID }]),
      ...[0, 1, 2, 3].map((n) => line(`a${n + 1}`, 'msg_1', [read(n)])),
      line('a5', 'msg_1', [{ type: 'text', text: 'Then the tests.' }]),
      line('b0', 'msg_2', [read(4), read(5)]),
    ]));
    expect(await texts(file)).toEqual([`${SAID}\nThen the tests.`, undefined, undefined, undefined, undefined, undefined]);
  });

  it('should give a Codex turn text to its first call only', async () => {
    const item = (payload: object) => ({ timestamp: 't', type: 'response_item', payload });
    const call = (n: number) => item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['cat', `m${n}.rs`] }), call_id: `c${n}` });
    const file = write('rollout.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: 'codex-1' } },
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: SAID }] }),
      call(0),
      call(1),
      call(2),
      ...[0, 1, 2].map((n) => item({ type: 'function_call_output', call_id: `c${n}`, output: 'fn main() {}' })),
    ]));
    expect(await texts(file)).toEqual([SAID, undefined, undefined]);
  });

  it('should give an OpenAI chat, Responses or Anthropic message text to its first call only', async () => {
    const chat = write('chat.json', JSON.stringify({ id: 'c', messages: [{ role: 'assistant', content: SAID, tool_calls: [0, 1, 2].map((n) => ({ id: `c${n}`, type: 'function', function: { name: 'read', arguments: `{"n":${n}}` } })) }] }));
    const responses = write('responses.json', JSON.stringify({ id: 'r', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: SAID }] }, ...[0, 1, 2].map((n) => ({ type: 'function_call', call_id: `f${n}`, name: 'read', arguments: `{"n":${n}}` }))] }));
    const anthropic = write('anthropic.json', JSON.stringify({ id: 'a', system: 's', messages: [{ role: 'assistant', content: [{ type: 'text', text: SAID }, ...[0, 1, 2].map((n) => ({ type: 'tool_use', id: `u${n}`, name: 'read', input: { n } }))] }] }));
    for (const file of [chat, responses, anthropic]) expect(await texts(file)).toEqual([SAID, undefined, undefined]);
  });
});
