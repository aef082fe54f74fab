/**
 * Sessions whose prompts after the first are background tasks' notifications, as Claude Code sends them when
 * a background `Agent` or Bash command finishes (a UserPromptSubmit whose prompt is
 * `<task-notification>…</task-notification>`; a transcript `user` line holding that text, with
 * `origin.kind: "task-notification"` from Claude Code 2.1.86 on): the agent's loop of answered-rounds.ts goes
 * on between them, the person typing nothing. The same calls after typed tasks (taskedRounds) are the
 * person's own work asked for again.
 */
import { answeredRounds } from './answered-rounds.js';
import { claudeCodeTurns, type Turn } from './prompted-sessions.js';

/** A notification in the shape Claude Code writes one (ids and summary made up). */
export function notification(n: number): string {
  return `<task-notification>\n<task-id>b${n}f3a9c2</task-id>\n<tool-use-id>toolu_bg_${n}</tool-use-id>\n<status>completed</status>\n<summary>Background command "npm run watch:${n}" finished</summary>\n</task-notification>`;
}

/** The loop of answeredRounds, each prompt after the first a notification. */
export function notifiedRounds(rounds: number): Turn[] {
  return answeredRounds(rounds).map((t, i) => (i === 0 ? t : { ...t, prompt: notification(i) }));
}

/**
 * How a Claude Code transcript marks its prompts: `none` as before 2.1.86 (the text alone), `origin` as
 * 2.1.86 and later (`origin.kind` "human" or "task-notification"), `origin-blocks` the same with each
 * notification's text in a second content block after a system reminder (the text's tag no longer leads:
 * only the origin tells).
 */
export type OriginMarks = 'none' | 'origin' | 'origin-blocks';

/** A Claude Code transcript of `turns`, its prompt lines marked as `marks` says. */
export function claudeCodeMarked(session: string, turns: readonly Turn[], marks: OriginMarks): object[] {
  return claudeCodeTurns(session, turns).map((line) => {
    const l = line as { type: string; message: { content: unknown } };
    if (marks === 'none' || l.type !== 'user' || typeof l.message.content !== 'string') return line;
    const notified = l.message.content.startsWith('<task-notification>');
    const origin = notified ? { kind: 'task-notification', producer: 'session-task' } : { kind: 'human' };
    const content = notified && marks === 'origin-blocks' ? [{ type: 'text', text: '<system-reminder>\nA background task finished.\n</system-reminder>' }, { type: 'text', text: l.message.content }] : l.message.content;
    return { ...l, message: { ...l.message, content }, origin, ...(notified ? { promptSource: 'system' } : {}) };
  });
}
