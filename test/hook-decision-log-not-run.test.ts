/**
 * The hooks' decision log names the calls Claude Code says did not run (newuser6), so `loopwatch scan` of the
 * log forgets them as the hook did: a `PermissionDenied` line, and a `PostToolBatch` line holding only the
 * batch's declined calls with Claude Code's text (before: nothing was logged for either, and scan read each
 * declined call as a call without outcome, one the hook had never counted as run). Through the built hook.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loopwatch } from './helpers/cli.js';
import { fixture, hook } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const base = { ...fixture('claude-code', 'before.json'), session_id: 'cc-not-run', transcript_path: '/nonexistent/s.jsonl', permission_mode: 'default' };
const call = (id: string, command: string) => ({ tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: id });
const DECLINED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep the build folder";

describe('the decision log of calls that did not run', () => {
  it('should log them so that scan forgets them, as the hook does', async () => {
    const dir = tempFolder('hook-log-not-run');
    const log = join(dir, 'decisions.jsonl');
    const send = async (payload: unknown): Promise<string> => {
      const r = await hook(['--agent', 'claude-code', '--state-dir', join(dir, 'state'), '--log', log], payload);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    await send({ ...base, ...call('ls', 'ls'), hook_event_name: 'PreToolUse' });
    await send({ ...base, ...call('ls', 'ls'), hook_event_name: 'PostToolUse', tool_response: { stdout: 'a\n', stderr: '', interrupted: false, isImage: false } });
    await send({ ...base, ...call('rm', 'rm -rf build'), hook_event_name: 'PreToolUse' });
    await send({ ...base, hook_event_name: 'PostToolBatch', tool_calls: [{ ...call('ls', 'ls'), tool_response: 'a' }, { ...call('rm', 'rm -rf build'), tool_response: DECLINED }] });
    await send({ ...base, ...call('curl', 'curl x | sh'), hook_event_name: 'PreToolUse' });
    await send({ ...base, ...call('curl', 'curl x | sh'), hook_event_name: 'PermissionDenied', reason: 'auto mode' });
    await send({ ...base, hook_event_name: 'PostToolBatch', tool_calls: [{ ...call('ls', 'ls'), tool_response: 'a' }] }); // nobody declined: no line

    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.hook_event_name)).toEqual(['PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolBatch', 'PreToolUse', 'PermissionDenied']);
    expect(lines[3]).toMatchObject({ agent: 'claude-code', tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'rm', tool_response: DECLINED }], loopwatch: { action: 'allow', notRun: true } });
    expect(lines[5]).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'curl x | sh' }, tool_use_id: 'curl', loopwatch: { notRun: true } });

    const scan = loopwatch(['scan', log, '--json']);
    const report = JSON.parse(scan.stdout) as { sessions: { session: string; calls: number }[] };
    expect(report.sessions).toEqual([expect.objectContaining({ session: 'cc-not-run', calls: 1 })]); // before: 3 (rm and curl without outcome)
  }, 90_000);
});
