/**
 * Claude Code's PermissionDenied (auto mode's classifier denied a call; https://code.claude.com/docs/en/hooks
 * #permissiondenied: `tool_name`, `tool_input`, `tool_use_id`, `reason`): the call did not run, and the
 * hook takes it so at once (LoopDetector.didNotRun: never recorded as run, no longer in flight). Before, the
 * event was neither installed nor read: the proposal waited as if the call were running until eight later
 * proposals made it overdue, and the calls proposed meanwhile were taken for calls of its turn (in flight
 * together), so `npm test` failing alike seven times after it was one turn, never warned. Through the built
 * hook (one process per event) and serve's route.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTarget } from '../src/hooks/install-targets.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { claudeCodeSender, fixture, hook, proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';
import { claudeHookRoute } from './helpers/http.js';

const base = { ...fixture('claude-code', 'before.json'), transcript_path: '/nonexistent/s.jsonl', permission_mode: 'auto' };
const rm = { tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/build' }, tool_use_id: 'toolu_rm' };
const FAIL = 'Exit code 1\nFAIL test/a.test.ts: expected 1 to be 2';

/**
 * The actions the agent reads: a call the classifier denies, then `npm test` failing alike seven times,
 * each in an answer of its own (no transcript: no turn read).
 */
async function deniedThenFailing(send: (payload: unknown) => Promise<string>): Promise<string[]> {
  const actions = [proposeAction('claude-code', await send({ ...base, ...rm, hook_event_name: 'PreToolUse' }))];
  expect(await send({ ...fixture('claude-code', 'permission-denied.json'), ...base, ...rm, hook_event_name: 'PermissionDenied' })).toBe(''); // nothing for Claude Code to read
  for (let i = 0; i < 7; i++) {
    const call = { ...base, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: `toolu_t${i}` };
    const action = proposeAction('claude-code', await send({ ...call, hook_event_name: 'PreToolUse' }));
    actions.push(action);
    if (action !== 'deny' && action !== 'stop') await send({ ...call, hook_event_name: 'PostToolUseFailure', error: FAIL, is_interrupt: false });
  }
  return actions;
}

/** What the session gets: the denied call allowed, `npm test` warned at its third failure, denied, then stopped (before: all allowed, one turn in flight with the denied call). */
const WANT = ['allow', 'allow', 'allow', 'warn', 'deny', 'stop', 'stop', 'stop'];

describe("Claude Code's PermissionDenied, through the built hook", () => {
  it('should take the call as not run at once: the calls after it are not of its turn', async () => {
    const dir = tempFolder('hook-permission-denied');
    // the first 2 hook calls processes (the decline among them), the rest in this process on the same state
    const send = claudeCodeSender(join(dir, 'state'), 2);
    expect(await deniedThenFailing(send)).toEqual(WANT);
  }, 60_000);

  it('should be read without --agent (only Claude Code sends it), and say nothing for a session it has no state of', async () => {
    const dir = tempFolder('hook-permission-denied');
    const r = await hook(['--state-dir', join(dir, 'state')], fixture('claude-code', 'permission-denied.json'));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('should be installed for every tool', () => {
    expect(installTarget('claude-code', 'user', '/p', { HOME: '/h' }).events).toContainEqual({ event: 'PermissionDenied', matcher: '*' });
  });
});

describe("Claude Code's PermissionDenied, through serve's hook route", () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('should take the call as not run at once there too', async () => {
    const send = claudeHookRoute(server.url, (unchecked) => expect(unchecked).toBeNull());
    expect(await deniedThenFailing(send)).toEqual(WANT);
  });
});
