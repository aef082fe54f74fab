/**
 * Codex 0.117+ puts the command first on a unified exec output (`Command: /bin/zsh -lc "..."`, then `Chunk ID`,
 * `Wall time`, `Process exited with code N`, `Output:`). The header was looked for within four lines and 512
 * characters, so a command over several lines (a heredoc) or a long one hid it: the output was read as it
 * came, unknown, with the echo, chunk id and wall time in it (holdout4: 97 such outputs in 11 rollouts).
 * The echo is now set aside and the rest read as any unified exec output.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { codexOutcome } from '../src/formats/codex-output.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-command-echo');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-04-04T10:00:00.000Z', type: 'response_item', payload });
const heredoc = "python3 - <<'PY'\nimport json\nprint(json.load(open('a.json'))['n'])\nPY";
const echoed = (cmd: string, wall: string, code: number, out: string): string =>
  `Command: /bin/zsh -lc "${cmd}"\nChunk ID: ${wall.replace('.', '')}\nWall time: ${wall} seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${out}`;

describe('Codex unified exec outputs behind a Command: echo', () => {
  it('should read a heredoc command by its exit code, its output alone the result', async () => {
    const call = (id: string) => item({ type: 'function_call', name: 'exec_command', call_id: id, arguments: JSON.stringify({ cmd: heredoc }) });
    const file = write('rollout-2026-04-04T10-00-00-019d5825-0001.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: '019d5825-0001', cwd: '/src', cli_version: '0.118.0' } },
      call('c1'),
      item({ type: 'function_call_output', call_id: 'c1', output: echoed(heredoc, '0.0512', 0, '4\n') }),
      call('c2'),
      item({ type: 'function_call_output', call_id: 'c2', output: echoed(heredoc, '0.0931', 0, '4\n') }),
      call('c3'),
      item({ type: 'function_call_output', call_id: 'c3', output: echoed(heredoc, '0.0107', 1, "KeyError: 'n'\n") }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.event.result, c.errorInfo])).toEqual([
      ['4\n', 'absent'],
      ['4\n', 'absent'],
      ["KeyError: 'n'\n", 'known'],
    ]);
  });

  it('should read a command longer than the header window, and one still running as unknown without the echo', () => {
    const long = `rg -n "${'x'.repeat(600)}" src`;
    expect(codexOutcome(echoed(long, '0.2', 1, ''))).toMatchObject({ result: '', errorInfo: 'known' });
    const running = `Command: /bin/bash -lc "${heredoc}"\nChunk ID: 7500ee\nWall time: 5.0 seconds\nProcess running with session ID 9\nOriginal token count: 1\nOutput:\nstep 1\n`;
    expect(codexOutcome(running)).toEqual({ result: 'Process running with session ID 9\nOutput:\nstep 1\n', errorInfo: 'unknown' });
    expect(codexOutcome('Command: ls')).toEqual({ result: 'Command: ls', errorInfo: 'unknown' });
  });
});
