/**
 * The contract of an agent's hook codec: which hook events it sends, how a payload becomes a two-phase
 * call, and how a decision becomes the output the agent reads. One file per agent (claude-code.ts,
 * codex.ts, gemini.ts); the command (hook-run.ts) speaks only to this contract and to the two-phase core.
 */
import type { TranscriptTrust } from './transcript-open.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { jsonSafe, terminalSafe } from '../text/terminal-text.js';

/** The agents `loopwatch hook` speaks to. */
export type AgentName = 'claude-code' | 'codex' | 'gemini';

/** Every agent name, in the order help texts list them. */
export const AGENT_NAMES: readonly AgentName[] = ['claude-code', 'codex', 'gemini'];

/**
 * What a hook event asks: check a call before it runs, record one that ran, take a proposed call as not run
 * (`decline`: Claude Code's PermissionDenied, and PostToolBatch's declined calls; LoopDetector.didNotRun), give the session a fresh start
 * (a new prompt from the user: src/live/fresh-start.ts), or end the session.
 */
export type HookPhase = 'propose' | 'record' | 'decline' | 'prompt' | 'end';

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
  /** The call (for `prompt` and `end`: only its tool is meaningful). */
  readonly call: LiveCall;
  /**
   * For `decline`: every call to take as not run if it still waits for its outcome, when they are not
   * `call` alone (Claude Code's PostToolBatch: every call of the batch, possibly none, those that ran
   * already recorded and left alone by LoopDetector.didNotRun; declined-in-batch.ts).
   */
  readonly declined?: readonly LiveCall[];
  /**
   * For `prompt`: the person typed nothing new (the prompt only answers the agent's own question, "2", "yes",
   * or is a background task's notification, `<task-notification>…`: src/text/prompt-origin.ts, hook-payload.ts's
   * promptOf), which gives no fresh start; the agent's turn ended all the same, so the calls still waiting
   * for their outcome did not run (LoopDetector.endTurn).
   */
  readonly answer?: true;
}

/** The calls a `decline` takes as not run where they still wait: `declined`, else its `call`. */
export function declinedCalls(c: HookCall): readonly LiveCall[] {
  return c.declined ?? [c.call];
}

/** What a reply may say besides the decision, and what the agent can take. */
export interface ReplyContext {
  /**
   * The agent reads a warning given before a call runs. When it cannot (an older version), a warning is
   * given after the call instead, with its result (the record's reply carries the verdict's message).
   */
  readonly warnsBefore: boolean;
  /** A line for the user (`systemMessage`) besides the decision, e.g. a project allowlist that was ignored. */
  readonly notice?: string;
}

/** The context of a reply to an agent that takes warnings before a call, with nothing else to say. */
export const PLAIN_REPLY: ReplyContext = Object.freeze({ warnsBefore: true });

/** An agent's hook codec. */
export interface HookAgent {
  /** The agent's name (`--agent`). */
  readonly name: AgentName;
  /** The agent's name for people, in messages. */
  readonly title: string;
  /** `hook_event_name` values per phase. */
  readonly events: Readonly<Record<HookPhase, readonly string[]>>;
  /**
   * Tools whose successful call changes the workspace (edits, file writes): after a block, a new one gives
   * the session a fresh start (ToolRule.changesWorkspace).
   */
  readonly editTools: readonly string[];
  /**
   * The call a payload of one of `events` carries (texts capped, see hook-payload.ts). Throws
   * InvalidEventError naming the payload field that cannot be read. `trust`: who sent the payload, for the
   * transcript a codec reads (transcript-open.ts; default `agent`).
   */
  decode(payload: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase, trust?: TranscriptTrust): HookCall;
  /**
   * The model turn of the call a payload carries, where the payload does not say it: read from the agent's
   * transcript (a bounded read of its end, transcript-turn.ts); undefined when it cannot be told. Never throws.
   */
  turn?(payload: Readonly<Record<string, unknown>>, trust?: TranscriptTrust): number | undefined;
  /**
   * Records of calls that ran without the agent's after-event, read from its transcript: of `waiting` (the
   * session's proposals with an id still waiting for their outcome), those the transcript shows answered,
   * as `record` calls with their outcome, in `waiting`'s order (Codex: a failed apply_patch or MCP call,
   * codex-missed-outcomes.ts). Absent: the agent sends an after-event for every call that ran. Never throws.
   */
  missedRecords?(payload: Readonly<Record<string, unknown>>, waiting: readonly LiveCall[], trust?: TranscriptTrust): readonly HookCall[];
  /** What to print on stdout for a decision on `call` (`''` when there is nothing to say). */
  reply(call: HookCall, decision: LiveDecision, context: ReplyContext): string;
}

/**
 * One line of JSON output for the agent, with the context's notice for the user (`systemMessage`, before
 * any of the output's own); `''` for an output with nothing in it. The agent decodes the JSON and prints
 * `systemMessage` in the user's terminal: the notice (it names a file of the repository, whose name may
 * hold ESC, OSC, C1 or bidirectional controls) has its control characters written as escapes, and what
 * JSON leaves raw of the controls (C1, DEL, bidirectional) is `\uXXXX` in the line itself.
 */
export function hookJson(output: Readonly<Record<string, unknown>>, context: ReplyContext = PLAIN_REPLY): string {
  const notice = context.notice === undefined ? undefined : terminalSafe(context.notice);
  if (notice !== undefined) {
    const own = output.systemMessage;
    output = { ...output, systemMessage: typeof own === 'string' ? `${notice}\n${own}` : notice };
  }
  return Object.keys(output).length === 0 ? '' : `${jsonSafe(JSON.stringify(output))}\n`;
}

/**
 * The context for the model after a call ran: the record's warning, or, where the agent could not take a
 * warning before the call, the verdict the call got (what the proposal would have said).
 */
export function afterCallContext(d: LiveDecision, context: ReplyContext): string {
  if (d.action === 'warn') return d.message ?? '';
  return context.warnsBefore ? '' : (d.verdict?.message ?? '');
}
