/**
 * Gemini CLI 0.49 and later wrap every shell output in `<untrusted_context>` tags (packages/core/src/tools/
 * shell.ts, `wrapUntrusted` in utils/textUtils.ts: `<untrusted_context>\n...\n</untrusted_context>`), so the
 * footer (`Exit Code: N`, `Process Group PGID: N`) is no longer the output's last line. The chat reader
 * reads the output inside the tags: a non-zero exit code is still a known failure, and two runs that
 * differ only by their process group are the same result. The chat is written here in the shape of the
 * devset's chats (test/formats-gemini-cli.test.ts).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-gemini-untrusted');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wrap = (text: string): string => `<untrusted_context>\n${text}\n</untrusted_context>`;
const shell = (n: number, command: string, output: string) => ({
  id: `run_shell_command_${n}_0`,
  name: 'run_shell_command',
  args: { command },
  result: [{ functionResponse: { id: `run_shell_command_${n}_0`, name: 'run_shell_command', response: { output } } }],
  status: 'success',
  timestamp: 't',
  displayName: 'Shell',
  description: '',
});
const gemini = (id: string, toolCalls: object[]) => ({ id, timestamp: 't', type: 'gemini', content: '', model: 'gemini-3-pro-preview', toolCalls });

describe('Gemini CLI shell outputs in untrusted-context tags', () => {
  it('should read the exit code inside the tags as a failure, and leave out the footer there', async () => {
    const file = write(
      'chats/session-2026-12-05T10-00-wrapped.json',
      JSON.stringify({
        sessionId: 'wrapped-1',
        projectHash: 'ab'.repeat(32),
        startTime: 't',
        lastUpdated: 't',
        messages: [
          gemini('g1', [shell(1, 'npm test', wrap('Output: FAIL test/a.test.ts\nExit Code: 1\nProcess Group PGID: 21960'))]),
          gemini('g2', [shell(2, 'npm test', wrap('Output: FAIL test/a.test.ts\nExit Code: 1\nProcess Group PGID: 22108'))]),
          gemini('g3', [shell(3, 'ls', wrap('Output: a.txt\nProcess Group PGID: 23244'))]),
          gemini('g4', [shell(4, 'echo', wrap('a summary without a footer'))]),
        ],
      }),
    );
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.result, c.errorInfo, c.event.error])).toEqual([
      ['Output: FAIL test/a.test.ts', 'known', 'Output: FAIL test/a.test.ts'],
      ['Output: FAIL test/a.test.ts', 'known', 'Output: FAIL test/a.test.ts'],
      ['Output: a.txt', 'absent', undefined],
      ['a summary without a footer', 'absent', undefined],
    ]);
  });
});
