/**
 * A person declines a call at the agent's own permission prompt (no hook event comes for it), and then
 * answers the agent with a short "ok" (src/text/prompt-answer.ts: no fresh start). The hook took a prompt
 * that only answers as nothing at all, so the declined proposal stayed in flight in the session's state
 * until a real prompt (or PENDING_PROPOSALS later proposals): the calls the agent proposed next were taken
 * for calls running beside it, one turn of calls, and a command failing again and again in that turn was
 * never warned. Any prompt comes between the agent's turns, so the proposals still waiting at it did not
 * run, whether or not it gives a fresh start (LoopDetector.endTurn; freshStart does the same and more).
 * Through `loopwatch hook` (one process for the first event of each session, the rest in this process).
 */
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import type { LiveAction } from '../src/index.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { AGENTS, afterPayload, beforePayload, promptPayload, proposeAction, hook } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('hook-declined-answered');

function shell(agent: AgentName, command: string, error?: string): ScriptedCall {
  return { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command }, ...(error === undefined ? { result: 'done' } : { error }) };
}

/**
 * `rm -rf dist` proposed and declined (nothing sent after it), the prompt `prompt`, then `npm test` failing
 * alike four times: the proposals' actions of the four.
 */
async function declinedThen(agent: AgentName, session: string, prompt: string): Promise<LiveAction[]> {
  let sent = 0;
  const send = async (payload: Record<string, unknown>): Promise<string> => {
    const r = await (sent++ === 0 ? hook : hookInProcess)(['--agent', agent, '--state-dir', dir], payload);
    expect(r.stderr).toBe('');
    return r.stdout;
  };
  await send({ ...promptPayload(agent, session), prompt: 'clean the build and run the tests' });
  expect(proposeAction(agent, await send(beforePayload(agent, session, shell(agent, 'rm -rf dist'), `${session}_rm`)))).toBe('allow');
  // declined at the agent's prompt: no after-event; the person answers the agent's question
  expect(await send({ ...promptPayload(agent, session), prompt })).toBe('');
  const test = shell(agent, 'npm test', 'FAIL src/app.test.ts: expected 2, received 3');
  const actions: LiveAction[] = [];
  for (let i = 0; i < 4; i++) {
    const id = `${session}_t${i}`;
    const action = proposeAction(agent, await send(beforePayload(agent, session, test, id)));
    actions.push(action);
    if (action !== 'deny' && action !== 'stop') await send(afterPayload(agent, session, test, id, i + 1));
  }
  return actions;
}

describe('a call declined at the agent\'s prompt, then a prompt that only answers', () => {
  it('should judge the calls after "ok" as the calls after a new task are judged, for every agent', async () => {
    for (const agent of AGENTS) {
      const afterTask = await declinedThen(agent, `${agent}-declined-task`, 'leave dist, just run the tests');
      const afterOk = await declinedThen(agent, `${agent}-declined-ok`, 'ok');
      expect(afterTask, agent).not.toEqual(['allow', 'allow', 'allow', 'allow']); // the repeats are warned
      // before: the failing runs were taken for calls in flight beside the declined rm (one turn): never warned
      expect(afterOk, agent).toEqual(afterTask);
    }
  });
});

describe('LoopDetector.endTurn', () => {
  const rm = { id: 'c-rm', tool: 'bash', args: { command: 'rm -rf dist' } };
  const test = (i: number) => ({ id: `c${i}`, tool: 'bash', args: { command: 'npm test' } });

  it('should take the proposals still waiting as not run for a host that records every run, and say so', () => {
    const d = new LoopDetector();
    d.expectEveryOutcome();
    d.propose(rm);
    expect(d.endTurn()).toBe(true);
    expect(d.endTurn()).toBe(false); // nothing waits any more
    // a record that still comes is a call of its own
    d.record({ ...rm, result: 'ok' });
    expect(d.stats().checks).toBe(1);
  });

  it('should give no fresh start: a warned loop stays on its rung', () => {
    const run = (end: (d: LoopDetector) => void): LiveAction[] => {
      const d = new LoopDetector();
      d.expectEveryOutcome();
      const out: LiveAction[] = [];
      for (let i = 0; i < 5; i++) {
        const p = d.propose(test(i));
        out.push(p.action);
        if (p.action !== 'allow' && p.action !== 'warn') break;
        d.record({ ...test(i), error: 'FAIL src/app.test.ts: expected 2, received 3' });
        if (i === 2) end(d);
      }
      return out;
    };
    expect(run((d) => d.endTurn())).toEqual(run(() => undefined));
    expect(run((d) => d.endTurn())).not.toEqual(run((d) => d.freshStart()));
  });

  it('should keep the proposals waiting for a host that does not record every run', () => {
    const d = new LoopDetector();
    d.propose(rm);
    expect(d.endTurn()).toBe(false);
    d.record({ ...rm, result: 'ok' });
    expect(d.stats().checks).toBe(1);
  });
});
