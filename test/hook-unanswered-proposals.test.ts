/**
 * A call the agent never ran gets no after-event: a person declined it at the agent's permission prompt,
 * another hook or a permission rule denied it. The hooks' state recorded such a proposal as run (outcome
 * unknown) once it was overdue, so a call declined and proposed again counted as an executed repeat: in
 * Gemini CLI (whose calls are paired by signature) a command declined five times was warned at its third
 * proposal, denied at its fifth and stopped at its sixth as "called 5 times in a row. The results have not
 * changed either" though it never ran; in Claude Code a deploy declined once made its second real run a
 * warned repeat. The agents send an after-event for every call they ran, so the hooks' detectors take a
 * proposal whose outcome never comes as not run (LoopDetector.expectEveryOutcome): forgotten, or counted
 * as blocked when loopwatch had asked about it and the person said no; a record that still comes is a
 * call of its own, with its outcome; the same call proposed again while it waits means it did not run, so
 * it is not taken for a call in flight beside the new one (before, a declined deploy made the next four
 * failing runs of it one turn of parallel calls, never warned). Driven through `loopwatch hook` (a process
 * for every fourth event, the others through the same command in this process, on the same state files),
 * and through `loopwatch serve`'s hook route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { hook, proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('hook-unanswered');
const base = { cwd: '/home/dev/app', transcript_path: '/home/dev/.claude/projects/-home-dev-app/s.jsonl' };

/** Payloads sent so far: the first and every fourth after it go to a hook process, the others to the hook command in this process. */
let sent = 0;

async function send(agent: AgentName, payload: Record<string, unknown>): Promise<string> {
  const run = sent++ % 4 === 0 ? hook : hookInProcess;
  const r = await run(['--agent', agent, '--state-dir', dir], { ...base, ...payload });
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('proposals that never ran, through the hook', () => {
  it('should never count a Gemini CLI command the person declined again and again as run', async () => {
    const call = { session_id: 'gem-declined', tool_name: 'run_shell_command', tool_input: { command: 'git push --force origin main' } };
    const actions: string[] = [];
    for (let i = 0; i < 6; i++) actions.push(proposeAction('gemini', await send('gemini', { ...call, hook_event_name: 'BeforeTool' })));
    expect(actions).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']); // before: allow, allow, warn, warn, deny, stop
    // the person accepts the sixth: it runs once, and is proposed again
    await send('gemini', { ...call, hook_event_name: 'AfterTool', tool_response: { llmContent: 'Output: Everything up-to-date' } });
    expect(proposeAction('gemini', await send('gemini', { ...call, hook_event_name: 'BeforeTool' }))).toBe('allow');
  });

  it('should judge a Claude Code deploy by its runs, not by a proposal the person declined', async () => {
    const session = 'cc-declined';
    const deploy = { session_id: session, tool_name: 'Bash', tool_input: { command: 'npm run deploy' } };
    expect(proposeAction('claude-code', await send('claude-code', { ...deploy, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_d0' }))).toBe('allow');
    // declined: no PostToolUse; the model reads nine files (the declined proposal is then overdue)
    for (let j = 0; j < 9; j++) {
      const read = { session_id: session, tool_name: 'Read', tool_input: { file_path: `/home/dev/app/src/f${j}.ts` }, tool_use_id: `toolu_r${j}` };
      await send('claude-code', { ...read, hook_event_name: 'PreToolUse' });
      await send('claude-code', { ...read, hook_event_name: 'PostToolUse', tool_response: { type: 'text', file: { filePath: read.tool_input.file_path, content: `export const x${j} = ${j};` } } });
    }
    const actions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = `toolu_a${i}`;
      const action = proposeAction('claude-code', await send('claude-code', { ...deploy, hook_event_name: 'PreToolUse', tool_use_id: id }));
      actions.push(action);
      if (action === 'deny' || action === 'stop') continue;
      await send('claude-code', { ...deploy, hook_event_name: 'PostToolUse', tool_use_id: id, tool_response: { stdout: 'Error: not logged in', stderr: '', interrupted: false, isImage: false } });
    }
    expect(actions).toEqual(['allow', 'allow', 'warn', 'deny']); // before: allow, warn, warn, deny (the declined one counted as a run)
  });

  it('should not take a declined Claude Code proposal for a call in flight beside the same call run again', async () => {
    const session = 'cc-declined-inflight';
    const deploy = { session_id: session, tool_name: 'Bash', tool_input: { command: 'npm run deploy' } };
    expect(proposeAction('claude-code', await send('claude-code', { ...deploy, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_d0' }))).toBe('allow');
    await send('claude-code', { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'ok, deploy it' });
    const actions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = `toolu_a${i}`;
      const action = proposeAction('claude-code', await send('claude-code', { ...deploy, hook_event_name: 'PreToolUse', tool_use_id: id }));
      actions.push(action);
      if (action === 'deny' || action === 'stop') continue;
      await send('claude-code', { ...deploy, hook_event_name: 'PostToolUse', tool_use_id: id, tool_response: { stdout: 'Error: not logged in', stderr: '', interrupted: false, isImage: false } });
    }
    // before: allow x4, the runs taken for calls in flight beside the declined one (one turn, not repeats)
    expect(actions).toEqual(['allow', 'allow', 'warn', 'deny']);
  });
});

describe('proposals that never ran, through loopwatch serve\'s hook route', () => {
  let server: ServeServer;
  beforeAll(async () => {
    server = await ServeServer.start({ port: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('should never count a Gemini CLI command the person declined again and again as run', async () => {
    const call = { ...base, session_id: 'gem-declined-serve', tool_name: 'run_shell_command', tool_input: { command: 'git push --force origin main' } };
    const actions: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/v1/hooks/gemini`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...call, hook_event_name: 'BeforeTool' }) });
      actions.push(proposeAction('gemini', await res.text()));
    }
    expect(actions).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });
});

describe('LoopDetector.expectEveryOutcome', () => {
  const call = (i: number) => ({ id: `c${i}`, tool: 'bash', args: { command: 'make release' } });

  it('should take an ask the person declined as blocked', () => {
    const d = new LoopDetector({ policy: { ladder: ['ask'] } });
    d.expectEveryOutcome();
    let i = 0;
    const asked: string[] = [];
    for (; i < 6; i++) {
      const p = d.propose(call(i));
      asked.push(p.action);
      if (p.action === 'ask') break;
      d.record({ ...call(i), result: 'make: *** [release] Error 1' });
    }
    expect(asked.at(-1)).toBe('ask');
    // declined: no record; nine other calls later it is overdue, and the same call proposed again is blocked
    for (let j = 0; j < 9; j++) {
      d.propose({ id: `o${j}`, tool: 'read', args: { path: `f${j}` } });
      d.record({ id: `o${j}`, tool: 'read', args: { path: `f${j}` }, result: `text ${j}` });
    }
    expect(['deny', 'stop']).toContain(d.propose(call(++i)).action); // before: ask again (the declined one counted as run)
    d.dispose();
  });

  it('should record a call whose record comes after its proposal was overdue, with its outcome', () => {
    const late = new LoopDetector();
    late.expectEveryOutcome();
    late.propose(call(0));
    for (let j = 0; j < 9; j++) late.propose({ id: `o${j}`, tool: 'read', args: { path: `f${j}` } });
    const checks = late.stats().checks;
    const r = late.record({ ...call(0), result: 'done' });
    expect(r.late).toBeUndefined(); // before: a late record, its outcome dropped
    expect(late.stats().checks).toBe(checks + 1);
    late.dispose();
  });
});
