/**
 * The states of a session's subagents (`<session>#<agent_id>`, hook-payload.ts `sessionOf`), ended with it.
 *
 * Claude Code sends a subagent's calls with its `agent_id`, so each subagent is a session of its own, but
 * its end comes apart from its parent's: SubagentStop ends one subagent (an `end` of `<session>#<agent_id>`),
 * and nothing ends the subagents an interrupt killed. Seen with Claude Code 2.1.337 (Agent SDK 0.3.337,
 * a foreground subagent interrupted while its Bash ran): PreToolUse of the subagent's Bash, then Interrupt
 * `{source: "user", reason: "stop"}` with no `agent_id`, then the next prompt: no PostToolUse(Failure) for
 * the Bash, no SubagentStop. Its call stayed in flight in the subagent's state until the sweep. So the
 * parent's Interrupt and SessionEnd end every subagent of the session it names: their states are removed,
 * each under its own lock (one held by another hook is left to the sweep). A background subagent an
 * interrupt did not stop starts afresh at its next call: less is known, nothing is blocked.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SUBAGENT_MARK, isSubagentOf } from '../formats/subagent-session.js';
import { SessionFile } from './session-file.js';
import { type LockOptions, acquireLock } from './state-lock.js';
import { STATE_SUFFIX, stateFileKind } from './state-names.js';

/** Whether `session` is a subagent's (it names its parent's session and its `agent_id`). */
export function isSubagentSession(session: string): boolean {
  return session.includes(SUBAGENT_MARK);
}

/**
 * Removes the state of every subagent of `agent`'s `session` in `dir` (see the header). Returns the
 * subagent sessions ended. Never throws: a folder or file that cannot be read is left to the sweep.
 */
export function endSubagents(dir: string, agent: string, session: string, lock: LockOptions = {}): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ended: string[] = [];
  for (const name of names) {
    if (stateFileKind(name) !== 'state' || !name.endsWith(STATE_SUFFIX)) continue;
    const owner = SessionFile.owner(join(dir, name));
    if (owner === null || owner.agent !== agent || !isSubagentOf(owner.session, session)) continue;
    const file = new SessionFile(dir, agent, owner.session);
    try {
      const release = acquireLock(file.lockPath, lock);
      if (release === null) continue;
      try {
        file.remove();
        ended.push(owner.session);
      } finally {
        release();
      }
    } catch {
      // left to the sweep
    }
  }
  return ended;
}
