/**
 * Interactive sessions with the person's prompts in them, written as Claude Code transcripts, Codex CLI
 * rollouts, Gemini CLI chats and hook payload logs: a list of turns, each a typed prompt and the calls the agent made for it.
 * The readers mark the first call after each prompt (TraceCall.prompted); scan and eval give the session a
 * fresh start there, as the agents' hooks do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonl } from './cli.js';

/** One call of a turn: its tool (Bash-like: the format's shell tool is used), args, result, and whether it failed. */
export interface TurnCall {
  readonly command: string;
  readonly result: string;
  readonly failing: boolean;
}

/** One turn: the person's prompt, then the agent's calls. */
export interface Turn {
  readonly prompt: string;
  readonly calls: readonly TurnCall[];
}

/** A Claude Code transcript of `turns` (a typed prompt as plain text, tool_use and tool_result lines). */
export function claudeCodeTurns(sessionId: string, turns: readonly Turn[]): object[] {
  let n = 0;
  let parentUuid: string | null = null;
  const line = (type: 'user' | 'assistant', message: object): object => {
    const uuid = `u-${sessionId}-${n}`;
    const l = { parentUuid, isSidechain: false, userType: 'external', cwd: '/work/app', sessionId, version: '2.0.14', type, message, uuid, timestamp: new Date(Date.UTC(2026, 0, 5, 10, 0, n++)).toISOString() };
    parentUuid = uuid;
    return l;
  };
  let k = 0;
  return turns.flatMap((t) => [
    line('user', { role: 'user', content: t.prompt }),
    ...t.calls.flatMap((c) => {
      const id = `toolu_${sessionId}_${k++}`;
      return [
        line('assistant', { model: 'claude-sonnet-4-5', id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: c.command } }] }),
        line('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: c.result, ...(c.failing ? { is_error: true } : {}) }] }),
      ];
    }),
    line('assistant', { model: 'claude-sonnet-4-5', id: `msg_${sessionId}_end_${k}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }),
  ]);
}

/** A Codex CLI rollout of `turns` (each prompt a user message and its `user_message` event, shell calls with exit codes). */
export function codexTurns(id: string, turns: readonly Turn[]): object[] {
  let s = 0;
  const at = (): string => new Date(Date.UTC(2026, 0, 5, 10, 0, s++)).toISOString();
  const item = (payload: object): object => ({ timestamp: at(), type: 'response_item', payload });
  let k = 0;
  return [
    { timestamp: at(), type: 'session_meta', payload: { id, timestamp: at(), cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.46.0', source: 'cli' } },
    ...turns.flatMap((t) => [
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t.prompt }] }),
      { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: t.prompt, kind: 'plain' } },
      ...t.calls.flatMap((c) => {
        const callId = `call_${id}_${k++}`;
        return [
          item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', c.command] }), call_id: callId }),
          item({ type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: c.result, metadata: { exit_code: c.failing ? 1 : 0, duration_seconds: 0.5 } }) }),
        ];
      }),
    ]),
  ];
}

/** A Gemini CLI chat (one JSON document) of `turns`: a `user` message per prompt, a `gemini` message per call. */
export function geminiTurns(sessionId: string, turns: readonly Turn[]): object {
  let s = 0;
  const ts = (): string => new Date(Date.UTC(2026, 1, 23, 9, 0, s++)).toISOString();
  let k = 0;
  return {
    sessionId,
    projectHash: 'c1a9f0'.padEnd(64, '0'),
    startTime: ts(),
    lastUpdated: ts(),
    messages: turns.flatMap((t, i) => [
      { id: `${sessionId}-u${i}`, timestamp: ts(), type: 'user', content: [{ text: t.prompt }] },
      ...t.calls.map((c) => {
        const id = `run_shell_command_${k++}`;
        return {
          id: `${sessionId}-g${k}`,
          timestamp: ts(),
          type: 'gemini',
          content: '',
          toolCalls: [{ id, name: 'run_shell_command', args: { command: c.command }, result: [{ functionResponse: { id, name: 'run_shell_command', response: c.failing ? { error: c.result } : { output: c.result } } }], status: c.failing ? 'error' : 'success', timestamp: ts() }],
        };
      }),
    ]),
  };
}

/** A hook payload log of `turns` (Claude Code's: UserPromptSubmit, then PreToolUse and PostToolUse or PostToolUseFailure per call). */
export function hookTurns(sessionId: string, turns: readonly Turn[]): object[] {
  const common = { session_id: sessionId, transcript_path: `/home/dev/.claude/projects/-work-app/${sessionId}.jsonl`, cwd: '/work/app', permission_mode: 'default' };
  let k = 0;
  return turns.flatMap((t) => [
    { ...common, hook_event_name: 'UserPromptSubmit', prompt: t.prompt },
    ...t.calls.flatMap((c) => {
      const pre = { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: c.command }, tool_use_id: `toolu_${sessionId}_${k++}` };
      return [pre, c.failing ? { ...pre, hook_event_name: 'PostToolUseFailure', error: c.result } : { ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: c.result, stderr: '', interrupted: false } }];
    }),
    { ...common, hook_event_name: 'Stop', stop_hook_active: false },
  ]);
}

/** Writes `turns` in `format` under `dir` as the agent names its files; the path. */
export function writeTurns(dir: string, format: 'claude-code' | 'codex' | 'gemini' | 'hooks', session: string, turns: readonly Turn[]): string {
  if (format === 'hooks') return writeJsonl(dir, `hooks-${session}.jsonl`, hookTurns(session, turns));
  if (format === 'claude-code') return writeJsonl(dir, `${session}.jsonl`, claudeCodeTurns(session, turns));
  if (format === 'codex') {
    const day = join(dir, '2026', '01', '05');
    mkdirSync(day, { recursive: true });
    return writeJsonl(day, `rollout-2026-01-05T10-00-00-${session}.jsonl`, codexTurns(session, turns));
  }
  const chats = join(dir, 'gemini', 'chats');
  mkdirSync(chats, { recursive: true });
  const path = join(chats, `session-2026-02-23T09-00-${session}.json`);
  writeFileSync(path, JSON.stringify(geminiTurns(session, turns)));
  return path;
}
