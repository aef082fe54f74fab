/**
 * A message of the calls stream as a worker reads it: the session from the subject, the calls from the body
 * (one call, or `{ "calls": [...] }` for several calls of that session in order; the calls need not repeat
 * the session), or an operation from the `Loopwatch-Op` header. A call with a `phase` is a two-phase call:
 * `propose` before it runs, `record` after, with its outcome (answered with a LiveDecision); without one it
 * is a plain check (answered with its verdict). A message that cannot be read is answered with an error
 * result, never dropped in silence. Every call is let in through `serve`'s door (call-door.ts admitCall),
 * as the HTTP server lets its calls in: its args and error capped (every string at MAX_TEXT, 16 KiB,
 * characters: its head, its length and a fingerprint of the whole; a call as a whole at MAX_CALL_CHARS)
 * and redacted, its tool name and description redacted, its text cut and redacted. So a session's
 * snapshot (it keeps about ten calls' args) stays well under the server's message limit, the sessions
 * bucket and the worker's answers hold no secret a call carried, and the same calls get the same
 * verdicts from `serve --nats` as from `serve` over HTTP.
 */
import { jsonErrorMessage } from '../../formats/json-value.js';
import { InvalidEventError } from '../../errors.js';
import type { LiveDecision, LivePhase } from '../../live/live-call.js';
import { admitCall } from '../call-door.js';
import type { CallResult } from '../check-service.js';
import { MAX_BATCH_CALLS, type ServiceCall, fail, objectAt, readCall } from '../call-schema.js';
import { cutText } from '../../text/shown-text.js';
import { notUtf8, utf8Body } from '../utf8-body.js';

/** A call of a message: a plain check, or a two-phase call when it has a `phase`. */
export interface MessageCall extends ServiceCall {
  readonly phase?: LivePhase;
}

/** One call's answer in a message: a plain check's verdict (or error), or a two-phase call's LiveDecision. */
export type MessageResult = CallResult | LiveDecision;

/** What a message asks for. */
export type CallMessage =
  | { readonly kind: 'calls'; readonly calls: readonly MessageCall[] }
  | { readonly kind: 'end' }
  | { readonly kind: 'invalid'; readonly error: InvalidEventError };

/** Reads a message body of session `sessionId` (`op`: the Loopwatch-Op header, if any). */
export function readCallMessage(sessionId: string, data: Uint8Array, op: string | undefined): CallMessage {
  try {
    if (op === 'end') return { kind: 'end' };
    if (op !== undefined && op !== '') throw new InvalidEventError('Loopwatch-Op', `Loopwatch-Op must be "end" when given, received "${cutText(op, 40)}"`);
    const read = utf8Body(data);
    if ('badAt' in read) throw new InvalidEventError('body', notUtf8('the message body', read.badAt));
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch (e) {
      throw new InvalidEventError('body', `the message body is not JSON: ${jsonErrorMessage(e)}`);
    }
    const o = objectAt('body', value);
    if (o.calls === undefined) return { kind: 'calls', calls: [readMessageCall('', o, sessionId)] };
    const list = o.calls;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH_CALLS) fail('calls', `must be an array of 1 to ${MAX_BATCH_CALLS} calls`, list);
    return { kind: 'calls', calls: list.map((c, i) => readMessageCall(`calls[${i}]`, c, sessionId)) };
  } catch (e) {
    if (e instanceof InvalidEventError) return { kind: 'invalid', error: e };
    throw e;
  }
}

/** Reads one call at `path` (see readCall), with its `phase` when it has one. */
function readMessageCall(path: string, value: unknown, sessionId: string): MessageCall {
  const { phase, ...call } = objectAt(path === '' ? 'body' : path, value);
  if (phase === undefined) return bounded(readCall(path, call, sessionId));
  if (phase !== 'propose' && phase !== 'record') fail(path === '' ? 'phase' : `${path}.phase`, 'must be "propose" or "record" when given', phase);
  return { ...bounded(readCall(path, call, sessionId)), phase };
}

/** The call as `serve`'s door lets it in: capped and redacted (see the module's doc). */
function bounded(c: ServiceCall): ServiceCall {
  return admitCall(c).call;
}
