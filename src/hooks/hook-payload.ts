/**
 * Reading a hook payload, the part every agent shares: the JSON text (size capped before parsing), the
 * fields of the common contract, and every text capped before any regex sees it. A string longer than
 * MAX_TEXT keeps its head and gets its length and a fingerprint of the whole appended, so two long results
 * that differ only at the end still differ, in linear time.
 *
 * ```
 * { session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input, tool_use_id,
 *   tool_response (after-event), error (failure event) }
 * ```
 */
import { loopSession } from '../formats/subagent-session.js';
import { InvalidEventError } from '../errors.js';
import { hashString } from '../fingerprint/canonical-hash.js';
import { toHex, u64 } from '../fingerprint/u64.js';
import { MAX_CALL_ID_LENGTH } from '../live/live-call.js';
import { withoutFields } from '../formats/volatile-input.js';
import { describe } from '../options/checks.js';
import { jsonErrorMessage } from '../formats/json-value.js';
import { startsAfresh } from '../text/prompt-origin.js';
import { hasLoneSurrogate, LONE_SURROGATE_ID } from '../serve/call-schema.js';
import { utf8Body } from '../serve/utf8-body.js';

/** Largest payload read, in bytes: a larger one is not read (the call is allowed, or denied with --fail-closed). */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** Characters of one string of a payload (an argument, a result, an error) kept; see the header. */
export const MAX_TEXT = 16 * 1024;
/** Containers of a payload's values nested deeper than this are replaced by a marker. */
export const MAX_VALUE_DEPTH = 64;
/**
 * Values (elements and members, at any depth) of one payload value (a tool's input, its response) kept as a
 * structure: a value holding more is kept as its JSON text, capped (capValue). The largest of the real
 * sessions' sets holds 1,874 (a tool input 1,689).
 */
export const MAX_PAYLOAD_VALUES = 16_384;
/** Longest session id (and subagent id) read, in characters. */
export const MAX_SESSION_LENGTH = 512;
/** Longest tool name read, in characters. */
export const MAX_TOOL_LENGTH = 1024;

/**
 * Parses a payload, its bytes as the agent sent them (UTF-8 only) or its text: a JSON object. Throws
 * InvalidEventError (`payload`) otherwise. Bytes that are not UTF-8 are refused, not read as U+FFFD:
 * read leniently, session ids differing only in invalid bytes (`a<FF>`, `a<FE>`) were one session, one
 * state file (`loopwatch hook`) or engine session (serve's hook routes). Every agent's JSON is UTF-8
 * (RFC 8259 8.1); a UTF-8 byte order mark is passed over.
 */
export function parsePayload(input: string | Uint8Array): Record<string, unknown> {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const read = utf8Body(input);
    if ('badAt' in read) throw new InvalidEventError('payload', `it is not UTF-8 (byte ${read.badAt} is not part of a UTF-8 character; an agent sends JSON as UTF-8)`);
    text = read.text;
  }
  if (text.trim() === '') throw new InvalidEventError('payload', 'standard input was empty (a hook payload is one JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InvalidEventError('payload', `it is not JSON (${jsonErrorMessage(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidEventError('payload', `it must be a JSON object, received ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

/** `s`, or its head, length and fingerprint when longer than MAX_TEXT (see the header). */
export function capText(s: string): string {
  if (s.length <= MAX_TEXT) return s;
  const lo = hashString(s);
  return `${s.slice(0, MAX_TEXT)}…[loopwatch: ${s.length} characters, xxh64 ${toHex(u64.hi, lo)}]`;
}

/**
 * A copy of a JSON value with every string capped (capText, or `cap`: `loopwatch serve` also redacts) and
 * nesting beyond MAX_VALUE_DEPTH replaced. A value holding more than MAX_PAYLOAD_VALUES values (counted as
 * the copy would keep them) is its JSON text, capped: its head, its length and a fingerprint of the whole
 * (`loopwatch serve` keeps a call's args past its own limit so, call-door.ts), so what the hook does with it
 * afterwards (similar args, the pending call in the state file, its fingerprint) costs a string, not its values.
 */
export function capValue(v: unknown, depth = 0, cap: (s: string) => string = capText): unknown {
  if (typeof v === 'object' && v !== null && depth < MAX_VALUE_DEPTH && valuesOver(v, depth, MAX_PAYLOAD_VALUES)) return cap(wholeText(v, depth));
  return copyCapped(v, depth, cap);
}

/**
 * capValue of a value its caller has counted already and found within MAX_PAYLOAD_VALUES (serve's door,
 * call-door.ts, measures a call within its own smaller limit first): the copy, without counting it again.
 */
export function capCounted(v: unknown, cap: (s: string) => string = capText): unknown {
  return copyCapped(v, 0, cap);
}

/** The copy capValue makes of a value within MAX_PAYLOAD_VALUES. */
function copyCapped(v: unknown, depth: number, cap: (s: string) => string): unknown {
  if (typeof v === 'string') return cap(v);
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= MAX_VALUE_DEPTH) return NESTED_TOO_DEEP;
  if (Array.isArray(v)) return v.map((x) => copyCapped(x, depth + 1, cap));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[cap(k)] = copyCapped(x, depth + 1, cap);
  return out;
}

const NESTED_TOO_DEEP = '[loopwatch: nested too deep]';

/**
 * Whether `v` (at `depth`) holds more than `max` values (elements and members, each counted once; what lies
 * at MAX_VALUE_DEPTH is one value, its marker's): stops counting at the first value past `max`.
 */
function valuesOver(v: object, depth: number, max: number): boolean {
  let left = max;
  const count = (x: unknown, d: number): boolean => {
    if (typeof x !== 'object' || x === null || d >= MAX_VALUE_DEPTH) return true;
    // an index loop, not Object.values: nothing is copied before the count says it may be
    if (Array.isArray(x)) {
      if ((left -= x.length) < 0) return false;
      for (let i = 0; i < x.length; i++) if (!count(x[i], d + 1)) return false;
      return true;
    }
    const keys = Object.keys(x);
    if ((left -= keys.length) < 0) return false;
    for (const k of keys) if (!count((x as Record<string, unknown>)[k], d + 1)) return false;
    return true;
  };
  return !count(v, depth);
}

/** The JSON text of a value (JSON data: a payload's), or of its copy with the nesting past MAX_VALUE_DEPTH replaced when too deep to write. */
function wholeText(v: object, depth: number): string {
  try {
    return JSON.stringify(v);
  } catch {
    return JSON.stringify(copyCapped(v, depth, (s) => s));
  }
}

/** The string field `name`, 1 to `max` characters. Throws InvalidEventError naming it. */
export function stringField(p: Readonly<Record<string, unknown>>, name: string, max: number): string {
  const v = p[name];
  if (typeof v !== 'string' || v.length === 0 || v.length > max) {
    throw new InvalidEventError(name, `the hook payload's ${name} must be a string of 1 to ${max} characters, received ${describe(v)}`);
  }
  return v;
}

/** The optional string field `name` (absent, null or empty: undefined), at most `max` characters. */
export function optionalStringField(p: Readonly<Record<string, unknown>>, name: string, max: number): string | undefined {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  return stringField(p, name, max);
}

/**
 * The loop session of a payload: `session_id`, and `agent_id` for a subagent's calls, each well-formed
 * Unicode. A lone surrogate (JSON's `"\ud800"`) is U+FFFD in UTF-8, so `a\ud800`, `a\udfff` and
 * `a\ufffd` would share a state file (its name hashes the UTF-8), as serve's ids would (call-schema.ts).
 */
export function sessionOf(p: Readonly<Record<string, unknown>>): string {
  const session = stringField(p, 'session_id', MAX_SESSION_LENGTH);
  const agent = optionalStringField(p, 'agent_id', MAX_SESSION_LENGTH);
  for (const [name, id] of [['session_id', session], ['agent_id', agent]] as const) {
    if (id !== undefined && hasLoneSurrogate(id)) throw new InvalidEventError(name, `the hook payload's ${name} ${LONE_SURROGATE_ID}`);
  }
  return loopSession(session, agent);
}

/** The tool name (`tool_name`). */
export function toolOf(p: Readonly<Record<string, unknown>>): string {
  return stringField(p, 'tool_name', MAX_TOOL_LENGTH);
}

/** The tool's input (`tool_input`, capped), without the fields in `volatile` (free text the model varies). */
export function inputOf(p: Readonly<Record<string, unknown>>, volatile: readonly string[] = []): unknown {
  return withoutFields(capValue(p.tool_input), volatile);
}

/** The call's id (`tool_use_id`), when the payload has one. */
export function callIdOf(p: Readonly<Record<string, unknown>>): string | undefined {
  return optionalStringField(p, 'tool_use_id', MAX_CALL_ID_LENGTH);
}

/**
 * What a prompt event's payload (UserPromptSubmit, BeforeAgent) adds to its HookCall: `answer` when its
 * `prompt` only answers the agent's own question ("2", "yes") or is a background task's notification
 * (`<task-notification>…`): src/text/prompt-origin.ts, as the readers decide; it gives the session no fresh start.
 */
export function promptOf(p: Readonly<Record<string, unknown>>): { readonly answer?: true } {
  return startsAfresh(p.prompt) ? {} : { answer: true };
}
