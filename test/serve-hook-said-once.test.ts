/**
 * A warning said once through `loopwatch serve`'s hook routes as through `loopwatch hook` (src/hooks/said-once.ts,
 * the routes' memory src/serve/said-notes.ts): the same session posted to the route and run through the hook
 * gets the same replies said and the same decision log lines (repeats logged as `allow`, `repeat: true`); a new
 * prompt forgets what was said, an ended session's note goes with it, and a restarted server keeps a
 * session's note with its state.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { runHook } from '../src/hooks/hook-run.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { prepareStateDir, readStateFiles, writeStateFile } from '../src/serve/state-files.js';
import { AGENTS, afterPayload, beforePayload, promptPayload, readCall } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A command failing again and again between reads of new files (a loop `frequency` sees grow), `rounds` rounds from round `from`. */
function stream(agent: AgentName, session: string, rounds: number, from = 0): Record<string, unknown>[] {
  const shell: ScriptedCall = { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: 'git add .codex' }, error: 'Permission denied' };
  const out: Record<string, unknown>[] = [];
  for (let i = from; i < from + rounds; i++) {
    for (const [k, c] of [shell, readCall(agent, `/srv/app/f${i}.ts`)].entries()) {
      const id = `toolu_${session}_${2 * i + k}`;
      out.push(beforePayload(agent, session, c, id), afterPayload(agent, session, c, id, 2 * i + k));
    }
  }
  return out;
}

/** The decision log's lines, each its decision (action, kind, repeat) and the event it answered. */
function logged(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { loopwatch: d, hook_event_name: event } = JSON.parse(l) as { loopwatch: { action: string; kind?: string; repeat?: true }; hook_event_name?: string };
      return { event, action: d.action, kind: d.kind, repeat: d.repeat };
    });
}

async function post(server: ServeServer, agent: AgentName, payload: unknown): Promise<string> {
  const res = await fetch(`${server.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  expect(res.status).toBe(200);
  expect(res.headers.get('loopwatch-unchecked')).toBeNull();
  return (await res.text()).trim();
}

/** Which payloads got a reply that says something (by their place in `payloads`), and the reply's loop. */
const saidOf = (replies: readonly string[]): string[] => replies.flatMap((r, i) => (r === '' ? [] : [`${i} ${/\((\w+), confidence [0-9.]+, since call #(\d+)\)/.exec(r)?.slice(1).join(' ') ?? 'block'}`]));

describe.each(AGENTS)('serve hook route and `loopwatch hook` on one session (%s)', (agent) => {
  it('should say the same warnings, keep the same repeats quiet and log them alike, before and after a new prompt', async () => {
    const dir = tempFolder(`serve-said-once-${agent}`);
    const session = `said-${agent}`;
    const payloads = [...stream(agent, session, 6), promptPayload(agent, session), ...stream(agent, session, 3, 6)];
    const hookLog = join(dir, 'hook.jsonl');
    const byHook = payloads.map((p) => runHook(JSON.stringify(p), { agent, stateDir: join(dir, 'state'), log: hookLog }).stdout.trim());
    const serveLog = join(dir, 'serve.jsonl');
    const server = await ServeServer.start({ port: 0, hookLog: serveLog });
    const byServe: string[] = [];
    try {
      for (const p of payloads) byServe.push(await post(server, agent, p));
    } finally {
      await server.stop();
    }
    expect(saidOf(byServe)).toEqual(saidOf(byHook));
    expect(logged(serveLog)).toEqual(logged(hookLog));
    // the stream has repeats to keep quiet
    expect(logged(hookLog).filter((l) => (l as { repeat?: true }).repeat === true).length).toBeGreaterThanOrEqual(2);
  });
});

describe('what serve\'s hook routes said, bounded with the session', () => {
  it('should forget an ended session\'s note, and keep a live one\'s across a restart', async () => {
    const agent = 'claude-code';
    const dir = tempFolder('serve-said-once-restart');
    const stateDir = join(dir, 'state');
    const payloads = stream(agent, 'kept', 3);
    let server = await ServeServer.start({ port: 0, stateDir });
    const before: string[] = [];
    try {
      for (const p of payloads) before.push(await post(server, agent, p));
      for (const p of stream(agent, 'ended', 3)) await post(server, agent, p);
      expect(server.service.said.size).toBe(2);
      await post(server, agent, { ...promptPayload(agent, 'ended'), hook_event_name: 'SessionEnd', reason: 'exit' });
      expect(server.service.said.get('claude-code:ended')).toBeUndefined();
      expect(server.service.said.size).toBe(1);
    } finally {
      await server.stop();
    }
    expect(saidOf(before).length).toBe(1);
    server = await ServeServer.start({ port: 0, stateDir });
    const after: string[] = [];
    try {
      expect(server.service.said.get('claude-code:kept')).toMatchObject({ kind: 'frequency' });
      for (const p of stream(agent, 'kept', 1, 3)) after.push(await post(server, agent, p));
    } finally {
      await server.stop();
    }
    // the loop warned about before the restart goes on: nothing new to say
    expect(saidOf(after)).toEqual([]);
  });
});

describe('a state file\'s note of what was said, read back', () => {
  it('should restore a good note, and set aside a file whose note is not one loopwatch writes', () => {
    const dir = tempFolder('serve-said-note-file');
    prepareStateDir(dir);
    const note = { kind: 'frequency', loopStart: 1, index: 5, action: 'warn', recommended: 'replan' } as const;
    writeStateFile(dir, 'a', new Uint8Array([1, 2, 3]), note);
    writeStateFile(dir, 'b', new Uint8Array([4]));
    const bad = { ...note, action: 'shout' } as unknown as typeof note;
    writeStateFile(dir, 'c', new Uint8Array([5]), bad);
    const read = [...readStateFiles(dir)];
    const of = (id: string) => read.find((f) => 'sessionId' in f && f.sessionId === id);
    expect(of('a')).toMatchObject({ said: note });
    expect([...((of('a') as { snapshot: Uint8Array }).snapshot)]).toEqual([1, 2, 3]);
    expect(of('b')).not.toHaveProperty('said');
    expect(read.filter((f) => 'problem' in f).map((f) => (f as { problem: string }).problem)).toEqual(["its note of what the hook routes said is not one loopwatch writes"]);
  });
});
