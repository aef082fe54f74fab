/**
 * Opens one conversation record of a chat format: a bare array of its parts, or an object holding them
 * (under `messages`, or Responses' `items` / `input` + `output`), with the session id the record names or
 * the fallback derived from its place in the input.
 */
import { describe } from '../options/checks.js';
import { isRecord, sessionField } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { type TraceIssue, issue } from './trace-record.js';

/** A conversation's parts and its session id. */
export interface Conversation {
  readonly session: string;
  readonly parts: readonly unknown[];
}

/**
 * The conversation in `unit`, or a `bad-record` issue. `keys` name the object fields holding parts, read in
 * that order and concatenated; `what` names the parts for the message ("messages", "items").
 */
export function openConversation(unit: RecordUnit, keys: readonly string[], what: string): Conversation | TraceIssue {
  const v = unit.value;
  if (Array.isArray(v)) return { session: unit.fallbackSession, parts: v };
  const expected = `an array of ${what} or an object with ${keys.map((k) => `"${k}"`).join(' or ')}`;
  if (!isRecord(v)) return issue('bad-record', unit.file, unit.line, `expected ${expected}, received ${describe(v)}`);
  const s = sessionField(v);
  if (!s.ok) return issue('bad-record', unit.file, unit.line, s.message);
  let parts: unknown[] | null = null;
  for (const k of keys) {
    const p = v[k];
    if (p === undefined || p === null || (typeof p === 'string' && k === 'input')) continue;
    if (!Array.isArray(p)) return issue('bad-record', unit.file, unit.line, `"${k}" must be an array of ${what}, received ${describe(p)}`);
    parts = parts === null ? p : parts.concat(p);
  }
  if (parts === null) return issue('bad-record', unit.file, unit.line, `expected ${expected}, found none of them`);
  return { session: s.id ?? unit.fallbackSession, parts };
}

/** A `bad-record` issue about part `index` of the conversation in `unit`. */
export function partIssue(unit: RecordUnit, what: string, index: number, message: string): TraceIssue {
  return issue('bad-record', unit.file, unit.line, `${what} ${index}: ${message}; skipped`);
}

/** A non-empty string, or undefined. */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
