/**
 * Gemini CLI checkpoints of mid-2025 (`/chat save`, holdout3's Sm1tee and Jinstronda ones) give each
 * `functionResponse` an id and its `functionCall` none. Every response was an `unpaired-result` issue and
 * every call had no outcome (a failed shell command read as unknown); a response whose id no call waits for
 * now answers the oldest call of its name waiting without an id.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-gemini-checkpoint-response-ids');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const call = (name: string, args: object) => ({ functionCall: { name, args } });
const answer = (id: string, name: string, response: object) => ({ functionResponse: { id, name, response } });

describe('Gemini CLI checkpoint responses with ids their calls lack', () => {
  it('should pair each response with the oldest call of its name, in order', async () => {
    const file = write('checkpoint-kvantum.json', JSON.stringify([
      { role: 'user', parts: [{ text: 'Theme kvantum.' }] },
      { role: 'model', parts: [{ text: 'Listing first.' }, call('run_shell_command', { command: 'ls ~/.config/Kvantum' })] },
      { role: 'user', parts: [answer('run_shell_command-1751899028178-d7ab', 'run_shell_command', { output: 'Command: ls\nOutput: ls: cannot access: No such file\nExit Code: 2' })] },
      { role: 'model', parts: [call('glob', { pattern: '*.kvconfig' }), call('glob', { pattern: '*.svg' })] },
      { role: 'user', parts: [answer('glob-1751899367403-d481', 'glob', { output: 'Found 1 file: a.kvconfig' }), answer('glob-1751899367404-e592', 'glob', { output: 'No files found' })] },
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.event.tool, c.event.result, c.errorInfo])).toEqual([
      ['run_shell_command', 'Command: ls\nOutput: ls: cannot access: No such file', 'known'],
      ['glob', 'Found 1 file: a.kvconfig', 'absent'],
      ['glob', 'No files found', 'absent'],
    ]);
  });

  it('should still pair by id first, and name a response no call waits for', async () => {
    const file = write('checkpoint-ids.json', JSON.stringify([
      { role: 'model', parts: [{ functionCall: { id: 'r1', name: 'read_file', args: { path: 'a' } } }, call('read_file', { path: 'b' })] },
      { role: 'user', parts: [answer('other', 'read_file', { output: 'B' }), answer('r1', 'read_file', { output: 'A' }), answer('late', 'write_file', { output: 'ok' })] },
    ]));
    const items = await collect([file]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.event.args, c.event.result])).toEqual([
      [{ path: 'a' }, 'A'],
      [{ path: 'b' }, 'B'],
    ]);
    expect(items.filter((i) => i.kind === 'issue').map((i) => i.kind === 'issue' && [i.code, i.message.slice(0, 30)])).toEqual([['unpaired-result', 'result for call id "late" has ']]);
  });
});
