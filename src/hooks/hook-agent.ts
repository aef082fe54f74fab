/**
 * The contract of an agent's hook codec: which hook events it sends, how a payload becomes a two-phase
 * call, and how a decision becomes the output the agent reads. One file per agent (claude-code.ts,
 * codex.ts, gemini.ts); the command (hook-run.ts) speaks only to this contract and to the two-phase core.
 */
import type { LiveCall, LiveDecision } from '../live/live-call.js';

/** The agents `loopwatch hook` speaks to. */
export type AgentName = 'claude-code' | 'codex' | 'gemini';

/** Every agent name, in the order help texts list them. */
export const AGENT_NAMES: readonly AgentName[] = ['claude-code', 'codex', 'gemini'];

/** What a hook event asks: check a call before it runs, record one that ran, or end the session. */
export type HookPhase = 'propose' | 'record' | 'end';

/** A hook payload, decoded. */
export interface HookCall {
  /** The agent that sent it. */
  readonly agent: AgentName;
  /** The payload's `hook_event_name`. */
  readonly eventName: string;
  /** The moment it answers. */
  readonly phase: HookPhase;
  /** The loop session: the agent's session id (and subagent id, when the payload names one). */
  readonly session: string;
  /** The call (for `end`: only its tool is meaningful). */
  readonly call: LiveCall;
}

/** An agent's hook codec. */
export interface HookAgent {
  /** The agent's name (`--agent`). */
  readonly name: AgentName;
  /** The agent's name for people, in messages. */
  readonly title: string;
  /** `hook_event_name` values per phase. */
  readonly events: Readonly<Record<HookPhase, readonly string[]>>;
  /**
   * The call a payload of one of `events` carries (texts capped, see hook-payload.ts). Throws
   * InvalidEventError naming the payload field that cannot be read.
   */
  decode(payload: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall;
  /** What to print on stdout for a decision on `call` (`''` when there is nothing to say). */
  reply(call: HookCall, decision: LiveDecision): string;
}

/** One line of JSON output for the agent. */
export function hookJson(output: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify(output)}\n`;
}
