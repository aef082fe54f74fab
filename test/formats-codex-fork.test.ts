/**
 * Codex 0.107+ subagents spawned with `fork_context`: the child's rollout opens with its own `session_meta`
 * (`forked_from_id`), then its parent's rollout copied verbatim, then a synthetic output answering the
 * parent's `spawn_agent` call ("You are the newly spawned agent. ..."), then its own turns (seen in
 * holdout7: Codex 0.118 `$team` explorers). The reader read the copied calls as the child's own: every
 * forked child began by replaying its parent's work. The copy is now passed over; a fork whose copy never
 * ends (no such output) is read as before.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-codex-fork');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const at = '2026-04-04T02:15:53.623Z';
const meta = (payload: object) => ({ timestamp: at, type: 'session_meta', payload: { cwd: '/app', originator: 'codex-tui', cli_version: '0.118.0', ...payload } });
const item = (payload: object) => ({ timestamp: at, type: 'response_item', payload });
const event = (type: string) => ({ timestamp: at, type: 'event_msg', payload: { type } });
const call = (call_id: string, name: string, args: object) => item({ type: 'function_call', name, arguments: JSON.stringify(args), call_id });
const output = (call_id: string, out: string) => item({ type: 'function_call_output', call_id, output: out });
const forkOutput = (call_id: string) => output(call_id, 'You are the newly spawned agent. The prior conversation history was forked from your parent agent. Treat the next user message as your new task, and use the forked history only as background context.');
const child = (id: string, parent: string) => meta({ id, forked_from_id: parent, source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_nickname: 'Cicero', agent_role: 'explorer' } } } });
const userTurn = (text: string) => [event('task_started'), item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })];
const calls = async (file: string) => {
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.filter((i): i is TraceCall => i.kind === 'call').map((c) => [c.session, c.event.tool, c.event.args]);
};

describe('Codex subagents forked with their parent context', () => {
  it("should pass over the parent's copied history and read the child's own calls", async () => {
    const file = write('rollout-2026-04-04T09-05-28-child.jsonl', jsonl([
      child('child-1', 'parent-1'),
      meta({ id: 'parent-1', source: 'cli' }),
      ...userTurn('build the component library'),
      call('p1', 'shell_command', { command: 'ls src' }),
      output('p1', 'app\ncomponents'),
      call('p2', 'shell_command', { command: 'ls src' }),
      output('p2', 'app\ncomponents'),
      call('spawn', 'spawn_agent', { agent_type: 'explorer', fork_context: true, message: 'map the student flow' }),
      forkOutput('spawn'),
      ...userTurn('map the student flow'),
      call('c1', 'shell_command', { command: 'rg --files src/app' }),
      output('c1', 'src/app/page.tsx'),
    ]));
    expect(await calls(file)).toEqual([['child-1', 'shell_command', { command: 'rg --files src/app' }]]);
  });

  it("should pass over a grandparent's copy inside the parent's, up to the child's own fork output", async () => {
    const file = write('rollout-grandchild.jsonl', jsonl([
      child('child-2', 'parent-2'),
      child('parent-2', 'root-2'),
      meta({ id: 'root-2', source: 'cli' }),
      call('r1', 'shell_command', { command: 'git status' }),
      output('r1', 'clean'),
      call('spawn-1', 'spawn_agent', { fork_context: true, message: 'explore' }),
      forkOutput('spawn-1'),
      call('q1', 'shell_command', { command: 'cat README.md' }),
      output('q1', '# app'),
      call('spawn-2', 'spawn_agent', { fork_context: true, message: 'check tests' }),
      forkOutput('spawn-2'),
      call('c1', 'shell_command', { command: 'npm test' }),
      output('c1', 'ok'),
    ]));
    expect(await calls(file)).toEqual([['child-2', 'shell_command', { command: 'npm test' }]]);
  });

  it('should read every call of a forked rollout whose copy never ends, as before', async () => {
    const file = write('rollout-user-fork.jsonl', jsonl([
      meta({ id: 'fork-3', forked_from_id: 'parent-3', source: 'cli' }),
      meta({ id: 'parent-3', source: 'cli' }),
      call('a', 'shell_command', { command: 'ls' }),
      output('a', 'x'),
      call('b', 'shell_command', { command: 'pwd' }),
      output('b', '/app'),
    ]));
    expect(await calls(file)).toEqual([
      ['fork-3', 'shell_command', { command: 'ls' }],
      ['fork-3', 'shell_command', { command: 'pwd' }],
    ]);
  });

  it('should read a rollout that is not forked as it is', async () => {
    const file = write('rollout-parent.jsonl', jsonl([
      meta({ id: 'parent-4', source: 'cli' }),
      call('p1', 'spawn_agent', { fork_context: true, message: 'explore' }),
      output('p1', '{"agent_id":"child","nickname":"Cicero"}'),
      call('p2', 'shell_command', { command: 'ls' }),
      output('p2', 'x'),
    ]));
    expect((await calls(file)).map((c) => c[1])).toEqual(['spawn_agent', 'shell_command']);
  });
});
