/**
 * Claude Code's PostToolBatch names every call of a model turn after all of them resolved; a call that ran
 * has had its PostToolUse or PostToolUseFailure by then, so one still waiting did not run, whatever its
 * result says (src/formats/post-tool-batch.ts). An Agent SDK program that declines a call in `canUseTool`
 * (`{behavior: 'deny', message}`) gives the model its own message: Claude Code 2.1.337 driven by
 * @anthropic-ai/claude-agent-sdk 0.3.337 sent PreToolUse for the call, then no after-event and no
 * PermissionDenied, and the batch's `tool_response` was the program's message ("No: not that."). The
 * hook took only Claude Code's own decline wordings as not run (newuser6), so the call stayed in flight; with
 * no transcript to read turns from (`persistSession: false`), `npm test` failing alike seven times after it
 * was taken for calls of its turn and never warned (seen through the real Claude Code: all seven ran).
 * Through the built hook and serve's hook route. A batch whose calls all ran leaves the state as it was; a
 * batch of a session serve does not hold makes none.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../src/hooks/agents.js';
import { LoopDetector } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { claudeCodeSender, fixture, processesFirst, proposeAction } from './helpers/hook-payloads.js';
import { claudeHookRoute } from './helpers/http.js';
import { tempFolder } from './helpers/temp-folder.js';

/** As Claude Code 2.1.337 sent them (the session's transcript never written: `persistSession: false`). */
const base = { ...fixture('claude-code', 'before.json'), transcript_path: '/nonexistent/s.jsonl', permission_mode: 'default' };
const rm = { tool_name: 'Bash', tool_input: { command: 'rm -rf build', description: 'Clean' }, tool_use_id: 'toolu_1' };
const SDK_DECLINE = 'No: not that.';
const FAIL = 'Exit code 1\n\n> cc@1.0.0 test\n> echo "Error: no test specified" && exit 1\n\nError: no test specified';
const batch = (calls: readonly unknown[]) => ({ ...base, hook_event_name: 'PostToolBatch', tool_calls: calls });

/** rm declined by the SDK program (its batch), then `npm test` failing alike seven times, each turn's batch after it. */
async function sdkDeclinedThenFailing(send: (payload: unknown) => Promise<string>): Promise<string[]> {
  const actions = [proposeAction('claude-code', await send({ ...base, ...rm, hook_event_name: 'PreToolUse' }))];
  expect(await send(batch([{ ...rm, tool_response: SDK_DECLINE }]))).toBe('');
  for (let i = 0; i < 7; i++) {
    const call = { tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run tests' }, tool_use_id: `toolu_t${i}` };
    const action = proposeAction('claude-code', await send({ ...base, ...call, hook_event_name: 'PreToolUse' }));
    actions.push(action);
    if (action === 'deny' || action === 'stop') continue;
    await send({ ...base, ...call, hook_event_name: 'PostToolUseFailure', error: FAIL, is_interrupt: false, duration_ms: 300 });
    await send(batch([{ ...call, tool_response: FAIL }]));
  }
  return actions;
}

/** rm allowed, `npm test` warned at its third failure, denied, then stopped (before: all allowed). */
const WANT = ['allow', 'allow', 'allow', 'warn', 'deny', 'stop', 'stop', 'stop'];

describe('a call an Agent SDK program declined, through the built hook', () => {
  it('should be taken as not run at its batch: the calls after it are not of its turn', async () => {
    const dir = tempFolder('hook-batch-waiting');
    // the first 2 hook calls processes (the decline among them), the rest in this process on the same state
    const send = claudeCodeSender(join(dir, 'state'), 2);
    expect(await sdkDeclinedThenFailing(send)).toEqual(WANT);
  }, 90_000);

  it('should leave the state as it was for a batch whose calls all ran', async () => {
    const dir = tempFolder('hook-batch-ran');
    const args = ['--agent', 'claude-code', '--state-dir', join(dir, 'state')];
    const ls = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_ls' };
    const run = processesFirst(1); // the PreToolUse a process, the rest in this process on the same state
    await run(args, { ...base, ...ls, hook_event_name: 'PreToolUse' });
    await run(args, { ...base, ...ls, hook_event_name: 'PostToolUse', tool_response: { stdout: 'a\n', stderr: '', interrupted: false, isImage: false } });
    const files = (): string[] => (readdirSync(join(dir, 'state'), { recursive: true }) as string[]).filter((f) => statSync(join(dir, 'state', f)).isFile()).sort();
    const bytes = (): [string, Buffer][] => files().map((f) => [f, readFileSync(join(dir, 'state', f))]);
    const before = bytes();
    expect(await run(args, batch([{ ...ls, tool_response: 'a' }]))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(before.length).toBeGreaterThan(0);
    expect(bytes()).toEqual(before);
  }, 60_000);
});

describe('a call an Agent SDK program declined, through serve\'s hook route', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('should be taken as not run at its batch there too', async () => {
    const send = claudeHookRoute(server.url, (unchecked) => expect(unchecked).toBeNull());
    expect(await sdkDeclinedThenFailing(send)).toEqual(WANT);
  });

  it('should make no session for a batch of a session the server does not hold (one that ended)', async () => {
    const send = claudeHookRoute(server.url, (unchecked) => expect(unchecked).toBeNull());
    const sessions = async (): Promise<number> => ((await (await fetch(`${server.url}/healthz`)).json()) as { sessions: number }).sessions;
    const before = await sessions();
    expect(await send({ ...batch([{ ...rm, tool_response: SDK_DECLINE }]), session_id: 'ended-before-its-batch' })).toBe('');
    expect(await sessions()).toBe(before);
  });
});

describe('a call that ran', () => {
  it('should never be taken as not run, whatever its text (didNotRun says it was not waiting)', () => {
    const call = { id: 'c1', tool: 'Bash', args: { command: 'cat notes.txt' } };
    const d = new LoopDetector();
    d.expectEveryOutcome();
    d.propose(call);
    d.record({ ...call, result: SDK_DECLINE });
    const before = d.snapshot();
    const named = AGENTS['claude-code'].decode({ session_id: 's', hook_event_name: 'PostToolBatch', tool_calls: [{ tool_name: 'Bash', tool_input: call.args, tool_use_id: 'c1', tool_response: SDK_DECLINE }] }, 'PostToolBatch', 'decline').declined ?? [];
    expect(named).toHaveLength(1);
    expect(named.map((c) => d.didNotRun(c))).toEqual([false]);
    expect(Buffer.from(d.snapshot()).equals(Buffer.from(before))).toBe(true);
    expect(d.stats().checks).toBe(1);
  });
});
