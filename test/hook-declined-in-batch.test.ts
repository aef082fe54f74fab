/**
 * A call the person declines WITH feedback at Claude Code's own prompt ("No, and tell Claude what to do
 * differently") sends no PostToolUse, PostToolUseFailure or PermissionDenied, and no new prompt either: the
 * feedback is the call's `tool_result` ("The user doesn't want to proceed with this tool use. ... To tell
 * you how to proceed, the user said: ...") and the turn goes on. Its proposal waited as if the call were
 * running until eight later proposals made it overdue, and the calls proposed meanwhile were taken for calls
 * of its turn, so `npm test` failing alike seven times after it was one turn, never warned (s14 note:
 * "waits until overdue"). Claude Code's PostToolBatch (after a turn's calls resolved, before the next model
 * request: `tool_calls[]` with each `tool_response` the model reads) names the declined call with that
 * text: the hook takes it as not run at once (src/hooks/declined-in-batch.ts). Through the built hook (one
 * process per event) and serve's hook route.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../src/hooks/agents.js';
import { declinedInBatch } from '../src/hooks/declined-in-batch.js';
import { installTarget } from '../src/hooks/install-targets.js';
import { mergeHooks } from '../src/hooks/settings-merge.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { claudeCodeSender, fixture, hook, proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';
import { claudeHookRoute } from './helpers/http.js';

const base = { ...fixture('claude-code', 'before.json'), transcript_path: '/nonexistent/s.jsonl', permission_mode: 'default' };
const rm = { tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/build', description: 'Clean the build' }, tool_use_id: 'toolu_rm' };
const FAIL = 'Exit code 1\nFAIL test/a.test.ts: expected 1 to be 2';
// Claude Code's texts (the seven sets hold 228 declined calls' results, every one beginning so)
const WITH_FEEDBACK = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep the build folder, run the tests";
const WITHOUT = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const OLDER = "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";

const batch = (calls: readonly unknown[]) => ({ ...base, hook_event_name: 'PostToolBatch', tool_calls: calls });

/** rm declined with feedback (its batch), then `npm test` failing alike seven times, each turn's batch after it. */
async function declinedThenFailing(send: (payload: unknown) => Promise<string>): Promise<string[]> {
  const actions = [proposeAction('claude-code', await send({ ...base, ...rm, hook_event_name: 'PreToolUse' }))];
  expect(await send(batch([{ ...rm, tool_response: WITH_FEEDBACK }]))).toBe(''); // nothing for Claude Code to read
  for (let i = 0; i < 7; i++) {
    const call = { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: `toolu_t${i}` };
    const action = proposeAction('claude-code', await send({ ...base, ...call, hook_event_name: 'PreToolUse' }));
    actions.push(action);
    if (action === 'deny' || action === 'stop') continue;
    await send({ ...base, ...call, hook_event_name: 'PostToolUseFailure', error: FAIL, is_interrupt: false });
    await send(batch([{ ...call, tool_response: [{ type: 'text', text: FAIL }] }]));
  }
  return actions;
}

/** What the session gets: rm allowed, `npm test` warned at its third failure, denied, then stopped (before: all allowed, one turn in flight with rm). */
const WANT = ['allow', 'allow', 'allow', 'warn', 'deny', 'stop', 'stop', 'stop'];

describe('a batch\'s declined calls', () => {
  it('should be every call of the batch (those still waiting did not run), with their input as PreToolUse\'s', () => {
    const p = batch([{ ...rm, tool_response: WITH_FEEDBACK }, { tool_name: 'Read', tool_input: { file_path: '/a' }, tool_use_id: 'toolu_r', tool_response: [{ type: 'text', text: 'ok' }] }, { tool_name: 'Bash', tool_response: WITHOUT }, { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_o', tool_response: OLDER }, 'junk']);
    const call = AGENTS['claude-code'].decode(p, 'PostToolBatch', 'decline');
    expect(call.declined).toEqual([
      { tool: 'Bash', args: { command: 'rm -rf /tmp/build' }, id: 'toolu_rm', result: WITH_FEEDBACK }, // Bash's description left out, as PreToolUse's
      { tool: 'Read', args: { file_path: '/a' }, id: 'toolu_r', result: 'ok' },
      { tool: 'Bash', args: { command: 'ls' }, id: 'toolu_o', result: OLDER },
    ]);
    expect(declinedInBatch({ tool_calls: 'x' }, () => undefined)).toEqual([]);
  });
});

describe('a call declined with feedback, through the built hook', () => {
  it('should take the call as not run at the batch: the calls after it are not of its turn', async () => {
    const dir = tempFolder('hook-declined-batch');
    // the first 2 hook calls processes (the decline among them), the rest in this process on the same state
    const send = claudeCodeSender(join(dir, 'state'), 2);
    expect(await declinedThenFailing(send)).toEqual(WANT);
  }, 90_000);

  it('should be read without --agent, and say nothing for a session it has no state of', async () => {
    const dir = tempFolder('hook-declined-batch');
    const r = await hook(['--state-dir', join(dir, 'state')], batch([{ ...rm, tool_response: WITHOUT }]));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('should be installed without a matcher, run in the background (async: the agent never waits for it)', () => {
    const target = installTarget('claude-code', 'user', '/p', { HOME: '/h' });
    expect(target.events).toContainEqual({ event: 'PostToolBatch', async: true });
    const merged = JSON.parse(mergeHooks('{}', {}, target.events, target.handler('loopwatch hook --agent claude-code'), '  ').text) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> };
    expect(merged.hooks.PostToolBatch).toEqual([{ hooks: [{ type: 'command', command: 'loopwatch hook --agent claude-code', timeout: 10, async: true }] }]);
    expect(merged.hooks.PreToolUse?.[0]?.hooks[0]).not.toHaveProperty('async');
    // installed again: unchanged
    expect(mergeHooks(JSON.stringify(merged), merged, target.events, target.handler('loopwatch hook --agent claude-code'), '  ').changes.every((c) => c.change === 'unchanged')).toBe(true);
  });
});

describe('a call declined with feedback, through serve\'s hook route', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('should take the call as not run at the batch there too', async () => {
    const send = claudeHookRoute(server.url, (unchecked) => expect(unchecked).toBeNull());
    expect(await declinedThenFailing(send)).toEqual(WANT);
  });
});
