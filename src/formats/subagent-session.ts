/**
 * A subagent's loop session: Claude Code sends a subagent's hook payloads with its parent's `session_id`
 * and its own `agent_id`, and the hooks (src/hooks/hook-payload.ts `sessionOf`) and the hook payload log
 * reader (hook-payloads.ts) check its calls as a session of their own, `<session_id>#<agent_id>`.
 */

/** What joins a subagent's `agent_id` to its parent's session id. */
export const SUBAGENT_MARK = '#';

/** The loop session of a payload of `session`, of the subagent `agent` when one is named. */
export function loopSession(session: string, agent: string | undefined): string {
  return agent === undefined ? session : `${session}${SUBAGENT_MARK}${agent}`;
}

/** Whether `session` is a subagent's session of the session `parent`. */
export function isSubagentOf(session: string, parent: string): boolean {
  return session.length > parent.length + 1 && session.startsWith(parent) && session[parent.length] === SUBAGENT_MARK;
}
