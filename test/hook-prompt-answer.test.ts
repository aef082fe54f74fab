/**
 * The hooks hear the prompt's text as the readers do (src/text/prompt-answer.ts): a UserPromptSubmit or
 * BeforeAgent whose prompt only answers the agent's own question ("2", "ok") gives no fresh start, so a loop
 * whose rounds the person only answers is warned, through `loopwatch hook` (in process: runHook) and
 * `loopwatch serve`'s hook route, for Claude Code, Codex and Gemini CLI; the same calls with a real new task
 * before each part of each round stay quiet there too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { runHook } from '../src/hooks/hook-run.js';
import type { LiveAction } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { answeredRounds, taskedRounds } from './helpers/answered-rounds.js';
import { AGENTS, afterPayload, beforePayload, promptPayload, proposeAction } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import type { Turn } from './helpers/prompted-sessions.js';
import { tempFolder } from './helpers/temp-folder.js';

const ROUNDS = 6;

/** Sends one payload, returns the reply's stdout. */
type Send = (agent: AgentName, payload: Record<string, unknown>) => Promise<string>;

/** The proposals' actions of a session of `turns`, each prompt sent with its text, each call proposed and recorded when it may run. */
async function actions(send: Send, agent: AgentName, session: string, turns: readonly Turn[]): Promise<LiveAction[]> {
  const out: LiveAction[] = [];
  let n = 0;
  for (const t of turns) {
    expect(await send(agent, { ...promptPayload(agent, session), prompt: t.prompt })).toBe('');
    for (const c of t.calls) {
      const call: ScriptedCall = { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: c.command }, ...(c.failing ? { error: c.result } : { result: c.result }) };
      const id = `call_${session}_${n++}`;
      const action = proposeAction(agent, await send(agent, beforePayload(agent, session, call, id)));
      out.push(action);
      if (action !== 'deny' && action !== 'stop') await send(agent, afterPayload(agent, session, call, id, n));
    }
  }
  return out;
}

describe('loopwatch hook, on prompts that only answer the agent', () => {
  const stateDir = tempFolder('hook-prompt-answer');
  const send: Send = async (agent, payload) => {
    const r = runHook(JSON.stringify(payload), { agent, stateDir });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    return r.stdout;
  };

  it.each(AGENTS)('should warn a loop whose rounds the person only answers (%s)', async (agent) => {
    expect((await actions(send, agent, `answered-${agent}`, answeredRounds(ROUNDS))).some((a) => a !== 'allow')).toBe(true);
  });

  it.each(AGENTS)('should stay quiet when a new task comes before each part of each round (%s)', async (agent) => {
    expect((await actions(send, agent, `tasked-${agent}`, taskedRounds(ROUNDS))).every((a) => a === 'allow')).toBe(true);
  });
});

describe('loopwatch serve\'s hook route, on prompts that only answer the agent', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });
  const send: Send = async (agent, payload) => {
    const res = await fetch(`${server.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect([res.status, res.headers.get('loopwatch-unchecked')]).toEqual([200, null]);
    return res.text();
  };

  it.each(AGENTS)('should warn a loop whose rounds the person only answers, and leave the tasked one quiet (%s)', async (agent) => {
    expect((await actions(send, agent, `answered-${agent}`, answeredRounds(ROUNDS))).some((a) => a !== 'allow')).toBe(true);
    expect((await actions(send, agent, `tasked-${agent}`, taskedRounds(ROUNDS))).every((a) => a === 'allow')).toBe(true);
  });
});
