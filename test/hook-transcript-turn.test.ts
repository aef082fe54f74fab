/**
 * A call's model turn, read by the hook from the agent's transcript (src/hooks/transcript-turn.ts). Hook
 * payloads carry no model turn, so the same-turn rule (a call of the turn of the latest verdict's call is
 * warned about at most) and the counting of repetitions in turns worked in `eval` only: through the Claude
 * Code hook, holdout 2fc63785's subagent (`git log` and `git status` sent together, three turns running,
 * "not a git repository" each time) was warned two calls earlier than eval said (a dead end of three
 * errors in two turns) and denied at its third `git log`, a call of the turn that got the warning. Read from
 * the transcript's tail (Claude Code: the `message.id` of the call's `tool_use`; Codex: the run of
 * assistant items between tool outputs), the hook decides as eval does. The hook in process (runHook) and
 * built (it runs the WebAssembly engine: snapshots need it); the turns it reads, two-phase, on both engines.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hook-run.js';
import { TURN_LOOK, claudeCodeTurn, codexTurn } from '../src/hooks/transcript-turn.js';
import { hook } from './helpers/hook-payloads.js';
import { ERROR, TURNS, line, replay, toolResult, toolUse } from './helpers/transcript-turns.js';
import { tempFolder } from './helpers/temp-folder.js';
import { ENGINES, type Engine, liveActions } from './helpers/verdicts.js';
import type { ToolEvent } from '../src/index.js';

describe('the turn of a Claude Code call, from its transcript', () => {
  const dir = tempFolder('transcript-turn');
  const path = join(dir, 's.jsonl');
  writeFileSync(path, toolUse('msg_1', 'toolu_a', 'git log') + toolUse('msg_1', 'toolu_b', 'git status') + toolResult('toolu_a', 'fatal') + toolResult('toolu_b', 'fatal') + toolUse('msg_2', 'toolu_c', 'git log'));
  const turn = (id: string, more: Record<string, unknown> = {}): number | undefined => claudeCodeTurn({ transcript_path: path, tool_use_id: id, ...more });

  it("should be the same for the tool_use blocks of one answer, another for the next answer's", () => {
    expect(turn('toolu_a')).toBeTypeOf('number');
    expect(turn('toolu_a')).toBe(turn('toolu_b'));
    expect(turn('toolu_c')).not.toBe(turn('toolu_a'));
  });

  it('should be read from a subagent\'s own transcript, beside the session\'s', () => {
    mkdirSync(join(dir, 's', 'subagents'), { recursive: true });
    writeFileSync(join(dir, 's', 'subagents', 'agent-a54f67e.jsonl'), toolUse('msg_9', 'toolu_s', 'ls'));
    expect(turn('toolu_s', { agent_id: 'a54f67e' })).toBeTypeOf('number');
    expect(turn('toolu_s', { agent_id: 'a54f67e' })).not.toBe(turn('toolu_a'));
    expect(turn('toolu_s')).toBeUndefined();
    expect(turn('toolu_s', { agent_id: '../x' })).toBeUndefined();
    // before 2.1: in the project's folder, beside the session's
    writeFileSync(join(dir, 'agent-b1.jsonl'), toolUse('msg_8', 'toolu_o', 'ls'));
    expect(turn('toolu_o', { agent_id: 'b1' })).toBeTypeOf('number');
  });

  it('should be unknown for a call not in the tail read, or no transcript', () => {
    expect(turn('toolu_z')).toBeUndefined();
    expect(claudeCodeTurn({ transcript_path: '/nonexistent/s.jsonl', tool_use_id: 'toolu_a' })).toBeUndefined();
    expect(claudeCodeTurn({ transcript_path: 'relative/s.jsonl', tool_use_id: 'toolu_a' })).toBeUndefined();
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, toolUse('msg_1', 'toolu_old', 'ls') + toolResult('toolu_x', 'x'.repeat(TURN_LOOK)) + toolUse('msg_2', 'toolu_new', 'ls'));
    expect(claudeCodeTurn({ transcript_path: long, tool_use_id: 'toolu_old' })).toBeUndefined();
    expect(claudeCodeTurn({ transcript_path: long, tool_use_id: 'toolu_new' })).toBeTypeOf('number');
  });
});

describe('the turn of a Codex call, from its rollout', () => {
  const dir = tempFolder('transcript-turn-codex');
  const item = (payload: unknown): string => line({ timestamp: 't', type: 'response_item', payload });
  const call = (id: string): string => item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: id });
  const output = (id: string): string => item({ type: 'function_call_output', call_id: id, output: 'ok' });
  const path = join(dir, 'rollout.jsonl');
  writeFileSync(
    path,
    line({ type: 'session_meta', payload: { id: 's' } }) +
      item({ type: 'message', role: 'user', content: [] }) +
      item({ type: 'reasoning', summary: [] }) +
      call('c1') +
      line({ type: 'event_msg', payload: { type: 'exec_command_begin' } }) +
      call('c2') +
      output('c1') +
      output('c2') +
      call('c3'),
  );
  const turn = (id: string, p = path): number | undefined => codexTurn({ transcript_path: p, tool_use_id: id, turn_id: 'user-turn-1' });

  it('should be the same for the calls of one model answer, another after their outputs', () => {
    expect(turn('c1')).toBeTypeOf('number');
    expect(turn('c2')).toBe(turn('c1'));
    expect(turn('c3')).not.toBe(turn('c1'));
    expect(turn('c9')).toBeUndefined();
  });

  it('should read a 2025 rollout, its items bare (no envelope), the same way', () => {
    const bare = join(dir, 'bare.jsonl');
    const strip = (l: string): string => line((JSON.parse(l) as { payload: unknown }).payload);
    writeFileSync(bare, line({ id: 's', timestamp: 't', instructions: '' }) + strip(call('b1')) + line({ record_type: 'state' }) + strip(call('b2')) + strip(output('b1')) + strip(output('b2')) + strip(call('b3')));
    expect(turn('b1', bare)).toBeTypeOf('number');
    expect(turn('b2', bare)).toBe(turn('b1', bare));
    expect(turn('b3', bare)).not.toBe(turn('b1', bare));
  });

  it('should be unknown when the turn begins before the tail read', () => {
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, output('c0') + item({ type: 'reasoning', summary: [{ text: 'x'.repeat(TURN_LOOK) }] }) + call('c1'));
    expect(turn('c1', long)).toBeUndefined();
    appendFileSync(long, output('c1') + call('c2'));
    expect(turn('c2', long)).toBeTypeOf('number');
  });
});

describe('git log and git status failing together three turns running, through the hook', () => {
  const inProcess = (dir: string) => async (payload: unknown): Promise<string> => runHook(JSON.stringify(payload), { agent: 'claude-code', stateDir: join(dir, 'state') }).stdout;

  it('should warn about the third turn, and deny none of its calls, the turns read from the transcript', async () => {
    const dir = tempFolder('transcript-turn-hook');
    const actions = await replay(dir, true, inProcess(dir));
    // the turn's second call: the same kind about the same loop, said once (src/hooks/said-once.ts)
    expect(actions.slice(8, 10)).toEqual(['warn', 'allow']);
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });

  it('should deny the third turn without the transcript (no turn known: each call its own)', async () => {
    const dir = tempFolder('transcript-turn-hook');
    expect(await replay(dir, false, inProcess(dir))).toContain('deny');
  });

  it('should be the built hook\'s answers too', async () => {
    const dir = tempFolder('transcript-turn-cli');
    const actions = await replay(dir, true, async (payload) => (await hook(['--agent', 'claude-code', '--state-dir', join(dir, 'state')], payload)).stdout);
    expect(actions.slice(8, 10)).toEqual(['warn', 'allow']);
    expect(actions).not.toContain('deny');
  }, 60_000);
});

/** The session's calls as the hook decodes them, each with the turn the hook reads from the transcript once written. */
function hookEvents(): ToolEvent[] {
  const dir = tempFolder('transcript-turn-events');
  const transcript = join(dir, 's.jsonl');
  const events: ToolEvent[] = [];
  let n = 0;
  for (const [t, calls] of TURNS.entries()) {
    for (const [command, output] of calls) {
      const id = `toolu_${n++}`;
      appendFileSync(transcript, toolUse(`msg_${t}`, id, command));
      const round = claudeCodeTurn({ transcript_path: transcript, tool_use_id: id });
      events.push({ tool: 'Bash', args: { command }, ...(output === null ? { error: ERROR } : { result: output }), round });
    }
  }
  return events;
}

/** Labelled two-phase actions of `events`, each call's round given at its proposal (as the hook does). */
const twoPhase = (events: readonly ToolEvent[], engine: Engine): string[] =>
  liveActions(events, engine, { labelled: true, roundAtProposal: true });

describe.each(ENGINES)('the turns the hook reads, two-phase (%s engine)', (engine) => {
  it('should break no call of the turn the warning was given in', () => {
    const actions = twoPhase(hookEvents(), engine);
    expect(actions.filter((a) => a.endsWith('break') || a.endsWith('deny') || a.endsWith('stop'))).toEqual([]);
    expect(actions).toContain('P8:warn');
  });

  it('should break it with no turns known', () => {
    const actions = twoPhase(hookEvents().map(({ round: _, ...e }) => e), engine);
    expect(actions.some((a) => a.endsWith(':deny'))).toBe(true);
  });
});
