/**
 * A failed command's exit code, when Codex's PostToolUse payload leaves it out (src/hooks/codex-exit-code.ts).
 * Walking the real Codex CLI 0.171 (`codex exec` against a scripted model server), a command that failed
 * (`cat` of a missing file, exit code 1) reached the hook as `tool_response: "cat: missing.txt: No such file
 * or directory\n"`: the output alone, no exit code, so the hook recorded a success while the rollout's
 * `function_call_output` ("Process exited with code 1") told `scan` it failed. The rollout already holds the
 * call's end (`item_completed` with `exit_code`) when PostToolUse runs; the hook reads it there. The payloads
 * and rollout lines here are written in the shapes Codex 0.171 wrote.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rolloutExitCode, withRolloutExitCode } from '../src/hooks/codex-exit-code.js';
import { runHook } from '../src/hooks/hook-run.js';
import { tempFolder } from './helpers/temp-folder.js';

const SESSION = '01a24ab3-2e13-7d42-8ed7-b10198238d57';
const TURN = '01a24ab3-2e4c-7193-a25f-9da4301de930';
const OUTPUT = 'cat: missing.txt: No such file or directory\n';

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const meta = line({ timestamp: 't', type: 'session_meta', payload: { id: SESSION, cli_version: '0.171.0' } });
const call = (id: string): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cat missing.txt"}', call_id: id } });
const ended = (id: string, code: number): string =>
  line({ timestamp: 't', type: 'event_msg', payload: { type: 'item_completed', thread_id: SESSION, turn_id: TURN, item: { type: 'CommandExecution', id, command: ['/bin/bash', '-lc', 'cat missing.txt'], status: code === 0 ? 'completed' : 'failed', aggregated_output: OUTPUT, exit_code: code } } });
const answered = (id: string, code: number): string => line({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: `Chunk ID: 406ebd\nWall time: 0.0000 seconds\nProcess exited with code ${code}\nOriginal token count: 11\nOutput:\n${OUTPUT}` } });

function payload(rollout: string, event: 'PreToolUse' | 'PostToolUse', id: string, response?: string): Record<string, unknown> {
  return {
    session_id: SESSION, turn_id: TURN, transcript_path: rollout, cwd: '/tmp/proj', hook_event_name: event, model: 'gpt-5.5', permission_mode: 'bypassPermissions',
    tool_name: 'Bash', tool_input: { command: 'cat missing.txt' }, ...(response === undefined ? {} : { tool_response: response }), tool_use_id: id,
  };
}

/** Runs `n` failing `cat missing.txt` calls through the hook as Codex 0.171 does; the decisions and the log's lines. */
function walk(name: string, n: number, response: (id: string) => string, endInRollout = true): { decisions: string[]; log: Record<string, unknown>[] } {
  const dir = tempFolder(`codex-exit-${name}`);
  const rollout = join(dir, 'rollout.jsonl');
  const log = join(dir, 'decisions.jsonl');
  writeFileSync(rollout, meta);
  const options = { agent: 'codex' as const, stateDir: join(dir, 'state'), log };
  const decisions: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `call_${i}`;
    appendFileSync(rollout, call(id));
    const before = runHook(JSON.stringify(payload(rollout, 'PreToolUse', id)), options);
    const denied = before.stdout.includes('"permissionDecision":"deny"');
    decisions.push(denied ? 'deny' : before.stdout.includes('additionalContext') ? 'warn' : 'allow');
    if (denied) continue; // Codex never runs a denied call: no PostToolUse
    if (endInRollout) appendFileSync(rollout, ended(id, 1));
    runHook(JSON.stringify(payload(rollout, 'PostToolUse', id, response(id))), options);
    appendFileSync(rollout, answered(id, 1));
  }
  return { decisions, log: readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("a Codex command's exit code, read from the rollout when the payload leaves it out", () => {
  it('should record the failed command as failed, as the rollout says', () => {
    const { log } = walk('failed', 2, () => OUTPUT);
    const after = log.filter((l) => l.hook_event_name !== 'PreToolUse');
    expect(after.length).toBe(2);
    for (const l of after) {
      expect(l.error).toBe(OUTPUT);
      expect(l).not.toHaveProperty('tool_response');
    }
  });

  it('should decide as when the response says the exit code itself (older Codex)', () => {
    const bare = walk('bare', 6, () => OUTPUT);
    const said = walk('said', 6, () => `Process exited with code 1\nOutput:\n${OUTPUT}`, false);
    expect(bare.decisions).toEqual(said.decisions);
    expect(bare.decisions).toContain('deny');
  });

  it('should read the response as it is when the rollout has no end of the call', () => {
    const { log } = walk('no-end', 1, () => OUTPUT, false);
    const after = log.find((l) => l.hook_event_name !== 'PreToolUse');
    expect(after).toBeDefined();
    expect(after).not.toHaveProperty('error');
  });
});

describe('rolloutExitCode', () => {
  const dir = tempFolder('codex-exit-code');
  const rollout = join(dir, 'r.jsonl');
  writeFileSync(rollout, meta + call('call_a') + ended('call_a', 0) + call('call_b') + ended('call_b', 2) +
    line({ timestamp: 't', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'call_c', exit_code: 127 } }));
  const code = (id: unknown, path: unknown = rollout): number | undefined => rolloutExitCode({ transcript_path: path, tool_use_id: id });

  it("should be the exit code of the call's end, item_completed or (older) exec_command_end", () => {
    expect(code('call_a')).toBe(0);
    expect(code('call_b')).toBe(2);
    expect(code('call_c')).toBe(127);
  });

  it('should be unknown for a call not ended there, no id, or no readable rollout', () => {
    expect(code('call_z')).toBeUndefined();
    expect(code(undefined)).toBeUndefined();
    expect(code('call_a', 'relative/r.jsonl')).toBeUndefined();
    expect(code('call_a', join(dir, 'missing.jsonl'))).toBeUndefined();
    // only a file named as a rollout is read (serve's hook route decodes a client's payload the same way)
    const named = join(dir, 'r.log');
    writeFileSync(named, readFileSync(rollout));
    expect(code('call_b', named)).toBeUndefined();
  });

  it('should leave a response that says its exit code, or is not text, as it is', () => {
    const p = { transcript_path: rollout, tool_use_id: 'call_b' };
    expect(withRolloutExitCode('Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok\n', p)).toBe('Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok\n');
    expect(withRolloutExitCode({ content: 'x', success: true }, p)).toEqual({ content: 'x', success: true });
    expect(withRolloutExitCode('boom\n', p)).toBe('Process exited with code 2\nOutput:\nboom\n');
  });
});
