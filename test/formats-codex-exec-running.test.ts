/**
 * Codex's unified exec (`exec_command` / `write_stdin`, 0.4x+) answers a call whose process is still
 * running, or a poll of it, behind a header: `Chunk ID`, `Wall time`, `Process running with session ID N`,
 * `Original token count`, `Output:`. The chunk id, wall time and session id differ between two identical
 * polls, and the whole answer was the result: two polls that got the same output never compared equal
 * (devset, holdout3, holdout4: 858 such answers). The header is now set aside (codex-exec-header.ts): the
 * result is the output behind a fixed `Process running` head, the outcome unknown; an exit code, when the
 * header gives one, stays the outcome. The rollout reader and the hook read it the same way.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNNING_HEAD } from '../src/formats/codex-exec-header.js';
import { codexOutcome } from '../src/formats/codex-output.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { AGENTS } from '../src/hooks/agents.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-exec-running');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-03-09T10:00:00.000Z', type: 'response_item', payload });
const running = (chunk: string, wall: string, session: number, tokens: number, out: string): string =>
  `Chunk ID: ${chunk}\nWall time: ${wall} seconds\nProcess running with session ID ${session}\nOriginal token count: ${tokens}\nOutput:\n${out}`;
const exited = (chunk: string, wall: string, code: number, out: string): string =>
  `Chunk ID: ${chunk}\nWall time: ${wall} seconds\nProcess exited with code ${code}\nOriginal token count: 4\nOutput:\n${out}`;

describe('Codex unified exec answers of a process still running', () => {
  it('should compare two polls by their output alone, whatever their chunk id, wall time and session id', () => {
    const a = codexOutcome(running('3f2a1c', '1.0021', 48213, 0, ''));
    const b = codexOutcome(running('9be004', '5.0007', 71102, 0, ''));
    expect(a).toEqual({ result: RUNNING_HEAD, errorInfo: 'unknown' });
    expect(b).toEqual(a);
    expect(codexOutcome(running('aa', '0.5', 1, 3, 'step 1\n'))).toEqual({ result: `${RUNNING_HEAD}step 1\n`, errorInfo: 'unknown' });
    expect(codexOutcome(`Command: /bin/bash -lc "make"\n${running('aa', '0.5', 1, 3, 'cc -c a.c\n')}`)).toEqual({ result: `${RUNNING_HEAD}cc -c a.c\n`, errorInfo: 'unknown' });
  });

  it('should keep a finished command apart from a running one with the same output, and its exit code as the outcome', () => {
    expect(codexOutcome(exited('bb', '0.05', 0, 'step 1\n'))).toEqual({ result: 'step 1\n', errorInfo: 'absent' });
    expect(codexOutcome(exited('bb', '0.05', 2, 'step 1\n'))).toMatchObject({ result: 'step 1\n', errorInfo: 'known' });
    expect(codexOutcome(running('bb', '0.05', 7, 3, 'step 1\n')).result).not.toBe('step 1\n');
  });

  it('should leave an output that only says so in its body as it is', () => {
    const text = 'log:\nProcess running with session ID 5\n';
    expect(codexOutcome(text)).toEqual({ result: text, errorInfo: 'unknown' });
    const noBody = 'Chunk ID: aa\nWall time: 1 seconds\nProcess running with session ID 5\n';
    expect(codexOutcome(noBody)).toEqual({ result: noBody, errorInfo: 'unknown' });
  });

  it('should read the same polls from a rollout with equal results, the exit code when the process ends', async () => {
    const poll = (id: string) => item({ type: 'function_call', name: 'write_stdin', call_id: id, arguments: JSON.stringify({ session_id: 48213, chars: '', yield_time_ms: 5000 }) });
    const file = write('rollout-2026-03-09T10-00-00-019cd000-0001.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: '019cd000-0001', cwd: '/src', cli_version: '0.98.0' } },
      item({ type: 'function_call', name: 'exec_command', call_id: 'c0', arguments: JSON.stringify({ cmd: 'npm test', yield_time_ms: 1000 }) }),
      item({ type: 'function_call_output', call_id: 'c0', output: running('d061dc', '1.0019', 48213, 2, 'RUN v4\n') }),
      poll('c1'),
      item({ type: 'function_call_output', call_id: 'c1', output: running('37a5b7', '5.0021', 48213, 0, '') }),
      poll('c2'),
      item({ type: 'function_call_output', call_id: 'c2', output: running('67d86a', '5.0013', 48213, 0, '') }),
      poll('c3'),
      item({ type: 'function_call_output', call_id: 'c3', output: exited('83c252', '0.2', 1, 'FAIL a.test.ts\n') }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.event.result, c.errorInfo])).toEqual([
      [`${RUNNING_HEAD}RUN v4\n`, 'unknown'],
      [RUNNING_HEAD, 'unknown'],
      [RUNNING_HEAD, 'unknown'],
      ['FAIL a.test.ts\n', 'known'],
    ]);
  });

  it('should be read the same way by the Codex hook', () => {
    const decode = (response: string): unknown => {
      const payload = { session_id: 's', transcript_path: '/home/dev/.codex/sessions/r.jsonl', cwd: '/src', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: 'npm test' }, tool_response: response };
      return AGENTS.codex.decode(payload, 'PostToolUse', 'record').call;
    };
    const a = decode(running('3f2a1c', '1.0021', 48213, 1, 'RUN v4\n'));
    expect(a).toMatchObject({ result: `${RUNNING_HEAD}RUN v4\n` });
    expect(decode(running('9be004', '5.0007', 71102, 1, 'RUN v4\n'))).toEqual(a);
    expect(decode(exited('bb', '0.05', 1, 'FAIL\n'))).toMatchObject({ error: 'FAIL\n' });
  });
});
