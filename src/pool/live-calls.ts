/**
 * A LoopPool's two-phase calls, read in the calling thread before they are packed (an invalid call neither
 * starts nor evicts a session): their session, operation, event and id, with the errors LoopEngine gives
 * for them (`decideBatch`'s name the call: `calls[i]: ...`).
 */
import { InvalidEventError } from '../errors.js';
import { type ValidLiveCall, validateLiveCall } from '../live/live-call.js';
import { describe } from '../options/checks.js';
import { type LiveOpCode, Op } from './event-packing.js';
import { SESSION_ID_RULE, checkSessionId, isSessionId } from '../engine/session-id.js';

/** A two-phase call ready to pack. */
export interface PoolLiveCall extends ValidLiveCall {
  readonly session: string;
  readonly op: LiveOpCode;
}

/**
 * Reads a two-phase call: `single` gives the operation and session of a propose/record/decline call; null
 * for `calls[i]` of decideBatch, which names its session and phase. Throws what LoopEngine throws for it.
 */
export function readLiveCall(c: unknown, i: number, single: { readonly op: LiveOpCode; readonly session: unknown } | null): PoolLiveCall {
  let session: string;
  let op: LiveOpCode;
  if (single === null) {
    const o = typeof c === 'object' && c !== null ? (c as { session?: unknown; phase?: unknown }) : {};
    if (!isSessionId(o.session)) throw new InvalidEventError('session', `calls[${i}].session ${SESSION_ID_RULE}, received ${describe(o.session)}`);
    if (o.phase !== 'propose' && o.phase !== 'record') throw new InvalidEventError('phase', `calls[${i}].phase must be "propose" or "record", received ${describe(o.phase)}`);
    session = o.session;
    op = o.phase === 'propose' ? Op.PROPOSE : Op.RECORD;
  } else {
    session = checkSessionId(single.session);
    op = single.op;
  }
  const { event, id } = validateLiveCall(c, 'record');
  return { session, op, event, id };
}

/** The error a call's place holds: in decideBatch (`single` false) an InvalidEventError names the call (`calls[i]: ...`). */
export function liveCallError(err: unknown, i: number, single: boolean): Error {
  if (!single && err instanceof InvalidEventError && !err.message.startsWith('calls[')) return new InvalidEventError(err.field, `calls[${i}]: ${err.message}`);
  return err instanceof Error ? err : new Error(String(err));
}
