/**
 * A Codex command that failed printing nothing (`test -f missing`, `grep -q`, a sandbox that refused it
 * silently: a rollout's `failed in sandbox: `), read by the hook as the rollout reader reads it.
 * The rollout reader (codex-output.ts, `scan` and `eval`) gives it `error: true` and an empty result
 * (held-calls.ts's `failure`); the hook read the same response as `error: ""`, which every part reads as
 * no error at all (outcome-text.ts's errorText), so the hook took the failure for a success. Codex 0.171 sends
 * such a call's output alone (empty) and the hook adds the exit code from the rollout
 * (codex-exit-code.ts), so it reaches codex-hook-result.ts as `Process exited with code 1\nOutput:\n`.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHookOutcome } from '../src/formats/codex-hook-result.js';
import { codexOutcome } from '../src/formats/codex-output.js';
import { failure } from '../src/formats/held-calls.js';
import { CODEX } from '../src/hooks/codex.js';
import { runHook } from '../src/hooks/hook-run.js';
import { tempFolder } from './helpers/temp-folder.js';

const SESSION = '01a24ab3-2e13-7d42-8ed7-b10198238d58';
const TURN = '01a24ab3-2e4c-7193-a25f-9da4301de931';
const COMMAND = 'test -f build/out.bin';

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const meta = line({ timestamp: 't', type: 'session_meta', payload: { id: SESSION, cli_version: '0.171.0' } });
const call = (id: string): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: COMMAND }), call_id: id } });
const ended = (id: string): string =>
  line({ timestamp: 't', type: 'event_msg', payload: { type: 'item_completed', thread_id: SESSION, turn_id: TURN, item: { type: 'CommandExecution', id, command: ['/bin/bash', '-lc', COMMAND], status: 'failed', aggregated_output: '', exit_code: 1 } } });
const answered = (id: string): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: 'Chunk ID: 406ebd\nWall time: 0.0000 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n' } });

function payload(rollout: string, event: 'PreToolUse' | 'PostToolUse', id: string, response?: string): Record<string, unknown> {
  return {
    session_id: SESSION, turn_id: TURN, transcript_path: rollout, cwd: '/tmp/proj', hook_event_name: event, model: 'gpt-5.5', permission_mode: 'default',
    tool_name: 'Bash', tool_input: { command: COMMAND }, ...(response === undefined ? {} : { tool_response: response }), tool_use_id: id,
  };
}

/** `n` runs of the silently failing command through the hook as Codex 0.171 sends them: the log's after-lines. */
function walk(name: string, n: number): Record<string, unknown>[] {
  const dir = tempFolder(`codex-silent-${name}`);
  const rollout = join(dir, 'rollout.jsonl');
  const log = join(dir, 'decisions.jsonl');
  writeFileSync(rollout, meta);
  const options = { agent: 'codex' as const, stateDir: join(dir, 'state'), log };
  for (let i = 1; i <= n; i++) {
    const id = `call_${i}`;
    appendFileSync(rollout, call(id));
    runHook(JSON.stringify(payload(rollout, 'PreToolUse', id)), options);
    appendFileSync(rollout, ended(id));
    runHook(JSON.stringify(payload(rollout, 'PostToolUse', id, '')), options);
    appendFileSync(rollout, answered(id));
  }
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return lines.filter((l) => l.hook_event_name !== 'PreToolUse');
}

describe('a Codex command that failed with no output, in the hook', () => {
  it('should read the response as the rollout reader reads the same output: a failure, error true, empty result', () => {
    for (const text of ['Exit code: 1\nWall time: 0.1 seconds\nOutput:\n', 'Process exited with code 1\nOutput:\n', 'failed in sandbox: ']) {
      expect(codexOutcome(text)).toEqual(failure(''));
      expect(codexHookOutcome(text)).toEqual(codexOutcome(text));
    }
    expect(codexHookOutcome('Exit code: 2\nWall time: 0.1 seconds\nOutput:\nboom')).toEqual(failure('boom'));
    expect(codexHookOutcome('Exit code: 0\nWall time: 0.1 seconds\nOutput:\n')).toEqual({ result: '', errorInfo: 'absent' });
  });

  it('should give the hook a failed call, not one with an empty error (which reads as none)', () => {
    const decoded = CODEX.decode(payload('/nonexistent/rollout.jsonl', 'PostToolUse', 'call_1', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\n'), 'PostToolUse', 'record');
    expect(decoded.call).toMatchObject({ tool: 'Bash', result: '', error: true });
    const said = CODEX.decode(payload('/nonexistent/rollout.jsonl', 'PostToolUse', 'call_1', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nboom'), 'PostToolUse', 'record');
    expect(said.call).toMatchObject({ result: 'boom', error: 'boom' });
  });

  it('should record each run as failed in the decision log, as scan of the rollout reads it', () => {
    const after = walk('log', 2);
    expect(after.length).toBe(2);
    for (const l of after) expect(l.hook_event_name).toBe('PostToolUseFailure');
  });
});
