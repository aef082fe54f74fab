/**
 * The two-phase API's data: a call checked before it runs (`propose`) and recorded after it ran
 * (`record`), and the decision a host acts on. Every way in (library, hooks, SDK adapters, MCP proxy,
 * service) speaks these types; only the codecs around them differ. The types are declared in types.ts
 * with the rest of the data (errors.ts carries a LiveDecision) and exported from here too.
 */
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import { validateEvent } from '../session/observe-event.js';
import { recordedMessage } from './host-message.js';
import type { LoopAction, ToolEvent, Verdict } from '../types.js';

// the two-phase API's data types live in types.ts; importers of this module find them here too
import type { LiveAction, LiveCall, LiveDecision, LivePhase } from '../types.js';
export type { LiveAction, LiveCall, LiveDecision, LivePhase } from '../types.js';

/** Characters of a call id kept (longer ids are refused). */
export const MAX_CALL_ID_LENGTH = 512;

/** A validated live call: the event (fixed shape) and its id. */
export interface ValidLiveCall {
  readonly event: ToolEvent;
  readonly id: string | undefined;
}

/**
 * Checks a live call (as `validateEvent` does, plus its id) and returns it as a fixed-shape event and id.
 * A proposal's result, error and text are left out: the call has not run. Throws InvalidEventError.
 * `validate`: the session's own event check (LoopDetector.validate, which also applies `strictValues`).
 */
export function validateLiveCall(call: unknown, phase: LivePhase, validate: (event: unknown) => ToolEvent = validateEvent): ValidLiveCall {
  const e = validate(call);
  const id = (call as { id?: unknown }).id;
  if (id !== undefined && !(typeof id === 'string' && id.length > 0 && id.length <= MAX_CALL_ID_LENGTH)) {
    throw new InvalidEventError('id', `call.id must be a non-empty string of at most ${MAX_CALL_ID_LENGTH} characters when given, received ${describe(id)}`);
  }
  if (phase === 'record') return { event: e, id: id as string | undefined };
  return { event: { tool: e.tool, args: e.args, result: undefined, error: undefined, text: undefined, description: e.description, step: e.step, round: e.round }, id: id as string | undefined };
}

/** A validated event and its id as one fixed-shape LiveCall (what validateLiveCall took apart). */
export function liveCallOf(e: ToolEvent, id: string | undefined): LiveCall {
  return { id, tool: e.tool, args: e.args, result: e.result, error: e.error, text: e.text, description: e.description, step: e.step, round: e.round };
}

const PROPOSE_ACTIONS: Readonly<Record<LoopAction, LiveAction>> = { warn: 'warn', ask: 'ask', break: 'deny' };

const RANK: Readonly<Record<LoopAction, number>> = { warn: 0, ask: 1, break: 2 };

/** The decision for a proposal's verdict (`stop` when the break stops the run). */
export function proposalDecision(session: string, id: string | undefined, verdict: Verdict | null, stop: boolean): LiveDecision {
  const action: LiveAction = verdict === null ? 'allow' : stop && verdict.action === 'break' ? 'stop' : PROPOSE_ACTIONS[verdict.action];
  return liveDecision(session, 'propose', id, action, verdict);
}

/** What the proposal of a call showed the model: its verdict's kind and action. */
export interface Shown {
  readonly kind: string;
  readonly action: LoopAction;
}

/**
 * The decision for a recorded call's verdict: `warn` (the host adds the message to the result) when it
 * says something the proposal did not show (another kind, or a stronger action), else `allow`.
 */
export function recordDecision(session: string, id: string | undefined, verdict: Verdict | null, shown: Shown | null): LiveDecision {
  const fresh = verdict !== null && (shown === null || shown.kind !== verdict.kind || RANK[verdict.action] > RANK[shown.action]);
  return liveDecision(session, 'record', id, fresh ? 'warn' : 'allow', verdict);
}

/** A record that came after its call was recorded without outcome: ignored. */
export function lateRecord(session: string, id: string | undefined): LiveDecision {
  return Object.freeze({ session, phase: 'record', ...(id === undefined ? {} : { id }), action: 'allow', verdict: null, late: true });
}

/**
 * A decision as plain frozen data (the message is the verdict's, absent for `allow`; a recorded call's says
 * it already ran, host-message.ts): what every
 * decision is built by, so one rebuilt elsewhere (a LoopPool's, from a worker's compact answer) is the same.
 */
export function liveDecision(session: string, phase: LivePhase, id: string | undefined, action: LiveAction, verdict: Verdict | null): LiveDecision {
  // four literals rather than conditional spreads (~45 ns against ~220 with the freeze, node 20; every
  // propose() and record() makes one), members in the same order either way
  // a recorded call already ran: its message does not say it was blocked or the run is being stopped
  const message = action === 'allow' || verdict === null ? undefined : phase === 'record' ? recordedMessage(verdict.message, verdict.action) : verdict.message;
  if (id === undefined) return Object.freeze(message === undefined ? { session, phase, action, verdict } : { session, phase, action, message, verdict });
  return Object.freeze(message === undefined ? { session, phase, id, action, verdict } : { session, phase, id, action, message, verdict });
}
