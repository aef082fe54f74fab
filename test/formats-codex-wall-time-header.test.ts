/**
 * Codex 0.114-0.122 gives some outputs behind a bare timing header, `Wall time: N seconds\nOutput:\n...`, no
 * exit code: an MCP tool's JSON answer (serena's `read_memory`), or `apply_patch` run through `exec_command`
 * with its structured `{"output", "metadata": {"exit_code"}}` inside. The reader gave them as they came:
 * unknown, the wall time in the result, so the same memory read twice never had the same result, and the patch's
 * exit code was not read (holdout4: 5 outputs in 2 rollouts). The header is now set aside.
 */
import { describe, expect, it } from 'vitest';
import { codexOutcome } from '../src/formats/codex-output.js';

describe('Codex outputs behind a bare Wall time header', () => {
  it('should read the same MCP answer the same way whatever its wall time', () => {
    const answer = '{"result":"# Project Overview\\n- nix flakes"}';
    const a = codexOutcome(`Wall time: 0.0968 seconds\nOutput:\n${answer}`);
    const b = codexOutcome(`Wall time: 0.1074 seconds\nOutput:\n${answer}`);
    expect(a).toEqual({ result: answer, errorInfo: 'unknown' });
    expect(b).toEqual(a);
  });

  it('should read a structured exit code inside, and an aborted run as an interruption by the person (codex-tool-error.ts)', () => {
    const patch = '{"output":"Success. Updated the following files:\\nM docs/commands.md\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}';
    expect(codexOutcome(`Wall time: 0.0000 seconds\nOutput:\n${patch}`)).toEqual({ result: 'Success. Updated the following files:\nM docs/commands.md\n', errorInfo: 'absent' });
    expect(codexOutcome('Wall time: 406.9 seconds\naborted by user')).toEqual({ result: 'aborted by user', error: 'aborted by user', errorInfo: 'known' });
  });
});
