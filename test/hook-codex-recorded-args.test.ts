/**
 * A Codex shell call compared by the hook as the rollout records it (src/hooks/codex-recorded-call.ts).
 * Codex hands its Bash hook `tool_input: {command: "<the command as one string>"}`; the rollout's
 * `function_call` (what `scan` and `eval` read) holds `{command: [...], workdir, timeout_ms, ...}`. One
 * session was two readings (docs/evaluation.md, quiet40): the same command run in four folders is four calls
 * in the rollout and one call four times in the hook's shape. Codex writes the call's item into the rollout
 * before it runs the tool, so the hook reads it there.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/formats/read-inputs.js';
import { CODEX } from '../src/hooks/codex.js';
import { recordedShellArgs } from '../src/hooks/codex-recorded-call.js';
import { runHook } from '../src/hooks/hook-run.js';
import { tempFolder } from './helpers/temp-folder.js';

const SESSION = '0199b887-d596-7113-bc5d-3a4aa7834176';
const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const meta = line({ timestamp: 't', type: 'session_meta', payload: { id: SESSION, cli_version: '0.45.0' } });
const ARGV = ['bash', '-lc', 'go test ./...'];
const shellArgs = (workdir: string): Record<string, unknown> => ({ command: ARGV, workdir, timeout_ms: 120000, with_escalated_permissions: false, justification: 'run the tests' });
const call = (id: string, args: unknown, name = 'shell'): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } });
const output = (id: string, text: string): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: JSON.stringify({ output: text, metadata: { exit_code: 0, duration_seconds: 0.1 } }) } });

function payload(rollout: string, event: 'PreToolUse' | 'PostToolUse', id: string, response?: string): Record<string, unknown> {
  return {
    session_id: SESSION, turn_id: 'turn-1', transcript_path: rollout, cwd: '/work/proj', hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default',
    tool_name: 'Bash', tool_input: { command: 'bash -lc \'go test ./...\'' }, ...(response === undefined ? {} : { tool_response: response }), tool_use_id: id,
  };
}

/** The args the rollout reader gives each call of `rollout`, in order. */
async function readerArgs(rollout: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const it of readInputs([rollout])) if (it.kind === 'call') out.push(it.event.args);
  return out;
}

describe('a Codex shell call in the hook, as the rollout records it', () => {
  it('should give the hook the arguments the rollout reader reads, before and after the call', async () => {
    const rollout = join(tempFolder('codex-args'), 'rollout.jsonl');
    writeFileSync(rollout, meta + call('call_1', shellArgs('/work/proj/api')));
    const before = CODEX.decode(payload(rollout, 'PreToolUse', 'call_1'), 'PreToolUse', 'propose');
    appendFileSync(rollout, output('call_1', 'ok'));
    const after = CODEX.decode(payload(rollout, 'PostToolUse', 'call_1', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok'), 'PostToolUse', 'record');
    const [read] = await readerArgs(rollout);
    expect(read).toEqual(shellArgs('/work/proj/api'));
    expect(before.call.args).toEqual(read);
    expect(after.call.args).toEqual(read);
    expect(before.call.tool).toBe('Bash');
  });

  it("should read a local_shell_call's action, and a unified exec call's arguments", () => {
    const rollout = join(tempFolder('codex-args'), 'rollout.jsonl');
    const action = { type: 'exec', command: ARGV, working_directory: '/work/proj' };
    writeFileSync(rollout, meta + line({ type: 'response_item', payload: { type: 'local_shell_call', call_id: 'call_l', status: 'completed', action } }) + call('call_u', { cmd: 'go test ./...', workdir: '/work/proj', yield_time_ms: 10000 }, 'exec_command'));
    expect(recordedShellArgs(payload(rollout, 'PreToolUse', 'call_l'))).toEqual(action);
    expect(recordedShellArgs(payload(rollout, 'PreToolUse', 'call_u'))).toEqual({ cmd: 'go test ./...', workdir: '/work/proj', yield_time_ms: 10000 });
  });

  it("should keep the payload's command where the rollout does not hold the call as a shell call", () => {
    const rollout = join(tempFolder('codex-args'), 'rollout.jsonl');
    writeFileSync(rollout, meta + call('call_p', { input: '*** Begin Patch' }, 'apply_patch') + '{"type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"call_cut","argu');
    const shape = { command: 'bash -lc \'go test ./...\'' };
    for (const [path, id] of [[rollout, 'call_p'], [rollout, 'call_missing'], [rollout, 'call_cut'], ['/nonexistent/rollout.jsonl', 'call_1'], [join(rollout, '..'), 'call_1']] as const) {
      expect(CODEX.decode(payload(path, 'PreToolUse', id), 'PreToolUse', 'propose').call.args).toEqual(shape);
    }
  });

  it('should not take one command run in four folders for one call repeated (the rollout reads four calls)', () => {
    const dir = tempFolder('codex-args-walk');
    const rollout = join(dir, 'rollout.jsonl');
    writeFileSync(rollout, meta);
    const options = { agent: 'codex' as const, stateDir: join(dir, 'state') };
    const said: string[] = [];
    for (const [i, pkg] of ['api', 'store', 'web', 'cli'].entries()) {
      const id = `call_${i + 1}`;
      appendFileSync(rollout, call(id, shellArgs(`/work/proj/${pkg}`)));
      said.push(runHook(JSON.stringify(payload(rollout, 'PreToolUse', id)), options).stdout);
      said.push(runHook(JSON.stringify(payload(rollout, 'PostToolUse', id, 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok')), options).stdout);
      appendFileSync(rollout, output(id, 'ok'));
    }
    expect(said.filter((s) => s !== '')).toEqual([]);
  });
});
