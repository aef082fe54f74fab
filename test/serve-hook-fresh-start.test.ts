/**
 * The way back after a stop through `loopwatch serve`'s hook routes, as through `loopwatch hook`: a new
 * prompt (UserPromptSubmit, BeforeAgent) or a new successful edit after a block gives the session a fresh
 * start, with the server made from `serve`'s own flags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSettings } from '../src/cli/serve-command.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import type { LiveAction } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { AGENTS, afterPayload, beforePayload, editCall, promptPayload, proposeAction } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

let server: ServeServer;
beforeAll(async () => {
  const settings = serveSettings(['--port', '0', '--no-state']);
  if (settings.kind !== 'http') throw new Error('expected an HTTP server');
  server = await ServeServer.start(settings.options);
});
afterAll(async () => {
  await server.stop();
});

async function post(agent: AgentName, payload: unknown): Promise<string> {
  const res = await fetch(`${server.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  expect(res.status).toBe(200);
  expect(res.headers.get('loopwatch-unchecked')).toBeNull();
  return (await res.text()).trim();
}

function build(agent: AgentName): ScriptedCall {
  return { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: 'make' }, error: 'make: *** [all] Error 1' };
}

/** A session of `agent` on the server, call by call. */
function session(agent: AgentName, id: string): (c: ScriptedCall) => Promise<LiveAction> {
  let n = 0;
  return async (c) => {
    const callId = `toolu_${id}_${n++}`;
    const action = proposeAction(agent, await post(agent, beforePayload(agent, id, c, callId)));
    if (action !== 'deny' && action !== 'stop') await post(agent, afterPayload(agent, id, c, callId, n));
    return action;
  };
}

describe.each(AGENTS)('serve hook routes, a fresh start (%s)', (agent) => {
  it('should let a stopped command run again after a new prompt', async () => {
    const call = session(agent, `${agent}-prompt`);
    const actions: LiveAction[] = [];
    for (let i = 0; i < 5; i++) actions.push(await call(build(agent)));
    expect(actions).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
    expect(await call(build(agent))).toBe('stop');
    expect(await post(agent, promptPayload(agent, `${agent}-prompt`))).toBe('');
    expect(await call(build(agent))).toBe('allow');
  });

  it('should let a stopped command run again after a new edit', async () => {
    const call = session(agent, `${agent}-edit`);
    for (let i = 0; i < 5; i++) await call(build(agent));
    expect(await call(editCall(agent, '/srv/app/Makefile'))).toBe('allow');
    expect(await call(build(agent))).toBe('allow');
  });
});

describe.each(AGENTS)('serve hook routes, a call declined at the agent\'s prompt then "ok" (%s)', (agent) => {
  // as test/hook-declined-then-answered.test.ts through `loopwatch hook`: a prompt that only answers the agent
  // gives no fresh start, but ends its turn; the declined call (no after-event) did not run, and the failing
  // runs after it are no longer taken for calls in flight beside it
  async function declinedThen(id: string, prompt: string): Promise<LiveAction[]> {
    await post(agent, { ...promptPayload(agent, id), prompt: 'clean the build and run the tests' });
    const rm: ScriptedCall = { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: 'rm -rf dist' }, result: 'done' };
    expect(proposeAction(agent, await post(agent, beforePayload(agent, id, rm, `${id}_rm`)))).toBe('allow');
    expect(await post(agent, { ...promptPayload(agent, id), prompt })).toBe('');
    const call = session(agent, id);
    const actions: LiveAction[] = [];
    for (let i = 0; i < 4; i++) actions.push(await call(build(agent)));
    return actions;
  }

  it('should judge the calls after "ok" as the calls after a new task', async () => {
    const afterTask = await declinedThen(`${agent}-declined-task`, 'leave dist, just run the tests');
    const afterOk = await declinedThen(`${agent}-declined-ok`, 'ok');
    expect(afterTask).not.toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(afterOk).toEqual(afterTask);
  });
});
