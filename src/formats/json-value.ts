/**
 * Small helpers over parsed JSON shared by the readers: a parse that reports instead of throwing (and
 * refuses pathological nesting), the text of message content (images as placeholders), tool arguments,
 * and a record's session id.
 */
import { describe } from '../options/checks.js';
import { imagePlaceholder } from './image-part.js';
import { MAX_JSON_VALUES, hasMoreValuesThan } from './json-value-count.js';
import { MAX_NESTING } from './trace-record.js';

/** A parsed JSON text, or why it is not one. */
export type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/**
 * Whether parsed JSON `value` nests arrays and objects deeper than `max` (a scalar is depth 0). Walks the
 * containers without recursion, stopping at the first one too deep; cost grows with the number of
 * containers, not with the text's length.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop()!;
    const d = depths.pop()!;
    if (d > max) return true;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (typeof c === 'object' && c !== null) {
        stack.push(c);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

/**
 * The message of an error `JSON.parse` threw, without the excerpt of the text V8 puts in some of them
 * (`Unexpected token 'h', ..."assword": hunter2 co"... is not valid JSON`): cut anywhere, it can hold part
 * of a secret that redaction no longer recognises. Other errors keep their name.
 */
export function jsonErrorMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const message = withoutExcerpt(e.message);
  return e.name === 'SyntaxError' ? message : `${e.name}: ${message}`;
}

const NOT_JSON = ' is not valid JSON';

/**
 * `message` without its excerpt: from the first `, "` or `, ..."` whose quote opens before the quote that
 * closes the excerpt (`"` or `"...` before " is not valid JSON" at the end). What
 * `message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')` answers, in time linear in the
 * message (the expression read to the end from each `, "`: quadratic, were V8's excerpt not short).
 */
function withoutExcerpt(message: string): string {
  if (!message.endsWith(NOT_JSON)) return message;
  let end = message.length - NOT_JSON.length;
  if (message.endsWith('...', end)) end -= 3;
  const close = end - 1;
  if (message.charCodeAt(close) !== 0x22) return message;
  for (let at = message.indexOf(', '); at >= 0 && at + 2 < close; at = message.indexOf(', ', at + 1)) {
    if (message.charCodeAt(at + 2) === 0x22 || (message.startsWith('..."', at + 2) && at + 5 < close)) return message.slice(0, at);
  }
  return message;
}

/**
 * Parses one record's JSON text; never throws. Nesting deeper than `maxNesting` is refused, and so is a
 * text of more than MAX_JSON_VALUES values, before it is parsed (json-value-count.ts: its memory).
 */
export function parseJson(text: string, maxNesting: number = MAX_NESTING): Parsed {
  if (hasMoreValuesThan(text)) return { ok: false, message: `JSON of more than ${MAX_JSON_VALUES} values (read whole, it would take many times its size in memory)` };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, message: `invalid JSON: ${jsonErrorMessage(e)}` };
  }
  // nesting d deep takes d opening and d closing brackets: shorter text cannot nest too deep (most records)
  const mayNestTooDeep = text.length >= 2 * (maxNesting + 1);
  return mayNestTooDeep && nestsDeeperThan(value, maxNesting) ? { ok: false, message: `JSON nests deeper than ${maxNesting} levels` } : { ok: true, value };
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The text of message content: a string as is; an array of parts whose every part carries a string `text`
 * (`text`, `output_text`, `input_text` parts) or is an image block (see image-part.ts: a short placeholder
 * in place of its base64) as those texts joined by newlines; anything else as given.
 */
export function contentText(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) return content;
    const text = typeof part.text === 'string' ? part.text : imagePlaceholder(part);
    if (text === null) return content;
    texts.push(text);
  }
  return texts.join('\n');
}

/** Tool-call arguments delivered as JSON text, parsed; text that is not JSON (or nests too deep) stays a string. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const p = parseJson(args);
  return p.ok ? p.value : args;
}

/** The session id a record names (`session`, else `id`, else `conversation_id`), or why it cannot be used. */
export type SessionField = { readonly ok: true; readonly id: string | undefined } | { readonly ok: false; readonly message: string };

const SESSION_FIELDS = ['session', 'id', 'conversation_id'] as const;

/** Reads the session id of `record`: a non-empty string or a finite number; null and absent fields are skipped. */
export function sessionField(record: Record<string, unknown>): SessionField {
  for (const f of SESSION_FIELDS) {
    const v = record[f];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v !== '') return { ok: true, id: v };
    if (typeof v === 'number' && Number.isFinite(v)) return { ok: true, id: String(v) };
    return { ok: false, message: `"${f}" must be a non-empty string or a finite number, received ${describe(v)}` };
  }
  return { ok: true, id: undefined };
}
