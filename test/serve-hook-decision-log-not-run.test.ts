/**
 * `loopwatch serve --log FILE` writes the calls that did not run as `loopwatch hook --log` does (newuser17):
 * Claude Code's PermissionDenied as it named its call, a PostToolBatch with only its calls still waiting,
 * `"notRun": true` beside, so `scan` of serve's log forgets them as the hook did. Before, serve's route took
 * them as not run but wrote no line: its log held a denied-by-the-person call as a call without outcome,
 * and scan read three calls where the hook's log reads one. One session, the same payloads, both ways.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hook-run.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { fixture } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const base = { ...fixture('claude-code', 'before.json'), session_id: 'cc-served-not-run', transcript_path: '/nonexistent/s.jsonl', permission_mode: 'default' };
const call = (id: string, command: string) => ({ tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: id });
const DECLINED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep the build folder";
const SESSION = [
  { ...base, ...call('ls', 'ls'), hook_event_name: 'PreToolUse' },
  { ...base, ...call('ls', 'ls'), hook_event_name: 'PostToolUse', tool_response: { stdout: 'a\n', stderr: '', interrupted: false, isImage: false } },
  { ...base, ...call('rm', 'rm -rf build'), hook_event_name: 'PreToolUse' },
  { ...base, hook_event_name: 'PostToolBatch', tool_calls: [{ ...call('ls', 'ls'), tool_response: 'a' }, { ...call('rm', 'rm -rf build'), tool_response: DECLINED }] },
  { ...base, ...call('curl', 'curl x | sh'), hook_event_name: 'PreToolUse' },
  { ...base, ...call('curl', 'curl x | sh'), hook_event_name: 'PermissionDenied', reason: 'auto mode' },
  { ...base, hook_event_name: 'PostToolBatch', tool_calls: [{ ...call('ls', 'ls'), tool_response: 'a' }] }, // nobody declined: no line
];

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), time: '-' }));

describe("serve's decision log of calls that did not run", () => {
  it("should read as the hook's own log on one session", async () => {
    const dir = tempFolder('serve-log-not-run');
    const hookLog = join(dir, 'hook.jsonl');
    const serveLog = join(dir, 'serve.jsonl');
    for (const p of SESSION) expect(runHook(JSON.stringify(p), { agent: 'claude-code', stateDir: join(dir, 'state'), log: hookLog }).exitCode).toBe(0);
    const server = await ServeServer.start({ port: 0, hookLog: serveLog });
    try {
      for (const p of SESSION) {
        const res = await fetch(`${server.url}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(p) });
        expect([res.status, res.headers.get('loopwatch-unchecked'), res.headers.get('loopwatch-log-error')]).toEqual([200, null, null]);
        await res.text();
      }
    } finally {
      await server.stop();
    }
    const served = lines(serveLog);
    expect(served.map((l) => l.hook_event_name)).toEqual(['PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolBatch', 'PreToolUse', 'PermissionDenied']);
    expect(served[3]).toMatchObject({ tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'rm', tool_response: DECLINED }], loopwatch: { action: 'allow', notRun: true } });
    expect(served).toEqual(lines(hookLog));
    const scan = await loopwatchInProcess(['scan', serveLog, '--json']);
    const report = JSON.parse(scan.stdout) as { sessions: { session: string; calls: number }[] };
    expect(report.sessions).toEqual([expect.objectContaining({ session: 'cc-served-not-run', calls: 1 })]); // before: 3 (rm and curl without outcome)
  }, 60_000);
});
