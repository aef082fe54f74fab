/**
 * The request bodies of `loopwatch serve`, checked field by field before anything is recorded: a bad body
 * is an InvalidEventError whose `field` is the field's path (`calls[3].tool`) and whose message names the
 * rule and what was received. Hand-written rather than a JSON Schema library: the shapes are small, the
 * messages are the CLI's own (`describe`, did-you-mean for unknown fields), it costs nothing per call on the
 * hot path, and it adds no dependency. The same rules, as JSON Schema, are in docs/service.md.
 *
 * A call:   { session, id?, agent?, tool, args?, result?, error?, text?, description?, step?, round? }
 * A batch:  { calls: [call, ...] }           (1 to MAX_BATCH_CALLS calls, every one valid, or none is run)
 * A two-phase batch: { calls: [{ phase: "propose" | "record", ...call }, ...] }
 */
import { InvalidEventError } from '../errors.js';
import { closestName, describe } from '../options/checks.js';
import type { LivePhase } from '../live/live-call.js';
import type { ToolEvent } from '../types.js';
import { cutText } from '../text/shown-text.js';

/** Longest session id or call id, in UTF-16 code units. */
export const MAX_ID_LENGTH = 512;
/** Longest tool name. */
export const MAX_TOOL_LENGTH = 1024;
/** Most calls in one batch request. */
export const MAX_BATCH_CALLS = 10_000;

/** A call as the service receives it: a tool call with its session and, optionally, the caller's call id. */
export interface ServiceCall extends ToolEvent {
  /** The session's id. */
  readonly session: string;
  /** The caller's id for the call (a tool-use id), echoed back; unique within the session when given. */
  readonly id?: string;
  /**
   * The agent making the call (e.g. `claude-code`, `my-agent 1.2`): with a config's `families`, a session
   * starting with it gets its family's options (family-engines.ts). Not handed to the engine.
   */
  readonly agent?: string;
}

/** Characters of an unknown field's path named in a refusal. */
export const SHOWN_FIELD_LENGTH = 128;

/**
 * Why a single call's body may not have a `phase` (a NATS message's call and a `/v1/decide/batch` call do):
 * over HTTP the route is the phase, and the batch route takes calls with one.
 */
export const PHASE_IN_BODY =
  'phase is not a field of a single call: the route is the phase (POST /v1/propose before the call runs, POST /v1/record after it ran); calls with a phase go to POST /v1/decide/batch as {"calls": [{"phase": "propose" | "record", ...call}]}';

/** Fields a call may have. */
export const CALL_FIELDS: readonly string[] = ['session', 'id', 'agent', 'tool', 'args', 'result', 'error', 'text', 'description', 'step', 'round'];

/** Throws InvalidEventError naming `field`. */
export function fail(field: string, rule: string, value: unknown): never {
  throw new InvalidEventError(field, `${field} ${rule}, received ${describe(value)}`);
}

/** The plain object at `path`, or a 400-worthy error. */
export function objectAt(path: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be a JSON object', value);
  return value as Record<string, unknown>;
}

/** Rejects any key of `o` not in `known`, naming the closest known one. */
export function knownFields(path: string, o: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (known.includes(k)) continue;
    const best = closestName(k.slice(0, SHOWN_FIELD_LENGTH), known);
    // an unknown key may be anything the caller sent, of any length: named by its first characters
    const at = cutText(path === '' ? k : `${path}.${k}`, SHOWN_FIELD_LENGTH);
    throw new InvalidEventError(at, `${at} is not a known field${best === undefined ? '' : ` (did you mean ${best}?)`}; known: ${known.join(', ')}`);
  }
}

/** A string of 1 to `max` characters at `path`. */
export function idAt(path: string, value: unknown, max = MAX_ID_LENGTH): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) fail(path, `must be a string of 1 to ${max} characters`, value);
  return value;
}

/** A UTF-16 unit of a surrogate pair standing alone: not a character, and not one in UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a session id may not name a session ({@link sessionIdAt}'s Unicode rule), said once for each door. */
export const LONE_SURROGATE_ID = 'must be well-formed Unicode (a lone surrogate such as \\ud800 is not a character)';

/** Whether `id` holds a lone surrogate: in UTF-8 it would read as another id's U+FFFD (see {@link sessionIdAt}). */
export function hasLoneSurrogate(id: string): boolean {
  return LONE_SURROGATE.test(id);
}

/**
 * A session id at `path`: as {@link idAt}, and well-formed Unicode. A lone surrogate (JSON's `"\ud800"`)
 * is U+FFFD in UTF-8, so `a\ud800`, `a\udfff` and `a\ufffd` would share a state file (its name hashes the
 * id's UTF-8), and the session be restored under another id after a restart.
 */
export function sessionIdAt(path: string, value: unknown): string {
  const id = idAt(path, value);
  if (hasLoneSurrogate(id)) fail(path, LONE_SURROGATE_ID, value);
  return id;
}

function optionalString(path: string, value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') fail(path, 'must be a string when given', value);
  return value;
}

function optionalNumber(path: string, value: unknown): number | undefined {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value))) fail(path, 'must be a finite number when given', value);
  return value;
}

/**
 * Reads one call at `path` (`''` for a whole body): every field checked, unknown fields refused. With
 * `session`, the call belongs to that session (as a NATS message's subject says): its own `session` field
 * may be absent, and must be the same when present.
 */
export function readCall(path: string, value: unknown, session?: string): ServiceCall {
  const o = objectAt(path === '' ? 'body' : path, value);
  // a whole body with a phase is a call in the NATS or batch shape sent to a route that is itself the phase
  if (path === '' && Object.hasOwn(o, 'phase')) throw new InvalidEventError('phase', PHASE_IN_BODY);
  knownFields(path, o, CALL_FIELDS);
  const at = (f: string): string => (path === '' ? f : `${path}.${f}`);
  if (session !== undefined && o.session !== undefined && o.session !== session) {
    fail(at('session'), `must be the session the message was published for (${JSON.stringify(cutText(session, 80))}) when given`, o.session);
  }
  if (session === undefined) session = sessionIdAt(at('session'), o.session);
  const id = o.id === undefined ? undefined : idAt(at('id'), o.id);
  const agent = o.agent === undefined ? undefined : idAt(at('agent'), o.agent);
  const tool = idAt(at('tool'), o.tool, MAX_TOOL_LENGTH);
  return {
    session,
    ...(id === undefined ? {} : { id }),
    ...(agent === undefined ? {} : { agent }),
    tool,
    args: o.args,
    result: o.result,
    error: o.error,
    text: optionalString(at('text'), o.text),
    description: optionalString(at('description'), o.description),
    step: optionalNumber(at('step'), o.step),
    round: optionalNumber(at('round'), o.round),
  };
}

/** The array of calls of a batch body `{ calls: [...] }`, its length checked. */
function batchCalls(value: unknown): unknown[] {
  const o = objectAt('body', value);
  knownFields('', o, ['calls']);
  const calls = o.calls;
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_BATCH_CALLS) fail('calls', `must be an array of 1 to ${MAX_BATCH_CALLS} calls`, calls);
  return calls;
}

/** Reads a batch body `{ calls: [...] }`: all of its calls, or an error naming the first bad field. */
export function readBatch(value: unknown): ServiceCall[] {
  const calls = batchCalls(value);
  const out = new Array<ServiceCall>(calls.length);
  for (let i = 0; i < calls.length; i++) out[i] = readCall(`calls[${i}]`, calls[i]);
  return out;
}

/** A call of a two-phase batch: a call and its moment. */
export interface PhasedCall extends ServiceCall {
  readonly phase: LivePhase;
}

/** Reads a two-phase batch body `{ calls: [{ phase, ...call }, ...] }`, every call checked. */
export function readPhasedBatch(value: unknown): PhasedCall[] {
  const calls = batchCalls(value);
  const out = new Array<PhasedCall>(calls.length);
  for (let i = 0; i < calls.length; i++) {
    const path = `calls[${i}]`;
    const { phase, ...call } = objectAt(path, calls[i]);
    if (phase !== 'propose' && phase !== 'record') fail(`${path}.phase`, 'must be "propose" or "record"', phase);
    out[i] = { ...readCall(path, call), phase };
  }
  return out;
}
