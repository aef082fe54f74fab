/**
 * Zed's ACP adapter for Claude Code runs shell commands through its own MCP tools (`mcp__acp__Bash`,
 * `mcp__acp__BashOutput`), whose result is one text block without `is_error` whatever the exit code:
 * `Exited with code 1.Signal ...Final output:\n\n...` (holdout6, Jason-liu-0219 5ffa2060). Read as it
 * stood, a failed command was a success in the transcript, through the hook and in a log of its payloads;
 * a non-zero exit is now a failure in all three (src/formats/acp-shell-result.ts).
 */
import { describe, expect, it } from 'vitest';
import { acpShellFailure } from '../src/formats/acp-shell-result.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { AGENTS } from '../src/hooks/agents.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('acp-shell-exit');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

// the adapter's texts (src/mcp-server.ts toolCommandOutput), as holdout6's session has them
const FAILED = 'Exited with code 1.Signal `Hangup: 1`. Final output:\n\n\nsrc/a.vue\n  381:50  error  \'devices\' is already declared  no-shadow\n\n✖ 1 problem (1 error, 0 warnings)\n\n';
const PASSED = 'Exited with code 0.Final output:\n\n\n\n\n';
const OLDER = 'Failed with exit code 2.Final output:\n\nmake: *** [all] Error 2';
const KILLED = 'Timed out. Exited with code 137.Final output:\n\npartial';

describe('Zed ACP shell results', () => {
  it('should read a non-zero exit as a failure, zero or another tool as no failure', () => {
    const blocks = (t: string) => [{ type: 'text', text: t }];
    expect(acpShellFailure('mcp__acp__Bash', blocks(FAILED))).toBe(FAILED);
    expect(acpShellFailure('mcp__acp__Bash', FAILED)).toBe(FAILED);
    expect(acpShellFailure('mcp__acp__Bash', { content: blocks(OLDER) })).toBe(OLDER);
    expect(acpShellFailure('mcp__acp__BashOutput', blocks(KILLED))).toBe(KILLED);
    expect(acpShellFailure('mcp__acp__Bash', blocks(PASSED))).toBeUndefined();
    expect(acpShellFailure('mcp__acp__Bash', blocks('New output:\n\nExited with code 1.'))).toBeUndefined();
    expect(acpShellFailure('Bash', FAILED)).toBeUndefined();
    expect(acpShellFailure('mcp__other__Bash', blocks(FAILED))).toBeUndefined();
  });

  it('should read the transcript\'s failed command as a failure (a result written before its call too)', async () => {
    const base = { sessionId: 's-acp', isSidechain: false, version: '2.1.9', cwd: '/w' };
    const use = (uuid: string, msg: string, id: string, command: string) => ({ ...base, type: 'assistant', uuid, message: { id: msg, role: 'assistant', content: [{ type: 'tool_use', id, name: 'mcp__acp__Bash', input: { command } }] } });
    const result = (uuid: string, id: string, text: string) => ({ ...base, type: 'user', uuid, message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text }] }] }, toolUseResult: [{ type: 'text', text }] });
    const file = write('acp.jsonl', jsonl([
      use('a1', 'm1', 't1', 'pnpm lint'), result('u1', 't1', FAILED),
      use('a2', 'm2', 't2', 'git status'), result('u2', 't2', PASSED),
      result('u3', 't3', FAILED), use('a3', 'm3', 't3', 'pnpm lint'),
    ]));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    // before: absent, absent, absent
    expect(calls.map((c) => [c.errorInfo, c.event.error])).toEqual([['known', FAILED], ['absent', undefined], ['known', FAILED]]);
  });

  it('should read it so through the hook and in a log of the hook\'s payloads, alike', async () => {
    const payload = (text: string, id: string) => ({ session_id: 's', transcript_path: '/t.jsonl', cwd: '/w', hook_event_name: 'PostToolUse', tool_name: 'mcp__acp__Bash', tool_use_id: id, tool_input: { command: 'pnpm lint' }, tool_response: [{ type: 'text', text }] });
    const hook = [FAILED, PASSED].map((t, i) => {
      const c = AGENTS['claude-code'].decode(payload(t, `h${i}`), 'PostToolUse', 'record').call;
      return c.error !== undefined ? { error: c.error } : { result: c.result };
    });
    expect(hook[0]).toEqual({ error: FAILED }); // before: a result
    expect(hook[1]).not.toHaveProperty('error');
    const pre = (id: string) => ({ ...payload('', id), hook_event_name: 'PreToolUse', tool_response: undefined });
    const file = write('acp-hook.jsonl', jsonl([pre('h0'), payload(FAILED, 'h0'), pre('h1'), payload(PASSED, 'h1')]));
    const read = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.errorInfo, c.event.error]);
    expect(read).toEqual([['known', FAILED], ['absent', undefined]]);
  });
});
