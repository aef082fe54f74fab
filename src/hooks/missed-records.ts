/**
 * Which records of calls that ran without the agent's after-event a hook payload brings
 * (HookAgent.missedRecords: a Codex patch that did not apply, an MCP `isError`, codex-missed-outcomes.ts).
 * One function for both ways a hook payload is answered, so they record the same calls:
 * `loopwatch hook` (hook-run.ts, the session's state file) and `loopwatch serve`'s hook routes
 * (src/serve/hook-routes.ts, the session in the server's engine).
 *
 * They are recorded before the payload's own call, since they came before it: at a proposal, a record
 * (never the record's own call: its after-event came) and a person's prompt (before its fresh start or
 * turn's end would take them as not run); never at a declined batch or a session's end. Bounded as the
 * codec's read (the transcript's tail, at most MAX_PENDING calls waiting); never throws.
 */
import type { LiveCall } from '../live/live-call.js';
import type { HookAgent, HookCall } from './hook-agent.js';
import type { TranscriptTrust } from './transcript-open.js';

/**
 * The records `codec` reads for the session's calls `waiting` (its proposals with an id still waiting for
 * their outcome) from `payload`, which carries `call` (sent by `trust`: transcript-open.ts); in `waiting`'s
 * order, none when the codec reads none.
 */
export function missedRecordsFor(codec: HookAgent, payload: Readonly<Record<string, unknown>>, call: HookCall, waiting: readonly LiveCall[], trust: TranscriptTrust = 'agent'): readonly HookCall[] {
  if (codec.missedRecords === undefined || (call.phase !== 'propose' && call.phase !== 'record' && call.phase !== 'prompt')) return [];
  const others = call.phase === 'record' ? waiting.filter((c) => c.id !== call.call.id) : waiting;
  if (others.length === 0) return [];
  try {
    return codec.missedRecords(payload, others, trust);
  } catch {
    return []; // fail-open: a codec's bug leaves the calls waiting, as without it
  }
}
