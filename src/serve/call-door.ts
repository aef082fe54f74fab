/**
 * What `loopwatch serve` lets into its sessions of a call, decided at the door, before the engine sees it.
 * A session keeps recent calls' args (similar args compares them, messages preview them) and writes them
 * into its snapshot, which the server keeps in memory and writes to its state folder; so what comes in is
 *
 * - **capped as the hooks cap a payload** (hook-payload.ts capValue: every string at MAX_TEXT characters,
 *   its head kept with its length and a fingerprint of the whole, so long values that differ still differ;
 *   nesting beyond 64 levels replaced), and a call's args (result, error) as a whole at MAX_CALL_CHARS
 *   characters and MAX_CALL_VALUES values: larger ones become one capped string of their JSON text;
 * - **redacted**: the args and error (as JSON text, so a secret-named key and its value are seen
 *   together), the tool name, description and text have their secrets replaced by `[REDACTED]`
 *   (src/text/redact.ts), after the cap and never leaving half a secret at a cut, so no secret sits in a
 *   snapshot or a state file (a result is capped only: a session keeps nothing of it but its
 *   fingerprint). Two calls that differ only in a secret look the same.
 *
 * The cost is linear in the call: one walk to measure, one to cap and redact (capValue's own count of the
 * values is not made again: the measure bounds them below it). On the hook routes the agent's codec has
 * counted and capped the payload already (hook-payload.ts), within MAX_PAYLOAD_VALUES; the door's measure,
 * within its smaller MAX_CALL_VALUES and MAX_CALL_CHARS, is a second count there (see docs/reliability.md).
 *
 * ```
 *   body -> call-schema.ts (ServiceCall) -> admitCall -> CheckService -> engine
 *   hook payload -> the agent's codec (capped) -> admitCall -> CheckService -> engine
 * ```
 */
import { MAX_TEXT, MAX_VALUE_DEPTH, capCounted, capText, capValue } from '../hooks/hook-payload.js';
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';
import { TEXT_LIMIT } from '../text/text-limit.js';
import type { ToolEvent } from '../types.js';

/** Characters (strings and keys) of a call's args, result or error kept as a structure; beyond, one capped string. */
export const MAX_CALL_CHARS = 4 * MAX_TEXT;
/** Values (strings, numbers, containers...) of a call's args, result or error kept as a structure; beyond, one capped string. */
export const MAX_CALL_VALUES = 4_096;
/** Bytes a value is counted for in a call's size, beside its characters (2 bytes each): a V8 object or string header and its slot. */
export const VALUE_BYTES = 48;

/** The end capText gives a string it caps. */
const CAPPED = /…\[loopwatch: \d+ characters, xxh64 [0-9a-f]{16}\]$/;

/** `text`, or its head of at most `max` characters when longer, never cut inside a secret (shown-text.ts). */
function safeHead(text: string, max: number): string {
  if (text.length <= max) return text;
  // cutText(t, max + 1) gives at most `max` characters and `…` when t is longer than max + 1 (one more
  // character, a space, makes a text of max + 1 longer without changing where its secrets end)
  return cutText(text.length === max + 1 ? `${text} ` : text, max + 1).slice(0, -1);
}

/**
 * A string capped as the hooks cap it (capText: its head, length and fingerprint), the head cut before a
 * secret that runs across the cap, so redaction later finds the whole of every secret it keeps.
 */
function safeCap(s: string): string {
  if (s.length <= MAX_TEXT || (s.length <= MAX_TEXT + 80 && CAPPED.test(s))) return s; // short, or capped already (a hook's codec caps)
  // capText keeps the first MAX_TEXT characters, then its marker (length and fingerprint of the whole)
  return safeHead(s, MAX_TEXT) + capText(s).slice(MAX_TEXT);
}

/** A string as the door keeps it: capped (safeCap) and redacted. */
export function doorText(s: string): string {
  return redactSecrets(safeCap(s));
}

/** Characters a string keeps once capped (its head and the marker, about 60 characters). */
const capped = (s: string): number => (s.length <= MAX_TEXT ? s.length : MAX_TEXT + 60);

/**
 * Characters and values of `v` as capValue would keep them (strings capped, nothing below MAX_VALUE_DEPTH),
 * counted until either passes its limit: measured before anything is copied, so args too large to keep
 * whole are never copied whole.
 */
function measure(v: unknown, c: { chars: number; values: number }, depth: number): void {
  if (c.chars > MAX_CALL_CHARS || c.values > MAX_CALL_VALUES) return;
  c.values++;
  if (typeof v === 'string') {
    c.chars += capped(v);
    return;
  }
  if (typeof v !== 'object' || v === null || depth >= MAX_VALUE_DEPTH) return;
  if (Array.isArray(v)) {
    for (const x of v) measure(x, c, depth + 1);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    c.chars += capped(k);
    measure(x, c, depth + 1);
  }
}

/** The JSON text of a value too large to keep whole (nested deeper than JSON.stringify goes: of its capped copy). */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return JSON.stringify(capValue(v));
  }
}

/**
 * A value as the door keeps it (see the header), and the bytes it is counted for. `redact` false: capped
 * only (a result: sessions keep only its fingerprint, so no text of it is held or written).
 */
export function doorValue(v: unknown, redact = true): { readonly value: unknown; readonly bytes: number } {
  if (v === undefined) return { value: v, bytes: 0 };
  const c = { chars: 0, values: 0 };
  measure(v, c, 0);
  if (c.chars > MAX_CALL_CHARS || c.values > MAX_CALL_VALUES) {
    const whole = (redact ? doorText : safeCap)(jsonText(v));
    return { value: whole, bytes: 2 * whole.length + VALUE_BYTES };
  }
  const bytes = 2 * c.chars + VALUE_BYTES * c.values;
  // within MAX_CALL_VALUES, below capValue's own count (MAX_PAYLOAD_VALUES: a test holds it so), so copied
  // without counting it again
  const kept = capCounted(v, safeCap);
  if (!redact) return { value: kept, bytes };
  // redacted as JSON text, where a secret-named key and its value are seen together ({"password": "x"})
  const text = JSON.stringify(kept);
  const clean = redactSecrets(text);
  if (clean === text) return { value: kept, bytes };
  try {
    return { value: JSON.parse(clean) as unknown, bytes };
  } catch {
    // a span reached across the JSON's structure: each string on its own
    return { value: capCounted(kept, redactSecrets), bytes };
  }
}

/** A call as the door lets it in, and the bytes its content is counted for (what its session may hold of it). */
export interface AdmittedCall<T extends ToolEvent> {
  readonly call: T;
  readonly bytes: number;
}

/**
 * The call with its args and error capped and redacted, its result capped (a session keeps only its
 * fingerprint: redacting it would cost more than the rest of the door and keep nothing safer), its tool
 * name and description redacted (the description capped as a string), and its text cut at TEXT_LIMIT
 * (what the engine reads of it) and redacted. Other fields (session, id, step, round) are kept as they are.
 */
export function admitCall<T extends ToolEvent>(call: T): AdmittedCall<T> {
  const args = doorValue(call.args);
  const result = doorValue(call.result, false);
  const error = doorValue(call.error);
  const description = call.description === undefined ? undefined : doorText(call.description);
  const text = call.text === undefined ? undefined : redactSecrets(safeHead(call.text, TEXT_LIMIT));
  const tool = redactSecrets(call.tool);
  const out = { ...call, tool, args: args.value, result: result.value, error: error.value, description, text };
  const bytes = 2 * (tool.length + (description?.length ?? 0) + (text?.length ?? 0)) + args.bytes + result.bytes + error.bytes + VALUE_BYTES;
  return { call: out, bytes };
}
