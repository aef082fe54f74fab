/**
 * A way back after a stop, through `loopwatch hook` as each agent runs it (a process per hook call for every
 * fourth call, the prompt and `hook reset`; the other calls through the same command in this process,
 * helpers/hook-in-process.ts, on the same state files):
 * once a session is stopped, a new prompt from the user, a successful new edit, or `loopwatch hook reset`
 * gives it a fresh start. The scenario: the same failing command until the run is stopped, then
 * an edit, then the command again (it ran; it was "blocked 2 times" before), ten unrelated calls, and the
 * command again (it was still warned). A loop that comes back after the fresh start is found again, from
 * the first rung of the ladder (a warning before any denial).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import type { LiveAction } from '../src/index.js';
import { AGENTS, afterPayload, beforePayload, editCall, hook, loopwatchAsync, promptPayload, proposeAction, readCall } from './helpers/hook-payloads.js';
import { hookInProcess, hookVerbInProcess } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

const stateDir = mkdtempSync(join(tmpdir(), 'loopwatch-hook-fresh-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

const failingBuild: ScriptedCall = { tool: 'Bash', args: { command: 'python setup.py build_ext --inplace' }, error: 'error: command "gcc" failed with exit status 1' };

/** The build command in the agent's own shell tool. */
function build(agent: AgentName): ScriptedCall {
  return agent === 'gemini' ? { ...failingBuild, tool: 'run_shell_command' } : failingBuild;
}

/** Calls of a session made by hook processes (both its hooks): the first and every fourth after it (the stop among them). */
const REAL_EVERY = 4;

/**
 * One session driven call by call: each call proposed, and recorded when it was allowed to run; every
 * REAL_EVERY-th call, and a call made with `viaProcess` true, through hook processes, the others through
 * the hook command in this process.
 */
function session(agent: AgentName, id: string): { call(c: ScriptedCall, viaProcess?: boolean): Promise<{ action: LiveAction; reply: string }>; prompt(): Promise<string> } {
  let n = 0;
  const args = ['--agent', agent, '--state-dir', stateDir];
  return {
    async call(c, viaProcess = false) {
      const run = viaProcess || n % REAL_EVERY === 0 ? hook : hookInProcess;
      const callId = `toolu_${id}_${n++}`;
      const before = await run(args, beforePayload(agent, id, c, callId));
      expect(before.code).toBe(0);
      expect(before.stderr).toBe('');
      const action = proposeAction(agent, before.stdout);
      if (action !== 'deny' && action !== 'stop') {
        const after = await run(args, afterPayload(agent, id, c, callId, n));
        expect(after.code).toBe(0);
        expect(after.stderr).toBe('');
      }
      return { action, reply: before.stdout };
    },
    async prompt() {
      const r = await hook(args, promptPayload(agent, id));
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      return r.stdout;
    },
  };
}

/** Runs the failing build until the run is stopped; returns the actions. */
async function untilStopped(s: ReturnType<typeof session>, agent: AgentName): Promise<LiveAction[]> {
  const actions: LiveAction[] = [];
  for (let i = 0; i < 8 && actions.at(-1) !== 'stop'; i++) actions.push((await s.call(build(agent))).action);
  expect(actions).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
  return actions;
}

describe.each(AGENTS)('a fresh start after a stop (%s)', (agent) => {
  it('should let the command run after a successful edit, and ten unrelated calls later, without a warning', async () => {
    const s = session(agent, `${agent}-edit`);
    await untilStopped(s, agent);
    expect((await s.call(editCall(agent, '/home/dev/app/setup.py'))).action).toBe('allow');
    const after = await s.call(build(agent), true);
    expect(after.reply).not.toMatch(/blocked/);
    expect(after.action).toBe('allow');
    for (let i = 0; i < 10; i++) expect((await s.call(readCall(agent, `/home/dev/app/src/part${i}.py`))).action).toBe('allow');
    expect((await s.call(build(agent))).action).toBe('allow');
    // the loop comes back: found again, and it climbs the ladder from its first rung (a warning first)
    const back: LiveAction[] = [];
    for (let i = 0; i < 6; i++) back.push((await s.call(build(agent))).action);
    const first = back.findIndex((a) => a !== 'allow');
    expect(back[first]).toBe('warn');
    expect(back.slice(first)).toContain('deny');
  }, 120_000);

  it('should let the command run after a new prompt from the user', async () => {
    const s = session(agent, `${agent}-prompt`);
    await untilStopped(s, agent);
    expect(await s.prompt()).toBe(''); // nothing printed: on UserPromptSubmit, Claude Code would add it to the prompt
    expect((await s.call(build(agent), true)).action).toBe('allow');
  }, 120_000);

  it('should let the command run after loopwatch hook reset --session', async () => {
    const s = session(agent, `${agent}-reset`);
    await untilStopped(s, agent);
    const r = await hookVerbInProcess(['reset', '--session', `${agent}-reset`, '--state-dir', stateDir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`fresh start  ${agent.padEnd(11)} ${agent}-reset\n`);
    expect((await s.call(build(agent), true)).action).toBe('allow');
  }, 120_000);
});

describe('without a fresh start', () => {
  it('should stop the command again after unrelated calls (the stop is kept until something changes)', async () => {
    const s = session('claude-code', 'no-fresh-start');
    await untilStopped(s, 'claude-code');
    expect((await s.call(readCall('claude-code', '/home/dev/app/README.md'))).action).toBe('allow');
    expect((await s.call(build('claude-code'), true)).action).toBe('stop');
  }, 120_000);

  it('should say so when no session matches hook reset', async () => {
    // a process: reset through the command's own entry (the others run in this one)
    const r = await loopwatchAsync(['hook', 'reset', '--session', 'nobody', '--state-dir', stateDir], '');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`loopwatch hook reset: no session "nobody" in ${stateDir}\n`);
  });
});
