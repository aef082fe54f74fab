/**
 * A hooked call with its model turn (`round`), read from the agent's transcript where the payload does not
 * say it (HookAgent.turn, transcript-turn.ts). One function for both ways a hook payload is answered:
 * `loopwatch hook` (hook-run.ts, the agent's own process) and `loopwatch serve`'s hook routes
 * (src/serve/hook-routes.ts, a server any local client may post to).
 *
 * | who reads         | transcript read when                                                                   |
 * |-------------------|----------------------------------------------------------------------------------------|
 * | `loopwatch hook`  | the path is absolute, a regular file (never blocks), its last 256 KiB (transcript-part.ts) |
 * | `loopwatch serve` | the same, and its name ends in `.jsonl` (`trust: 'served'`): both agents' transcripts do; no symbolic link or second name, serve's user's or readable by anyone (transcript-open.ts) |
 *
 * The hook runs as the user, on the payload the user's agent wrote: its path is the agent's. A server's
 * client is any process that can reach the port, so serve reads no more than the hook would, and only a
 * file named as a transcript is; what it learns of it is whether the tail holds a call of the payload's id,
 * never a byte of it in a reply. A path that is not there (serve on another machine than the agent) gives
 * no turn: the call is decided as each call its own turn, as before.
 */
import type { HookAgent, HookCall } from './hook-agent.js';
import type { TranscriptTrust } from './transcript-open.js';

export type { TranscriptTrust } from './transcript-open.js';

/** Whether a served payload's `transcript_path` may be read: a `.jsonl` file name (the agents' transcripts). */
function servedTranscript(path: unknown): boolean {
  return typeof path === 'string' && path.endsWith('.jsonl');
}

/**
 * The call with its model turn (`round`) when the agent's transcript tells it (HookAgent.turn): calls of
 * one turn are one decision, as `loopwatch eval` reads them from the transcript. Never throws.
 */
export function withTurn(agent: HookAgent, payload: Readonly<Record<string, unknown>>, call: HookCall, trust: TranscriptTrust = 'agent'): HookCall {
  if ((call.phase !== 'propose' && call.phase !== 'record') || agent.turn === undefined || call.call.round !== undefined) return call;
  if (trust === 'served' && !servedTranscript(payload.transcript_path)) return call;
  const round = agent.turn(payload, trust);
  return round === undefined ? call : { ...call, call: { ...call.call, round } };
}
