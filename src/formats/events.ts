/**
 * The loopwatch events format: JSON Lines, one tool call per line,
 * `{session, step?, tool, args, result?, error?, text?, round?, description?}`, sessions interleaved.
 * A call comes out as soon as its line is read; the reader keeps nothing per session (memory does not grow
 * with the sessions of a file), so its sessions end with the input (the `input-end` item). A record's
 * `error` (other than null, false or "") makes a known failure, its absence a known success. Lines without a `session` belong to one session named by the input.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import { isRecord, sessionField } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { toolEvent } from './session-calls.js';
import { type TraceIssue, type TraceItem, issue } from './trace-record.js';

/** Whether an `error` field reports a failure (as `LoopDetector` reads it: not null, false or ""). */
export function isFailure(error: unknown): boolean {
  return error !== undefined && error !== null && error !== false && error !== '';
}

/** Why the optional `field` of `r` cannot be used, or null. */
function wrongType(r: Record<string, unknown>, field: string, type: 'string' | 'number'): string | null {
  const v = r[field];
  if (v === undefined || v === null) return null;
  if (type === 'string' ? typeof v === 'string' : typeof v === 'number' && Number.isFinite(v)) return null;
  return `"${field}" must be ${type === 'string' ? 'a string' : 'a finite number'}, received ${describe(v)}`;
}

/** A reader of the events format for `input`. */
export function createEventsReader(input: InputName): FormatReader {
  const bad = (unit: RecordUnit, message: string): TraceIssue => issue('bad-record', unit.file, unit.line, `${message}; skipped`);
  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const r = unit.value;
      if (!isRecord(r)) return yield bad(unit, `expected an object with a "tool", received ${describe(r)}`);
      if (typeof r.tool !== 'string' || r.tool === '') return yield bad(unit, `"tool" must be a non-empty string, received ${describe(r.tool)}`);
      const s = sessionField(r);
      if (!s.ok) return yield bad(unit, s.message);
      const why = wrongType(r, 'step', 'number') ?? wrongType(r, 'round', 'number') ?? wrongType(r, 'text', 'string') ?? wrongType(r, 'description', 'string');
      if (why !== null) return yield bad(unit, why);
      const session = s.id ?? input.file;
      const failed = isFailure(r.error);
      const event = toolEvent(r.tool, r.args, r.result, failed ? r.error : undefined, (r.text ?? undefined) as string | undefined, (r.step ?? undefined) as number | undefined, (r.round ?? undefined) as number | undefined);
      const withDescription = typeof r.description === 'string' ? { ...event, description: r.description } : event;
      yield { kind: 'call', session, event: withDescription, errorInfo: failed ? 'known' : 'absent', file: unit.file, line: unit.line };
    },
    *finish(): Generator<TraceItem> {
      // the sessions end with the input
    },
  };
}
