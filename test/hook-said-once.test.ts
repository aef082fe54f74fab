/**
 * A warning said once (src/hooks/said-once.ts): the hook keeps what it last said to a session about a loop
 * and stays quiet when a verdict would say nothing new; a new kind, a new loop or a step up (a stronger
 * action or recommendation) speaks, and a block is always given. Over the readable sets' Codex sessions,
 * 27 of the hook's 114 warnings repeated the session's previous one (docs/evaluation.md, quiet40).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentName } from '../src/hooks/hook-agent.js';
import { runHook } from '../src/hooks/hook-run.js';
import { type SaidNote, repeatsSaid, speak } from '../src/hooks/said-once.js';
import { liveDecision } from '../src/live/live-call.js';
import type { LiveAction, LoopAction, Recommendation, Verdict } from '../src/types.js';
import { tempFolder } from './helpers/temp-folder.js';

const verdict = (kind: string, loopStart: number, index: number, action: LoopAction = 'warn', recommended: Recommendation = 'replan'): Verdict => ({ kind, loopStart, index, action, recommended, message: `${kind} since ${loopStart}` }) as unknown as Verdict;
const note = (kind: string, loopStart: number, index: number, action: LoopAction = 'warn', recommended: Recommendation = 'replan'): SaidNote => ({ kind, loopStart, index, action, recommended });
const decision = (v: Verdict, action: LiveAction = 'warn') => liveDecision('s', 'propose', 'call_1', action, v);

describe('what the hook last said, and a verdict that repeats it', () => {
  it('should take the same kind about the same loop, no stronger, for a repeat', () => {
    expect(repeatsSaid(note('frequency', 1, 5), verdict('frequency', 1, 7))).toBe(true);
    // a window's loop start moving on within the loop warned about is the same loop
    expect(repeatsSaid(note('frequency', 1, 5), verdict('frequency', 3, 9))).toBe(true);
  });

  it('should not take a new kind, a loop begun after the call warned about, or a step up for a repeat', () => {
    expect(repeatsSaid(undefined, verdict('frequency', 1, 7))).toBe(false);
    expect(repeatsSaid(note('frequency', 1, 5), verdict('dead_end', 1, 7))).toBe(false);
    expect(repeatsSaid(note('frequency', 1, 5), verdict('frequency', 6, 9))).toBe(false);
    expect(repeatsSaid(note('frequency', 1, 5), verdict('frequency', 1, 9, 'ask'))).toBe(false);
    expect(repeatsSaid(note('dead_end', 1, 5, 'warn', 'backtrack'), verdict('dead_end', 1, 9, 'warn', 'escalate'))).toBe(false);
    expect(repeatsSaid(note('dead_end', 1, 5, 'ask', 'escalate'), verdict('dead_end', 1, 9, 'warn', 'backtrack'))).toBe(true);
    // the call warned about, after it ran: where Gemini CLI's model reads what its person was shown before
    expect(repeatsSaid(note('frequency', 1, 5), verdict('frequency', 1, 5))).toBe(false);
  });

  it('should keep a repeat quiet, always give a block, and note only what the reply says', () => {
    const last = note('frequency', 1, 5);
    const quiet = speak(decision(verdict('frequency', 1, 7)), last, () => true);
    expect(quiet.decision).toMatchObject({ action: 'allow', verdict: null });
    expect(quiet.repeat?.kind).toBe('frequency');
    expect(quiet.said).toBe(last);
    const deny = speak(decision(verdict('frequency', 1, 7, 'break'), 'deny'), note('frequency', 1, 5, 'break'), () => true);
    expect(deny.decision.action).toBe('deny');
    // a warning the agent's version cannot take before the call is not said: still to be said after it
    expect(speak(decision(verdict('dead_end', 1, 7)), last, () => false)).toMatchObject({ said: last, decision: { action: 'warn' } });
    expect(speak(decision(verdict('dead_end', 1, 7)), last, () => true).said).toMatchObject({ kind: 'dead_end', index: 7 });
  });
});

/** One agent's payloads for a call and its result (`n` its number), and for a new prompt. */
function payloads(agent: AgentName, n: number, tool: 'shell' | 'read', i: number): [Record<string, unknown>, Record<string, unknown>] {
  const ids = { session_id: 'sess-said-once', transcript_path: '/nonexistent/t.jsonl', cwd: '/nonexistent/p' };
  if (agent === 'gemini') {
    const [name, input, out] = tool === 'shell' ? ['run_shell_command', { command: 'git add .codex' }, 'Permission denied'] : ['read_file', { absolute_path: `/p/f${i}.ts` }, `content ${i}`];
    return [{ ...ids, hook_event_name: 'BeforeTool', timestamp: 't', tool_name: name, tool_input: input }, { ...ids, hook_event_name: 'AfterTool', timestamp: 't', tool_name: name, tool_input: input, tool_response: { llmContent: out, returnDisplay: out } }];
  }
  const [name, input, out] = tool === 'shell' ? ['Bash', { command: 'git add .codex' }, 'Permission denied'] : ['Read', { file_path: `/p/f${i}.ts` }, `content ${i}`];
  const base = { ...ids, permission_mode: 'default', tool_name: name, tool_input: input, tool_use_id: `toolu_${n}` };
  return [{ ...base, hook_event_name: 'PreToolUse' }, { ...base, hook_event_name: 'PostToolUse', tool_response: name === 'Bash' ? { stdout: out, stderr: '', interrupted: false, isImage: false } : out }];
}

const PROMPT: Record<AgentName, string> = { 'claude-code': 'UserPromptSubmit', codex: 'UserPromptSubmit', gemini: 'BeforeAgent' };

/**
 * A command run again and again between reads of new files (a loop `frequency` sees grow: "called 3 times in
 * the last 5 calls", 4 in 7, ...), `rounds` times; the replies said (non-empty) and the decision log's lines.
 */
function walk(agent: AgentName, rounds: number, dir: string, from = 0): { said: string[]; log: Record<string, unknown>[] } {
  const log = join(dir, 'decisions.jsonl');
  const options = { agent, stateDir: join(dir, 'state'), log };
  const said: string[] = [];
  for (let i = from; i < from + rounds; i++) {
    for (const [k, tool] of (['shell', 'read'] as const).entries()) {
      for (const p of payloads(agent, 2 * i + k + 1, tool, i)) {
        const out = runHook(JSON.stringify(p), options).stdout;
        if (out !== '') said.push(out);
      }
    }
  }
  return { said, log: readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const loopOf = (reply: string): string => /\((\w+), confidence [0-9.]+, since call #(\d+)\)/.exec(reply)?.slice(1).join(' ') ?? reply;

describe.each(['claude-code', 'gemini'] as const)('the %s hook on a loop it keeps warning about', (agent) => {
  it('should say the warning once, then only what is new, and still block the loop', () => {
    const { said, log } = walk(agent, 6, tempFolder(`said-once-${agent}`));
    const warnings = said.filter((s) => !/deny|"continue":false|"decision":"block"/.test(s));
    // five verdicts of one kind about one loop before the block (calls 5, 7, 9, 11 and 13): one said (Gemini
    // CLI shows it to the person before the call, and its model reads it with the call's result)
    expect(warnings.map(loopOf)).toEqual(agent === 'gemini' ? ['frequency 1', 'frequency 1'] : ['frequency 1']);
    const repeats = log.filter((l) => (l.loopwatch as { repeat?: true }).repeat === true);
    expect(repeats.length).toBeGreaterThanOrEqual(3);
    for (const r of repeats) expect(r.loopwatch).toMatchObject({ action: 'allow', kind: 'frequency' });
  });

  it('should still block the loop, and say a warning again after a new prompt', () => {
    const dir = tempFolder(`said-once-${agent}-prompt`);
    const first = walk(agent, 9, dir);
    expect(first.said.some((s) => /deny|"continue":false|"decision":"block"/.test(s))).toBe(true);
    runHook(JSON.stringify({ session_id: 'sess-said-once', transcript_path: '/nonexistent/t.jsonl', cwd: '/nonexistent/p', hook_event_name: PROMPT[agent], timestamp: 't', permission_mode: 'default', prompt: 'try the other folder' }), { agent, stateDir: join(dir, 'state') });
    const again = walk(agent, 3, dir, 9);
    const once = [expect.stringMatching(/^frequency /)];
    expect(again.said.map(loopOf)).toEqual(agent === 'gemini' ? [...once, ...once] : once);
  });
});
