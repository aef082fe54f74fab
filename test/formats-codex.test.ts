/**
 * The Codex CLI rollout reader: response_item calls paired with their outputs by call_id, the session from
 * session_meta, turns sharing their text and round, exit codes from the three shapes of shell output
 * (known failure or success, the output alone as the result), 2025 rollouts without the envelope, bad lines
 * reported by line while the rest is read.
 */
import { describe, expect, it } from 'vitest';
import { HEAD_CHARS, codexOutcome } from '../src/formats/codex-output.js';
import { codexLines } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-codex');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-01-05T10:00:00.000Z', type: 'response_item', payload });
const meta = { timestamp: '2026-01-05T10:00:00.000Z', type: 'session_meta', payload: { id: '0199-abc', cwd: '/app', cli_version: '0.46.0' } };
const say = (text: string) => item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const output = (call_id: string, out: unknown) => item({ type: 'function_call_output', call_id, output: out });

describe('Codex CLI format', () => {
  it('should pair calls with their outputs, give turns their round and their text once (to the first call), and read exit codes', async () => {
    const file = write('rollout-2026-01-05T10-00-00-0199-abc.jsonl', jsonl([
      meta,
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }),
      item({ type: 'reasoning', summary: [], encrypted_content: 'x' }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","pytest"]}', call_id: 'c1' }),
      say('Running the tests.'),
      item({ type: 'function_call', name: 'shell', arguments: 'not json', call_id: 'c2' }),
      { timestamp: 'x', type: 'event_msg', payload: { type: 'agent_message', message: 'Running the tests.' } },
      output('c2', 'Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok\n'),
      output('c1', JSON.stringify({ output: '1 failed', metadata: { exit_code: 1, duration_seconds: 1.5 } })),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c3', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }),
      item({ type: 'custom_tool_call_output', call_id: 'c3', output: 'Done!' }),
      item({ type: 'local_shell_call', call_id: 'c4', status: 'completed', action: { type: 'exec', command: ['ls'] } }),
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'vitest' } }),
      output('c4', 'Chunk ID: 9f\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nls: cannot access\n'),
      item({ type: 'function_call', name: 'update_plan', arguments: '{}', call_id: 'c5' }),
      output('c5', { content: 'bad plan', success: false }),
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c6' }),
    ]));
    const session = '0199-abc';
    const line = (n: number) => ({ session, file, line: n });
    expect(await collect([file])).toEqual([
      { kind: 'call', event: { tool: 'shell', args: { command: ['bash', '-lc', 'pytest'] }, result: '1 failed', error: '1 failed', text: 'Running the tests.', round: 0 }, errorInfo: 'known', ...line(4) },
      { kind: 'call', event: { tool: 'shell', args: 'not json', result: 'ok\n', round: 0 }, errorInfo: 'absent', ...line(6) },
      { kind: 'call', event: { tool: 'apply_patch', args: '*** Begin Patch\n*** End Patch', result: 'Done!', round: 1 }, errorInfo: 'unknown', ...line(10) },
      { kind: 'call', event: { tool: 'local_shell', args: { type: 'exec', command: ['ls'] }, result: 'ls: cannot access\n', error: 'ls: cannot access\n', round: 2 }, errorInfo: 'known', ...line(12) },
      { kind: 'call', event: { tool: 'web_search', args: { type: 'search', query: 'vitest' }, round: 2 }, errorInfo: 'unknown', ...line(13) },
      { kind: 'call', event: { tool: 'update_plan', args: {}, result: 'bad plan', error: 'bad plan', round: 3 }, errorInfo: 'known', ...line(15) },
      { kind: 'call', event: { tool: 'shell', args: {}, round: 4 }, errorInfo: 'unknown', ...line(17) },
      { kind: 'end', session, file },
    ]);
  });

  it('should read the fixture rollout (what Codex writes): the session id, failures known, results without their timing', async () => {
    const call = () => ({ tool: 'shell', args: { command: ['pytest'] }, result: 'FAILED' });
    const items = await collect([write('fixture.jsonl', jsonl(codexLines('0199-fix', call, 1)))]);
    const calls = items.filter((i) => i.kind === 'call');
    expect(calls).toHaveLength(8);
    expect(calls.every((c) => c.session === '0199-fix' && c.errorInfo === 'known' && c.event.result === 'FAILED')).toBe(true);
    expect(calls.map((c) => c.event.round)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('should read a 2025 rollout without the envelope, named by its first line', async () => {
    const file = write('rollout-2025-08-18.jsonl', jsonl([
      { id: 'c3c4b301', timestamp: '2025-08-18T01:16:13.522Z', instructions: null, git: { branch: 'main' } },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: { content: 'a.py', success: true } },
      { record_type: 'state' },
    ]));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? `${i.session} ${i.event.tool} ${i.errorInfo}` : i.kind))).toEqual(['c3c4b301 shell absent', 'end']);
  });

  it('should report bad lines by line and read the rest', async () => {
    const file = write('bad.jsonl', jsonl([
      meta,
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
      'text',
      { timestamp: 'x', type: 'response_item', payload: [1] },
      item({ type: 'function_call', arguments: '{}', call_id: 'c2' }),
      item({ type: 'function_call_output', output: 'x' }),
      output('nope', 'x'),
      output('c1', 'fine'),
    ]));
    const items = await collect([file], { format: 'codex' });
    expect(items.map((i) => (i.kind === 'issue' ? `${i.code} ${i.line}: ${i.message}` : i.kind))).toEqual([
      'bad-record 3: expected a rollout line (an object with a "type" and a "payload"), received "text" (string); skipped',
      'bad-record 4: a response_item line needs a "payload" object, received an array of length 1; skipped',
      'bad-record 5: function_call has no name (received undefined); skipped',
      'bad-record 6: function_call_output has no string "call_id" (received undefined); skipped',
      'unpaired-result 7: result for call id "nope" has no call waiting in session "0199-abc"; skipped',
      'call',
      'end',
    ]);
  });

  it('should look for an exit code only in the head of an output', () => {
    expect(codexOutcome(`${'x'.repeat(HEAD_CHARS)}\nExit code: 1\nOutput:\n`)).toMatchObject({ errorInfo: 'unknown' });
    expect(codexOutcome('Process running with session ID 73\nOutput:\nstill going')).toMatchObject({ errorInfo: 'unknown' });
    expect(codexOutcome('{"output": "not the shell shape"}')).toEqual({ result: '{"output": "not the shell shape"}', errorInfo: 'unknown' });
    expect(codexOutcome([{ type: 'input_text', text: 'a' }, { type: 'input_text', text: 'b' }])).toEqual({ result: 'a\nb', errorInfo: 'unknown' });
    expect(codexOutcome('Exit code: 1\nWall time: 3 seconds\nOutput:\n')).toEqual({ result: '', error: true, errorInfo: 'known' });
  });
});
