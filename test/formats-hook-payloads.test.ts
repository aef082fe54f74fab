/**
 * The hook payload reader: before-events paired with after-events by tool_use_id (by tool and order when
 * the payloads carry none, as Gemini CLI's do), interleaved sessions kept apart, failures from
 * PostToolUseFailure, an error or a response's error, a before-event without after-event a call without
 * outcome, an after-event alone a call of its own, bad payloads reported by line.
 */
import { describe, expect, it } from 'vitest';
import { MAX_OPEN_SESSIONS } from '../src/formats/hook-payloads.js';
import { AGENTS } from '../src/hooks/agents.js';
import { hookPayloads } from './helpers/format-fixtures.js';
import { fixture } from './helpers/hook-payloads.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-hooks');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const cc = (event: string, tool: string, id: string, extra: object = {}) => ({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/app', hook_event_name: event, tool_name: tool, tool_input: { command: id }, tool_use_id: id, ...extra });
const gemini = (event: string, tool: string, input: object, extra: object = {}) => ({ session_id: 'g1', transcript_path: '/g.json', cwd: '/app', hook_event_name: event, timestamp: '2026-01-05T10:00:00Z', tool_name: tool, tool_input: input, ...extra });

describe('hook payload format', () => {
  it('should pair Claude Code payloads by tool_use_id, keep interleaved sessions apart and read failures', async () => {
    const call = (i: number) => ({ tool: 'Bash', args: { command: `ls ${i}` }, result: 'missing' });
    const a = hookPayloads('sa', call, true);
    const b = hookPayloads('sb', call, false);
    const file = write('claude.jsonl', jsonl(a.flatMap((p, i) => [p, b[i]])));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls).toHaveLength(16);
    expect(calls.filter((c) => c.session === 'sa').every((c) => c.errorInfo === 'known' && c.event.error === 'missing' && c.event.result === 'missing')).toBe(true);
    expect(calls.filter((c) => c.session === 'sb').map((c) => [c.errorInfo, c.event.args])).toEqual(Array.from({ length: 8 }, (_, i) => ['absent', { command: `ls ${i}` }]));
    // Bash's {stdout, stderr, ...} as the Claude Code hook compares it: its text
    expect(calls.find((c) => c.session === 'sb')?.event.result).toBe('missing');
  });

  it("should read a Claude Code Bash result as the hook does (stdout and stderr as text: claude-code-result.ts)", async () => {
    const responses: unknown[] = [
      { stdout: 'a.txt\n', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      { stdout: 'built\n', stderr: 'warning: unused\n', interrupted: false, isImage: false, persistedOutputPath: '/tmp/x/b7on7tw79.txt' },
      { stdout: '', stderr: '', interrupted: false, isImage: false },
      { stdout: 'partial', stderr: '', interrupted: true, isImage: false, backgroundTaskId: 'b1' },
      'Exit code: 0\nOutput:\nok\n',
    ];
    const file = write('bash.jsonl', jsonl(responses.flatMap((r, i) => [cc('PreToolUse', 'Bash', `b${i}`), cc('PostToolUse', 'Bash', `b${i}`, { tool_response: r })])));
    const read = (await collect([file])).filter((i) => i.kind === 'call').map((c) => c.event.result);
    const hook = responses.map((r, i) => AGENTS['claude-code'].decode(cc('PostToolUse', 'Bash', `b${i}`, { tool_response: r }), 'PostToolUse', 'record').call.result);
    expect(read).toEqual(['a.txt', 'built\nwarning: unused', '', { stdout: 'partial', stderr: '', interrupted: true, isImage: false }, 'Exit code: 0\nOutput:\nok\n']);
    expect(read).toEqual(hook);
  });

  it('should read a Codex result as the Codex hook does (exit code, Command: echo, Wall time: codex-hook-result.ts)', async () => {
    const codex = (event: string, id: string, extra: object = {}) => ({ ...fixture('codex', 'after-success.json'), hook_event_name: event, tool_use_id: id, tool_input: { command: `npm test ${id}` }, ...extra });
    const responses: unknown[] = [
      'Exit code: 1\nWall time: 0.4 seconds\nOutput:\nFAIL test/a.test.ts\n',
      'Exit code: 0\nWall time: 3.2 seconds\nOutput:\nok\n',
      'Command: npm test\nChunk ID: 7f3a\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nboom\n',
      '{"output":"done\\n","metadata":{"exit_code":0,"duration_seconds":0.5}}',
      { content: [{ type: 'text', text: 'no such issue' }], isError: true },
      { content: [{ type: 'text', text: '#12 open' }] },
    ];
    const file = write('codex.jsonl', jsonl(responses.flatMap((r, i) => [codex('PreToolUse', `c${i}`), codex('PostToolUse', `c${i}`, { tool_response: r })])));
    const read = (await collect([file])).filter((i) => i.kind === 'call').map((c) => (c.errorInfo === 'known' ? { error: c.event.error } : { result: c.event.result }));
    const hook = responses.map((r, i) => {
      const call = AGENTS.codex.decode(codex('PostToolUse', `c${i}`, { tool_response: r }), 'PostToolUse', 'record').call;
      return call.error !== undefined ? { error: call.error } : { result: call.result };
    });
    expect(read).toEqual([{ error: 'FAIL test/a.test.ts\n' }, { result: 'ok\n' }, { error: 'boom\n' }, { result: 'done\n' }, { error: JSON.stringify(responses[4]) }, { result: responses[5] }]);
    expect(read).toEqual(hook);
    // a Claude Code payload with the same text is Claude Code's: read as it is
    const cc1 = write('cc-exit.jsonl', jsonl([cc('PreToolUse', 'Bash', 'x'), cc('PostToolUse', 'Bash', 'x', { tool_response: responses[0] })]));
    expect((await collect([cc1])).filter((i) => i.kind === 'call').map((c) => [c.errorInfo, c.event.result])).toEqual([['absent', responses[0]]]);
  });

  it('should read a Gemini CLI result as the Gemini hook does (run_shell_command\'s Exit Code: footer: gemini-hook-result.ts)', async () => {
    const cmd = (i: number) => ({ command: `npm test ${i}` });
    const responses: unknown[] = [
      { llmContent: 'Output: FAIL test/a.test.ts\nExit Code: 1\nProcess Group PGID: 4242', returnDisplay: 'FAIL test/a.test.ts' },
      { llmContent: 'Output: ok\nProcess Group PGID: 4243', returnDisplay: 'ok' },
      { llmContent: '<untrusted_context>\nOutput: boom\nExit Code: 2\nProcess Group PGID: 77\n</untrusted_context>', returnDisplay: 'boom' },
      { llmContent: 'cancelled', returnDisplay: 'cancelled', error: { message: 'Command was cancelled by user' } },
    ];
    const file = write('gemini-shell.jsonl', jsonl(responses.flatMap((r, i) => [gemini('BeforeTool', 'run_shell_command', cmd(i)), gemini('AfterTool', 'run_shell_command', cmd(i), { tool_response: r })])));
    const read = (await collect([file])).filter((i) => i.kind === 'call').map((c) => (c.errorInfo === 'known' ? { error: c.event.error } : { result: c.event.result }));
    const hook = responses.map((r, i) => {
      const call = AGENTS.gemini.decode(gemini('AfterTool', 'run_shell_command', cmd(i), { tool_response: r }), 'AfterTool', 'record').call;
      return call.error !== undefined ? { error: call.error } : { result: call.result };
    });
    // before: the exit codes 1 and 2 read as successes, every result keeping its own PGID
    expect(read).toEqual([{ error: 'Output: FAIL test/a.test.ts' }, { result: 'Output: ok' }, { error: 'Output: boom' }, { error: 'Command was cancelled by user' }]);
    expect(read).toEqual(hook);
  });

  it('should keep call order when after-events come out of order, and give an unanswered call no outcome', async () => {
    const file = write('order.jsonl', jsonl([
      cc('PreToolUse', 'Read', 'r1'),
      cc('PreToolUse', 'Grep', 'g1'),
      cc('PostToolUse', 'Grep', 'g1', { tool_response: 'match' }),
      cc('PreToolUse', 'Bash', 'b1'),
      cc('PostToolUse', 'Read', 'r1', { tool_response: { type: 'text' } }),
      cc('PostToolUse', 'Edit', 'e1', { tool_response: 'edited' }),
      cc('SessionEnd', 'x', 'x'),
    ]));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? `${i.event.tool}@${i.line} ${i.errorInfo}` : i.kind))).toEqual([
      'Read@1 absent',
      'Grep@2 absent',
      'Bash@4 unknown',
      'Edit@6 absent',
    ]);
  });

  it('should pair Gemini CLI payloads (no tool_use_id) by tool and order, and read a response error as a failure', async () => {
    const file = write('gemini.jsonl', jsonl([
      gemini('BeforeTool', 'run_shell_command', { command: 'make' }),
      gemini('BeforeTool', 'read_file', { absolute_path: '/app/a.c' }),
      gemini('BeforeTool', 'run_shell_command', { command: 'make test' }),
      gemini('AfterTool', 'read_file', { absolute_path: '/app/a.c' }, { tool_response: { llmContent: 'int main;', returnDisplay: 'a.c' } }),
      gemini('AfterTool', 'run_shell_command', { command: 'make' }, { tool_response: { llmContent: 'make: *** [all] Error 2', returnDisplay: '', error: { message: 'exit code 2', type: 'shell_execute_error' } } }),
      gemini('AfterTool', 'run_shell_command', { command: 'make test' }, { tool_response: { llmContent: 'ok', returnDisplay: '' } }),
    ]));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? [i.session, i.event.tool, i.event.result, i.event.error, i.errorInfo] : i.kind))).toEqual([
      // as the Gemini hook reads it: the error's message (gemini-hook-result.ts); before, the result was llmContent
      ['g1', 'run_shell_command', 'exit code 2', 'exit code 2', 'known'],
      ['g1', 'read_file', 'int main;', undefined, 'absent'],
      ['g1', 'run_shell_command', 'ok', undefined, 'absent'],
    ]);
  });

  it('should report bad payloads by line and read the rest', async () => {
    const file = write('bad.jsonl', jsonl([
      cc('PreToolUse', 'Bash', 'b1'),
      'hello',
      { session_id: 's1', tool_name: 'Bash' },
      cc('PreToolUse', '', 'x'),
      cc('PostToolUse', 'Bash', 'b2', { session_id: 5 }),
      cc('PostToolUseFailure', 'Bash', 'b1', { error: 'Command failed: exit 1' }),
    ]));
    expect((await collect([file], { format: 'hooks' })).map((i) => (i.kind === 'issue' ? `${i.code} ${i.line}: ${i.message}` : i.kind === 'call' ? `call ${i.event.error as string}` : i.kind))).toEqual([
      'bad-record 2: expected a hook payload (an object with a string "hook_event_name"), received "hello" (string); skipped',
      'bad-record 3: expected a hook payload (an object with a string "hook_event_name"), received an object whose "hook_event_name" is undefined; skipped',
      'bad-record 4: PreToolUse payload without a "tool_name" (received "" (string)); skipped',
      'bad-record 5: "session_id" must be a non-empty string, received 5 (number); skipped',
      'call Command failed: exit 1',
    ]);
  });

  it(`should keep at most ${MAX_OPEN_SESSIONS} sessions waiting, giving up the least recently used one's calls without outcome`, async () => {
    const pre = (s: number) => ({ ...cc('PreToolUse', 'Bash', `b${s}`), session_id: `s${s}` });
    const lines = [pre(0), pre(1), { ...cc('PostToolUse', 'Bash', 'b1', { tool_response: 'ok' }), session_id: 's1' }, pre(1)];
    for (let s = 2; s <= MAX_OPEN_SESSIONS + 1; s++) lines.push(pre(s));
    lines.push({ ...cc('PostToolUse', 'Bash', 'b0', { tool_response: 'late' }), session_id: 's0' });
    const calls = (await collect([write('many.jsonl', jsonl(lines))])).filter((i) => i.kind === 'call');
    expect(calls.filter((c) => c.session === 's0').map((c) => [c.line, c.errorInfo])).toEqual([[1, 'unknown'], [lines.length, 'absent']]);
    expect(calls).toHaveLength(MAX_OPEN_SESSIONS + 4);
  });
});
