/**
 * holdout 2fc63785's subagent as a Claude Code hook session with its transcript (test/hook-transcript-turn.test.ts,
 * test/serve-hook-turn.test.ts): `git log` and `git status` sent together three turns running, each failing.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { proposeAction } from './hook-payloads.js';

/** One JSON line. */
export const line = (o: unknown): string => `${JSON.stringify(o)}\n`;
/** A Claude Code transcript line: an answer (`message`) holding one Bash `tool_use`. */
export const toolUse = (message: string, id: string, command: string): string =>
  line({ type: 'assistant', message: { id: message, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
/** A Claude Code transcript line: the result of a call. */
export const toolResult = (id: string, text: string): string => line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } });

/** The error of each `git` call. */
export const ERROR = 'Exit code 128\nfatal: not a git repository (or any of the parent directories): .git';
/** holdout 2fc63785's subagent, in short: a look around, then `git log` and `git status` sent together three turns running. */
export const TURNS: readonly (readonly [string, string | null][])[] = [
  [['ls -la /repo', 'total 44\nsrc\ndata']],
  [['ls -la /repo/data', 'total 2240\nx.qif'], ['find /repo -name "*.py"', '/repo/test_setup.py']],
  [['head -100 /repo/data/x.qif', '!Type:Cat']],
  [['git log --oneline', null], ['git status', null]],
  [['git log --oneline', null], ['git status', null]],
  [['git log --oneline', null], ['git status', null]],
  [['cat /repo/.git/HEAD', 'ref: refs/heads/master']],
];

/**
 * The session through the Claude Code hook (`send`: one payload's stdout), the transcript written as Claude
 * Code writes it (a turn's lines once its first call's PreToolUse hooks are done), or not at all.
 */
export async function replay(dir: string, withTranscript: boolean, send: (payload: unknown) => Promise<string>): Promise<string[]> {
  const transcript = join(dir, 's.jsonl');
  const actions: string[] = [];
  let n = 0;
  for (const [t, calls] of TURNS.entries()) {
    const first = n;
    for (const [k, [command, output]] of calls.entries()) {
      const id = `toolu_${n++}`;
      const base = { session_id: 's', transcript_path: withTranscript ? transcript : join(dir, 'none.jsonl'), cwd: '/repo', permission_mode: 'default', tool_name: 'Bash', tool_input: { command }, tool_use_id: id };
      const action = proposeAction('claude-code', await send({ ...base, hook_event_name: 'PreToolUse' }));
      if (withTranscript && k === 0) for (const [j, [c]] of calls.entries()) appendFileSync(transcript, toolUse(`msg_${t}`, `toolu_${first + j}`, c));
      actions.push(action);
      if (action === 'deny' || action === 'stop') continue;
      await send(output === null ? { ...base, hook_event_name: 'PostToolUseFailure', error: ERROR, is_interrupt: false } : { ...base, hook_event_name: 'PostToolUse', tool_response: { stdout: output, stderr: '', interrupted: false, isImage: false } });
      if (withTranscript) appendFileSync(transcript, toolResult(id, output ?? ERROR));
    }
  }
  return actions;
}

