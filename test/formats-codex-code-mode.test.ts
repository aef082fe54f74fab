/**
 * Codex 0.14x's code mode: the tool `exec` runs a script that calls the other tools, and its
 * `custom_tool_call_output` is content parts whose text says `Script completed` / `Script failed` /
 * `Script error:\nExit code: N` with the wall time. The reader gave every such output as it came, unknown,
 * the wall time in it: identical runs never compared equal and failures were not known. Each now says
 * success or failure, and its result is the output alone.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { codexOutcome } from '../src/formats/codex-output.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-code-mode');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-08-01T10:00:00.000Z', type: 'response_item', payload });
const parts = (text: string) => [{ type: 'input_text', text }];

describe('Codex code mode (exec) outputs', () => {
  it('should read each script run as a success or a failure, its output without the wall time', async () => {
    const script = 'const r = await tools.exec_command({cmd: "npx k-skill info a.hwp"}); text(r.output);';
    const file = write('rollout-2026-08-01T10-00-00-019fba42-ce37.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: '019fba42-ce37', cwd: '/src', cli_version: '0.146.0' } },
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c1', name: 'exec', input: script }),
      item({ type: 'custom_tool_call_output', call_id: 'c1', output: parts('Script completed\nWall time 0.9 seconds\nOutput:\npages: 4\n') }),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c2', name: 'exec', input: script }),
      item({ type: 'custom_tool_call_output', call_id: 'c2', output: parts('Script completed\nWall time 6.3 seconds\nOutput:\npages: 4\n') }),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c3', name: 'exec', input: 'throw new Error("x")' }),
      item({ type: 'custom_tool_call_output', call_id: 'c3', output: parts('Script failed\nWall time 0.2 seconds\nOutput:\nError: x\n') }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.event.tool, c.event.result, c.errorInfo])).toEqual([
      ['exec', 'pages: 4\n', 'absent'],
      ['exec', 'pages: 4\n', 'absent'],
      ['exec', 'Error: x\n', 'known'],
    ]);
  });

  it('should read a script error by its exit code, and leave other content parts unknown', () => {
    expect(codexOutcome(parts('Script error:\nExit code: 1\nWall time: 0.2 seconds\nOutput:\nUI.md-45-<br>\n'))).toMatchObject({ result: 'UI.md-45-<br>\n', errorInfo: 'known' });
    expect(codexOutcome(parts('Script error:\nExit code: 0\nWall time: 0.2 seconds\nOutput:\nok\n'))).toEqual({ result: 'ok\n', errorInfo: 'absent' });
    expect(codexOutcome(parts('{"resources": []}'))).toEqual({ result: '{"resources": []}', errorInfo: 'unknown' });
  });
});
