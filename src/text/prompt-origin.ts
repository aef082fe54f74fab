/**
 * Whether a prompt gives the session a fresh start (LoopDetector.freshStart, src/live/fresh-start.ts): the
 * one decision every place that hears prompts asks, the readers (Claude Code, Codex, Gemini CLI transcripts,
 * hook payload logs: TraceCall.prompted, so scan, eval, calibrate and explain), the hooks (UserPromptSubmit,
 * BeforeAgent: `loopwatch hook` and `loopwatch serve`) and scripts/devset/prompt-replay.mjs.
 *
 * A prompt gives no fresh start when the person typed nothing new:
 *   - it only answers the agent's own question ("2", "yes": src/text/prompt-answer.ts);
 *   - it is a background task's notification. When a background `Agent` or Bash command finishes, Claude
 *     Code sends a UserPromptSubmit whose prompt is `<task-notification>…</task-notification>` and writes a
 *     `user` line holding that text (Claude Code 2.1.337, recorded with the real program). An agent whose
 *     loop spans the completions of its background tasks goes on with the same work there.
 * A notification is known by the most reliable mark at hand:
 *   - a transcript line's `origin` (Claude Code 2.1.86 and later): `origin.kind` is `"task-notification"`
 *     (a typed prompt's is `"human"`); when the line has an `origin` with a string `kind`, it alone decides;
 *   - otherwise (a hook payload, which carries no origin; a transcript of an earlier Claude Code) the text:
 *     it starts with {@link NOTIFICATION_TAG}, leading white space aside, looked at no further than
 *     {@link NOTIFICATION_LOOK} characters.
 */
import { answersAgent } from './prompt-answer.js';

/** The tag a background task's notification starts with. */
export const NOTIFICATION_TAG = '<task-notification>';

/** Characters of a prompt's text looked at for the tag (leading white space included): no match reads more. */
export const NOTIFICATION_LOOK = 64;

/** The `origin.kind` Claude Code gives a notification's transcript line. */
const NOTIFICATION_KIND = 'task-notification';

/** The first text of a prompt: a string, or the first part's `text` of a message's content; undefined else. */
function firstText(prompt: unknown): string | undefined {
  if (typeof prompt === 'string') return prompt;
  if (!Array.isArray(prompt) || prompt.length === 0) return undefined;
  const part: unknown = prompt[0];
  if (typeof part !== 'object' || part === null) return undefined;
  const text = (part as { text?: unknown }).text;
  return typeof text === 'string' ? text : undefined;
}

/**
 * Whether a prompt is a background task's notification (see the header). `prompt`: its text, or a
 * message's content parts; `origin`: the transcript line's `origin`, when it has one (undefined for a hook
 * payload).
 */
export function isTaskNotification(prompt: unknown, origin?: unknown): boolean {
  if (typeof origin === 'object' && origin !== null) {
    const kind = (origin as { kind?: unknown }).kind;
    if (typeof kind === 'string') return kind === NOTIFICATION_KIND;
  }
  const text = firstText(prompt);
  return text !== undefined && text.slice(0, NOTIFICATION_LOOK).trimStart().startsWith(NOTIFICATION_TAG);
}

/**
 * Whether a prompt gives the session a fresh start: not when it only answers the agent's own question, nor
 * when it is a background task's notification (see the header). `prompt` and `origin` as for
 * {@link isTaskNotification}.
 */
export function startsAfresh(prompt: unknown, origin?: unknown): boolean {
  return !answersAgent(prompt) && !isTaskNotification(prompt, origin);
}
