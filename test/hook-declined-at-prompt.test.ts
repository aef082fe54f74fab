/**
 * A call a person declines at the agent's own permission prompt sends no hook event (Claude Code's
 * PermissionDenied fires for auto mode's classifier only; anthropics/claude-code issues 37153, 94791): the
 * agent's turn ends and the person's next prompt (UserPromptSubmit, Codex's too, Gemini CLI's BeforeAgent) is
 * the next event. The hook kept such a proposal in flight past that prompt: when loopwatch had asked about
 * it (`ask`), the person said no and then asked for it again ("ok, run it"), the same call proposed again
 * took the waiting one as declined *after* the fresh start, so it was blocked, and the hook stopped the run.
 * A new prompt comes between the agent's turns: the proposals still waiting did not run, and are taken so
 * before the fresh start (LoopDetector.freshStart with expectEveryOutcome). Through the built `loopwatch
 * hook`, one process per event, and through `loopwatch serve`'s hook route.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { processesFirst, proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('hook-declined-prompt');
const config = join(dir, 'ask.json');

writeFileSync(config, JSON.stringify({ policy: { ladder: ['ask'] } }));
const base = { cwd: '/home/dev/app', transcript_path: '/home/dev/.claude/projects/-home-dev-app/none.jsonl' };
const release = { tool_name: 'Bash', tool_input: { command: 'make release' } };
const failed = { stdout: 'make: *** [release] Error 1', stderr: '', interrupted: false, isImage: false };

type Send = (payload: Record<string, unknown>) => Promise<string>;

/** make release fails twice, is asked about, declined at the prompt (no event), then asked for again. */
async function declinedThenAskedAgain(send: Send, session: string): Promise<string[]> {
  const actions: string[] = [];
  for (let i = 0; i < 3; i++) {
    const action = proposeAction('claude-code', await send({ ...release, session_id: session, hook_event_name: 'PreToolUse', tool_use_id: `toolu_${i}` }));
    actions.push(action);
    if (action !== 'allow') break;
    await send({ ...release, session_id: session, hook_event_name: 'PostToolUse', tool_use_id: `toolu_${i}`, tool_response: failed });
  }
  // the person says no at Claude Code's prompt: nothing is sent; then a new prompt
  await send({ session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'I logged in; run it once more' });
  actions.push(proposeAction('claude-code', await send({ ...release, session_id: session, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_9' })));
  return actions;
}

describe('a call declined at the agent\'s own prompt, then a new prompt', () => {
  it('should judge the call asked for again afresh, through the hook', async () => {
    const run = processesFirst(1); // the first hook call a process, the rest in this process on the same state
    const send: Send = async (p) => {
      const r = await run(['--agent', 'claude-code', '--state-dir', dir, '--config', config], { ...base, ...p });
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    // before: ['allow', 'allow', 'ask', 'stop'] ("was blocked once and is proposed again")
    expect(await declinedThenAskedAgain(send, 'cc-declined-prompt')).toEqual(['allow', 'allow', 'ask', 'allow']);
  });

  it('should do the same for Gemini CLI (BeforeAgent) and Codex (UserPromptSubmit)', async () => {
    for (const agent of ['gemini', 'codex'] as AgentName[]) {
      const session = `${agent}-declined-prompt`;
      const shell = agent === 'gemini' ? { tool_name: 'run_shell_command', tool_input: { command: 'make release' } } : { tool_name: 'Bash', tool_input: { command: 'make release' } };
      const result = agent === 'gemini' ? { llmContent: 'Output: make: *** [release] Error 1\nExit Code: 2' } : 'Exit code: 2\nWall time: 0.1 seconds\nOutput:\nmake: *** [release] Error 1\n';
      const before = agent === 'gemini' ? 'BeforeTool' : 'PreToolUse';
      const run = processesFirst(1); // each agent's first hook call a process, the rest in this process
      const send = async (p: Record<string, unknown>) => {
        const r = await run(['--agent', agent, '--state-dir', dir, '--config', config], { ...base, session_id: session, ...(agent === 'codex' ? { turn_id: 't1', model: 'gpt-5' } : {}), ...p });
        expect(r.stderr).toBe('');
        return proposeAction(agent, r.stdout);
      };
      const actions: string[] = [];
      for (let i = 0; i < 3; i++) {
        const action = await send({ ...shell, hook_event_name: before, ...(agent === 'codex' ? { tool_use_id: `call_${i}` } : {}) });
        actions.push(action);
        if (action !== 'allow') break;
        await send({ ...shell, hook_event_name: agent === 'gemini' ? 'AfterTool' : 'PostToolUse', tool_response: result, ...(agent === 'codex' ? { tool_use_id: `call_${i}` } : {}) });
      }
      await send({ hook_event_name: agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit', prompt: 'I logged in; run it once more' });
      actions.push(await send({ ...shell, hook_event_name: before, ...(agent === 'codex' ? { tool_use_id: 'call_9' } : {}) }));
      // Codex has no ask from a hook: a warning with a systemMessage, read as 'ask' here
      expect(actions, agent).toEqual(['allow', 'allow', 'ask', 'allow']);
    }
  });
});

describe('the same through loopwatch serve\'s hook route', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0, engine: { policy: { ladder: ['ask'] } } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('should judge the call asked for again afresh', async () => {
    const send: Send = async (p) => {
      const res = await fetch(`${server.url}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...base, ...p }) });
      return res.text();
    };
    expect(await declinedThenAskedAgain(send, 'cc-declined-prompt-serve')).toEqual(['allow', 'allow', 'ask', 'allow']);
  });
});

describe('LoopDetector.freshStart with expectEveryOutcome', () => {
  const call = (i: number) => ({ id: `c${i}`, tool: 'bash', args: { command: 'make release' } });

  it('should take the proposals still waiting as not run, and a record that still comes as a call of its own', () => {
    const d = new LoopDetector({ policy: { ladder: ['ask'] } });
    d.expectEveryOutcome();
    expect(d.propose(call(0)).action).toBe('allow');
    d.freshStart();
    // the record of c0 still comes (the prompt came while it ran): recorded, not lost
    d.record({ ...call(0), result: 'ok' });
    expect(d.stats().checks).toBe(1);
  });

  it('should keep the proposals waiting for a host that does not record every run', () => {
    const d = new LoopDetector({ policy: { ladder: ['ask'] } });
    const acts: string[] = [];
    let i = 0;
    for (; i < 3; i++) {
      const p = d.propose(call(i));
      acts.push(p.action);
      if (p.action === 'ask') break;
      d.record({ ...call(i), result: 'make: *** [release] Error 1' });
    }
    expect(acts).toEqual(['allow', 'allow', 'ask']);
    d.freshStart();
    d.record({ ...call(i), result: 'make: *** [release] Error 1' });
    expect(d.stats().checks).toBe(3);
  });
});
