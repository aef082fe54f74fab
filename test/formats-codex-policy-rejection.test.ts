/**
 * Codex (0.104 to 0.118 in holdout4) answers a command its exec policy refused, which never ran, with
 * `` `<the command>` rejected: blocked by policy `` (on Windows, the PowerShell command line in full). The
 * reader gave it as it came, an unknown outcome: the same refused command asked again and again looked
 * like a call that worked. It is now a known failure (holdout4: 14 outputs in 7 rollouts; holdout3: 1).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { codexOutcome } from '../src/formats/codex-output.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-policy-rejection');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-03-01T10:00:00.000Z', type: 'response_item', payload });
const ps = '"C:\\\\Windows\\\\System32\\\\WindowsPowerShell\\\\v1.0\\\\powershell.exe" -Command \'if (Test-Path x) { Remove-Item -Recurse -Force x }; npm install\'';

describe('Codex commands refused by its exec policy', () => {
  it('should read a refusal as a known failure', async () => {
    const file = write('rollout-2026-03-01T10-00-00-019ca589-0001.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: '019ca589-0001', cwd: 'C:\\src', cli_version: '0.107.0' } },
      item({ type: 'function_call', name: 'shell_command', call_id: 'c1', arguments: JSON.stringify({ command: 'npm install' }) }),
      item({ type: 'function_call_output', call_id: 'c1', output: `\`${ps}\` rejected: blocked by policy` }),
      item({ type: 'function_call', name: 'shell_command', call_id: 'c2', arguments: JSON.stringify({ command: 'npm ls' }) }),
      item({ type: 'function_call_output', call_id: 'c2', output: 'Exit code: 0\nWall time: 1.2 seconds\nOutput:\nok\n' }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => c.errorInfo)).toEqual(['known', 'absent']);
  });

  it('should leave other outputs with backticks as they were', () => {
    expect(codexOutcome("`/bin/zsh -lc 'rm -rf cov'` rejected: blocked by policy")).toMatchObject({ errorInfo: 'known' });
    expect(codexOutcome('`npm` is not rejected here')).toEqual({ result: '`npm` is not rejected here', errorInfo: 'unknown' });
    expect(codexOutcome('see `a` rejected: no')).toEqual({ result: 'see `a` rejected: no', errorInfo: 'unknown' });
  });
});
