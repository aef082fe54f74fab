/**
 * Codex's unified exec (`exec_command` / `write_stdin`, 0.4x+) answers a call whose process is still
 * running, or a poll of it, behind a header: `Chunk ID`, `Wall time`, `Process running with session ID N`,
 * `Original token count`, `Output:`. The chunk id, wall time and session id differ between two identical
 * polls, and the whole answer was the result: two polls that got the same output never compared equal
 * (devset, holdout, holdout3, holdout4: 858 such answers; holdout5 68). The chunk id and wall time are now set aside
 * (codex-exec-header.ts): the result is the `Process running with session ID N` line and the output, the
 * outcome unknown; an exit code, when the header gives one, stays the outcome. The session id names the
 * process (the same in each poll of it, new for each run), so it is kept: two runs of one command answered
 * while still running are not the same outcome. The rollout reader and the hook read it the same way.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runningHead } from '../src/formats/codex-exec-header.js';
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
  it('should compare two polls of a process by their output, whatever their chunk id and wall time', () => {
    const a = codexOutcome(running('3f2a1c', '1.0021', 48213, 0, ''));
    const b = codexOutcome(running('9be004', '5.0007', 48213, 0, ''));
    expect(a).toEqual({ result: runningHead(48213), errorInfo: 'unknown' });
    expect(runningHead(48213)).toBe('Process running with session ID 48213\nOutput:\n');
    expect(b).toEqual(a);
    expect(codexOutcome(running('aa', '0.5', 1, 3, 'step 1\n'))).toEqual({ result: `${runningHead(1)}step 1\n`, errorInfo: 'unknown' });
    expect(codexOutcome(`Command: /bin/bash -lc "make"\n${running('aa', '0.5', 1, 3, 'cc -c a.c\n')}`)).toEqual({ result: `${runningHead(1)}cc -c a.c\n`, errorInfo: 'unknown' });
  });

  it('should keep two runs of a command apart while they run, their outcome not known yet', () => {
    const first = codexOutcome(running('d061dc', '1.0019', 45941, 20, 'yarn run v1.22.22\n$ nest build\n'));
    const second = codexOutcome(running('37a5b7', '1.0020', 39440, 20, 'yarn run v1.22.22\n$ nest build\n'));
    expect(second.result).not.toBe(first.result);
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
      [`${runningHead(48213)}RUN v4\n`, 'unknown'],
      [runningHead(48213), 'unknown'],
      [runningHead(48213), 'unknown'],
      ['FAIL a.test.ts\n', 'known'],
    ]);
  });

  it('should be read the same way by the Codex hook', () => {
    const decode = (response: string): unknown => {
      const payload = { session_id: 's', transcript_path: '/home/dev/.codex/sessions/r.jsonl', cwd: '/src', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: 'npm test' }, tool_response: response };
      return AGENTS.codex.decode(payload, 'PostToolUse', 'record').call;
    };
    const a = decode(running('3f2a1c', '1.0021', 48213, 1, 'RUN v4\n'));
    expect(a).toMatchObject({ result: `${runningHead(48213)}RUN v4\n` });
    expect(decode(running('9be004', '5.0007', 48213, 1, 'RUN v4\n'))).toEqual(a);
    expect(decode(exited('bb', '0.05', 1, 'FAIL\n'))).toMatchObject({ error: 'FAIL\n' });
  });
});
