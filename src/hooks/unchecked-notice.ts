/**
 * Telling the person, where they look, that the hook allowed a call it could not check (an unusable state
 * folder, a lock held too long, an internal error, a payload it could not read). The agents do not put a
 * hook's stderr before the person (docs/reliability.md, hostile33), but each shows the `systemMessage` of
 * a hook's JSON reply (Claude Code, Gemini CLI; Codex's interactive CLI, docs/hooks.md): the
 * notice is one short line there, redacted, with the call still allowed and exit code 0.
 *
 * Told once per session (a marker in the state folder, told-once.ts) and not again until a call of the
 * session is checked (the marker is then forgotten: a failure that comes back is told again). Where no
 * marker can be kept (a state folder that cannot be written or is not the user's own, a payload naming no
 * session), it is told on each call.
 */
import { redactSecrets } from '../text/redact.js';
import { oneLine } from '../text/shown-text.js';
import { hookJson } from './hook-agent.js';
import { forgetTold, toldBefore } from './told-once.js';

/** Characters of the reason a notice gives (cut before it is redacted, like the stderr line). */
export const NOTICE_WHY_LENGTH = 200;

/** The session a notice is about: the agent's name and its session id. */
export interface NoticeSession {
  readonly agent: string;
  readonly session: string;
}

/** What the marker of a session's notice remembers. */
function told(s: NoticeSession): string {
  return `unchecked\n${s.agent}\n${s.session}`;
}

/** The notice's text: one short line, redacted (the reply makes it terminal-safe: hookJson). */
export function uncheckedNotice(why: string): string {
  return redactSecrets(`loopwatch could not check this call for loops and allowed it (${oneLine(why, NOTICE_WHY_LENGTH)}); details on the hook's stderr`);
}

/** The reply that tells the person (`systemMessage`, which Claude Code, Codex and Gemini CLI all show) and allows the call. */
export function uncheckedReply(why: string): string {
  return hookJson({}, { warnsBefore: true, notice: uncheckedNotice(why) });
}

/**
 * Whether to tell the person about an unchecked call of `session` now: the first time for the session, and
 * each time where no marker can be kept (`stateDir` null: a folder not to write in; no session). Never throws.
 */
export function tellUnchecked(stateDir: string | null, session: NoticeSession | null): boolean {
  return stateDir === null || session === null || !toldBefore(stateDir, told(session));
}

/** A call of `session` was checked: a failure that comes back is told again. Never throws. */
export function uncheckedCleared(stateDir: string, session: NoticeSession): void {
  forgetTold(stateDir, told(session));
}
