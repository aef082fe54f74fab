/**
 * Codex CLI answers a call that failed around its command in its own words, with no exit code header:
 * `apply_patch verification failed: ...`, `failed in sandbox: ...`, `exec_command failed: CreateProcess
 * {...}`, `write_stdin failed: ...`, `execution error: ...`, `exec command rejected by user`, `aborted`.
 * The reader and the hook gave them as unknown outcomes (30-90 in each of the five sets' Codex rollouts):
 * a patch retried unchanged after it failed looked like one that applied. They are known failures now,
 * their text the error (codex-tool-error.ts); a person's refusal reads as declined, a sandbox that could
 * not start as an infrastructure failure.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { codexOutcome } from '../src/formats/codex-output.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { AGENTS } from '../src/hooks/agents.js';
import { ERR_DECLINED, ERR_EDIT_MISMATCH, ERR_INFRA, ERR_INVALID_ARGS, errorBits } from '../src/text/error-reading.js';
import { errorText } from '../src/text/outcome-text.js';
import type { ToolEvent } from '../src/types.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { fired, only, run } from './helpers/session.js';

const { dir, write } = scratchDir('formats-codex-tool-errors');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const item = (payload: object) => ({ timestamp: '2026-03-01T10:00:00.000Z', type: 'response_item', payload });

const PATCH = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch';
const VERIFY = 'apply_patch verification failed: Failed to find expected lines in /repo/src/app.ts:\nconst a = 1;';
const STDIN = 'write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open';
/** Codex 0.10x's unified exec denied by the sandbox: the output in a Rust debug dump inside a debug string. */
const DUMP =
  'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 255, stdout: StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: StreamOutput { text: \\"error: cannot open \'.git/FETCH_HEAD\': Operation not permitted\\\\n\\", truncated_after_lines: None }, aggregated_output: StreamOutput { text: \\"error: cannot open \'.git/FETCH_HEAD\': Operation not permitted\\\\n\\", truncated_after_lines: None }, duration: 0ns, timed_out: false }, network_policy_decision: None }))" }';

/** The rollout's calls as detector events: a known failure's error, else its result. */
const events = (calls: readonly TraceCall[]): ToolEvent[] => calls.map((c) => c.event);

describe('Codex tool errors', () => {
  it('should read Codex\'s failure answers in a rollout as known failures, their text the error', async () => {
    const file = write('rollout-2026-03-01T10-00-00-019ca589-0002.jsonl', jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: '019ca589-0002', cwd: '/repo', cli_version: '0.105.0' } },
      item({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'p1', input: PATCH }),
      item({ type: 'custom_tool_call_output', call_id: 'p1', output: VERIFY }),
      item({ type: 'function_call', name: 'exec_command', call_id: 'e1', arguments: JSON.stringify({ cmd: 'git fetch --all' }) }),
      item({ type: 'function_call_output', call_id: 'e1', output: DUMP }),
      item({ type: 'function_call', name: 'write_stdin', call_id: 'w1', arguments: JSON.stringify({ session_id: 7, chars: '\u0003' }) }),
      item({ type: 'function_call_output', call_id: 'w1', output: STDIN }),
      item({ type: 'function_call', name: 'shell', call_id: 's1', arguments: JSON.stringify({ command: ['bash', '-lc', 'go test ./...'] }) }),
      item({ type: 'function_call_output', call_id: 's1', output: 'failed in sandbox: # app/cmd\ncmd/main.go:6:2: "os" imported and not used\n' }),
      item({ type: 'function_call', name: 'shell_command', call_id: 'x1', arguments: JSON.stringify({ command: 'cat', workdir: '/repo/a.md' }) }),
      item({ type: 'function_call_output', call_id: 'x1', output: 'execution error: Io(Os { code: 20, kind: NotADirectory, message: "Not a directory" })' }),
      item({ type: 'function_call', name: 'shell_command', call_id: 'ok', arguments: JSON.stringify({ command: 'ls' }) }),
      item({ type: 'function_call_output', call_id: 'ok', output: 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\na.md\n' }),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    const calls = items.filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => c.errorInfo)).toEqual(['known', 'known', 'known', 'known', 'known', 'absent']);
    expect(calls.map((c) => c.event.error)).toEqual([
      VERIFY,
      "error: cannot open '.git/FETCH_HEAD': Operation not permitted\n",
      STDIN,
      '# app/cmd\ncmd/main.go:6:2: "os" imported and not used\n',
      'execution error: Io(Os { code: 20, kind: NotADirectory, message: "Not a directory" })',
      undefined,
    ]);
  });

  it('should see a failed patch retried unchanged as a dead end, which an unknown outcome hid', async () => {
    const lines: object[] = [{ timestamp: 't', type: 'session_meta', payload: { id: '019ca589-0003', cwd: '/repo', cli_version: '0.105.0' } }];
    for (let i = 0; i < 3; i++) {
      lines.push(item({ type: 'custom_tool_call', name: 'apply_patch', call_id: `p${i}`, input: PATCH }));
      lines.push(item({ type: 'custom_tool_call_output', call_id: `p${i}`, output: VERIFY }));
      lines.push(item({ type: 'function_call', name: 'shell_command', call_id: `r${i}`, arguments: JSON.stringify({ command: `sed -n ${i + 1},40p src/app.ts` }) }));
      lines.push(item({ type: 'function_call_output', call_id: `r${i}`, output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\nline ${i}\n` }));
    }
    const calls = (await collect([write('rollout-2026-03-01T10-00-00-019ca589-0003.jsonl', jsonl(lines))])).filter((i): i is TraceCall => i.kind === 'call');
    expect(fired(run(only('deadEnd'), events(calls)))).toEqual([4]);
    // as read before: the patch's answer an unknown outcome, its text a result
    const unknown = events(calls).map((e) => (e.error === undefined ? e : { tool: e.tool, args: e.args, result: e.error }));
    expect(fired(run(only('deadEnd'), unknown))).toEqual([]);
  });

  it('should set aside the headers Codex puts before an answer, and the timing in a debug dump', () => {
    expect(codexOutcome('Wall time: 2.1 seconds\naborted by user')).toMatchObject({ errorInfo: 'known', error: 'aborted by user' });
    expect(codexOutcome('Total output lines: 40\n\nfailed in sandbox: boom\n')).toMatchObject({ errorInfo: 'known', error: 'boom\n' });
    const dump = (ms: string) =>
      `failed in sandbox LinuxSeccomp with execution error: Denied { output: ExecToolCallOutput { exit_code: 1, stdout: StreamOutput { text: "", truncated_after_lines: None }, stderr: StreamOutput { text: "", truncated_after_lines: None }, aggregated_output: StreamOutput { text: "", truncated_after_lines: None }, duration: ${ms}, timed_out: false } }`;
    // rg that found nothing: no output at all, as silent as its exit code 1 elsewhere, the same whatever its duration
    expect(codexOutcome(dump('62.817067ms'))).toEqual({ result: '', error: true, errorInfo: 'known' });
    expect(codexOutcome(dump('3.1s'))).toEqual(codexOutcome(dump('62.817067ms')));
    expect(codexOutcome('failed in sandbox: ')).toEqual({ result: '', error: true, errorInfo: 'known' });
    // Codex 0.3x wrote the exec error plainly: its stdout then its stderr are the error
    const plain = (out: string, err: string) => `failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 1, stdout: ${out}, stderr: ${err}`;
    expect(codexOutcome(plain('', ''))).toEqual({ result: '', error: true, errorInfo: 'known' });
    expect(codexOutcome(plain('.F\n', 'E assert 1 == 2\n'))).toMatchObject({ errorInfo: 'known', error: '.F\nE assert 1 == 2\n' });
    expect(codexOutcome('exec_command failed for `/bin/zsh -lc \'ls `pwd`\'`: CreateProcess { message: "Rejected(\\"blocked\\")" }')).toMatchObject({ errorInfo: 'known', error: 'CreateProcess { message: "Rejected(\\"blocked\\")" }' });
  });

  it('should leave texts that only look alike as they were', () => {
    for (const s of ['error: something else', 'the patch said apply_patch verification failed: x', 'aborted later', 'failed in sandboxes', 'Plan updated']) {
      expect(codexOutcome(s)).toEqual({ result: s, errorInfo: 'unknown' });
    }
  });

  it('should read a person\'s refusal as declined, a sandbox that could not start as infrastructure, the rest as the agent\'s', () => {
    const bits = (output: string) => errorBits(errorText(codexOutcome(output).error)!);
    for (const s of ['exec command rejected by user', 'patch rejected by user', 'aborted', 'aborted by user after 4.2s']) expect(bits(s) & ERR_DECLINED).toBe(ERR_DECLINED);
    for (const s of ['failed in sandbox: cannot set privileged capabilities: Operation not permitted\n', "failed in sandbox: \nthread 'main' panicked at linux-sandbox/src/linux_run_main.rs:53:5:\n", 'execution error: Io(Custom { kind: Other, error: "windows sandbox: CreateProcessWithLogonW failed: 1056" })']) {
      expect(bits(s) & ERR_INFRA).toBe(ERR_INFRA);
    }
    expect(bits('failed to parse function arguments: invalid type: string "x", expected a sequence') & ERR_INVALID_ARGS).toBe(ERR_INVALID_ARGS);
    for (const s of [STDIN, DUMP, 'execution error: Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })']) expect(bits(s)).toBe(0);
    // a patch that matches nothing in its file is the agent's own slip, read as such (edit-mismatch.ts, quiet23)
    expect(bits(VERIFY)).toBe(ERR_EDIT_MISMATCH);
  });

  it('should read them the same from the hook\'s PostToolUse', () => {
    const post = (tool_response: unknown) =>
      AGENTS.codex.decode({ session_id: 's', turn_id: 't', hook_event_name: 'PostToolUse', tool_name: 'apply_patch', tool_use_id: 'c', tool_input: { command: PATCH }, tool_response }, 'PostToolUse', 'record').call;
    expect(post(VERIFY)).toMatchObject({ error: VERIFY });
    expect(post(STDIN)).toMatchObject({ error: STDIN });
    expect(post(DUMP)).toMatchObject({ error: "error: cannot open '.git/FETCH_HEAD': Operation not permitted\n" });
    expect(post('Plan updated')).toMatchObject({ result: 'Plan updated' });
  });
});
