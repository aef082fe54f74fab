/**
 * The hooks hear a background task's notification as the readers do (src/text/prompt-origin.ts): Claude
 * Code's UserPromptSubmit whose prompt is `<task-notification>…` gives no fresh start, so a loop that spans
 * background tasks' completions is warned, through `loopwatch hook` (in process: runHook) and `loopwatch
 * serve`'s hook route; the same calls with a typed task before each part of each round stay quiet there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hook-run.js';
import type { LiveAction } from '../src/index.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { taskedRounds } from './helpers/answered-rounds.js';
import { afterPayload, beforePayload, promptPayload, proposeAction } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import type { Turn } from './helpers/prompted-sessions.js';
import { notifiedRounds } from './helpers/task-notifications.js';
import { tempFolder } from './helpers/temp-folder.js';

const ROUNDS = 6;

/** Sends one Claude Code payload, returns the reply's stdout. */
type Send = (payload: Record<string, unknown>) => Promise<string>;

/** The proposals' actions of a Claude Code session of `turns`, each prompt sent with its text, each call proposed and recorded when it may run. */
async function actions(send: Send, session: string, turns: readonly Turn[]): Promise<LiveAction[]> {
  const out: LiveAction[] = [];
  let n = 0;
  for (const t of turns) {
    expect(await send({ ...promptPayload('claude-code', session), prompt: t.prompt })).toBe('');
    for (const c of t.calls) {
      const call: ScriptedCall = { tool: 'Bash', args: { command: c.command }, ...(c.failing ? { error: c.result } : { result: c.result }) };
      const id = `call_${session}_${n++}`;
      const action = proposeAction('claude-code', await send(beforePayload('claude-code', session, call, id)));
      out.push(action);
      if (action !== 'deny' && action !== 'stop') await send(afterPayload('claude-code', session, call, id, n));
    }
  }
  return out;
}

describe('loopwatch hook, on background tasks\' notifications', () => {
  const stateDir = tempFolder('hook-task-notification');
  const send: Send = async (payload) => {
    const r = runHook(JSON.stringify(payload), { agent: 'claude-code', stateDir });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    return r.stdout;
  };

  it('should warn a loop that spans notifications', async () => {
    expect((await actions(send, 'notified', notifiedRounds(ROUNDS))).some((a) => a !== 'allow')).toBe(true);
  });

  it('should stay quiet when a typed task comes before each part of each round', async () => {
    expect((await actions(send, 'tasked', taskedRounds(ROUNDS))).every((a) => a === 'allow')).toBe(true);
  });
});

describe('loopwatch serve\'s hook route, on background tasks\' notifications', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });
  const send: Send = async (payload) => {
    const res = await fetch(`${server.url}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect([res.status, res.headers.get('loopwatch-unchecked')]).toEqual([200, null]);
    return res.text();
  };

  it('should warn a loop that spans notifications, and leave the tasked one quiet', async () => {
    expect((await actions(send, 'notified', notifiedRounds(ROUNDS))).some((a) => a !== 'allow')).toBe(true);
    expect((await actions(send, 'tasked', taskedRounds(ROUNDS))).every((a) => a === 'allow')).toBe(true);
  });
});
