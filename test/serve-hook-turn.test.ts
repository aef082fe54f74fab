/**
 * `loopwatch serve`'s hook routes read a call's model turn from the agent's transcript, as `loopwatch hook`
 * does (src/hooks/hook-turn.ts, one function for both): before, the routes took every call as its own turn,
 * so holdout 2fc63785's subagent (`git log` and `git status` sent together three turns running, failing each
 * time) was denied through serve at a call of the turn that got the warning, where the hook warned. A path
 * serve cannot read (serve on another machine than the agent) gives no turn, as before; a client cannot make
 * serve read anything but a `.jsonl` regular file's bounded tail.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeServer } from '../src/serve/serve-server.js';
import { proposeAction } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';
import { line, replay } from './helpers/transcript-turns.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

let sessions = 0;
/** A sender of one session's payloads to serve's route of `agent` (its session id made unique per replay). */
function post(agent: string): (payload: unknown) => Promise<string> {
  const session = `turn-${++sessions}`;
  return async (payload) => {
    const body = JSON.stringify({ ...(payload as Record<string, unknown>), session_id: session });
    const res = await fetch(`${server.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.headers.get('loopwatch-unchecked')).toBeNull();
    return res.text();
  };
}

describe('serve reads a Claude Code call\'s turn from its transcript', () => {
  it('should warn about the third turn and deny none of its calls, as the hook does', async () => {
    const actions = await replay(tempFolder('serve-turn'), true, post('claude-code'));
    // the turn's second call: the same kind about the same loop, said once as the hook says it (src/hooks/said-once.ts)
    expect(actions.slice(8, 10)).toEqual(['warn', 'allow']);
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });

  it('should decide as before when the transcript is not there (serve on another machine)', async () => {
    expect(await replay(tempFolder('serve-turn'), false, post('claude-code'))).toContain('deny');
  });
});

describe('serve reads a Codex call\'s turn from its rollout', () => {
  it('should take the calls of one model answer as one turn', async () => {
    const dir = tempFolder('serve-turn-codex');
    const rollout = join(dir, 'rollout-2026-12-05T16-00-00-s.jsonl');
    const item = (payload: unknown): string => line({ timestamp: 't', type: 'response_item', payload });
    const call = (id: string, command: string): string => item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }), call_id: id });
    const output = (id: string): string => item({ type: 'function_call_output', call_id: id, output: 'fatal: not a git repository' });
    writeFileSync(rollout, line({ type: 'session_meta', payload: { id: 's', cli_version: '0.130.0' } }));
    const send = post('codex');
    const actions: string[] = [];
    let n = 0;
    for (let t = 0; t < 3; t++) {
      const ids = [`call_${n++}`, `call_${n++}`];
      const commands = ['git log --oneline', 'git status'];
      appendFileSync(rollout, call(ids[0] as string, commands[0] as string) + call(ids[1] as string, commands[1] as string));
      for (const [k, id] of ids.entries()) {
        const base = { session_id: 's', transcript_path: rollout, cwd: '/repo', model: 'gpt-5', turn_id: 'u1', tool_name: 'Bash', tool_input: { command: commands[k] }, tool_use_id: id };
        const action = proposeAction('codex', await send({ ...base, hook_event_name: 'PreToolUse' }));
        actions.push(action);
        if (action === 'deny' || action === 'stop') continue;
        await send({ ...base, hook_event_name: 'PostToolUse', tool_response: 'Exit code: 128\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository\n' });
      }
      appendFileSync(rollout, output(ids[0] as string) + output(ids[1] as string));
    }
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });
});

describe('what a client can make serve read', () => {
  it('should read no file whose name is not a transcript\'s (.jsonl), even one holding the calls', async () => {
    const dir = tempFolder('serve-turn-path');
    // the holdout's transcript written as s.jsonl, the payloads naming a link to it under another name
    const link = join(dir, 'notes.txt');
    symlinkSync(join(dir, 's.jsonl'), link);
    const send = post('claude-code');
    const actions = await replay(dir, true, (payload) => send({ ...(payload as Record<string, unknown>), transcript_path: link }));
    expect(actions).toContain('deny'); // no turn read: each call its own, as before
  });

  it('should answer without a turn, at once, for a FIFO, a folder, a relative path', async () => {
    const dir = tempFolder('serve-turn-fifo');
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    for (const transcript_path of [fifo, dir + '/', 'relative/s.jsonl', join(dir, 'missing.jsonl')]) {
      const send = post('claude-code');
      const body = await send({ hook_event_name: 'PreToolUse', session_id: 's', transcript_path, cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' });
      expect(proposeAction('claude-code', body)).toBe('allow');
    }
  });
});
