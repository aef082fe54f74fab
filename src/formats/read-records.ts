/**
 * From an input's bytes to parsed records, whatever the layout: each JSON Lines line, each top-level value,
 * or each element of a top-level array. An array whose elements are conversation parts (messages or
 * Responses items) is one record, a bare conversation; otherwise its elements are records of their own.
 * Every line or element skipped is an issue.
 */
import type { Layout } from './detect-layout.js';
import { splitJson } from './json-array-splitter.js';
import { isRecord, parseJson } from './json-value.js';
import { MAX_JSON_VALUES, countJsonValues } from './json-value-count.js';
import { readLineBatches } from './line-reader.js';
import { type TraceIssue, issue } from './trace-record.js';
import type { RawLine, RouteGate } from './routed-lines.js';

/** One parsed record and where it came from. */
export interface RecordUnit {
  readonly kind: 'record';
  /** The parsed JSON value. */
  readonly value: unknown;
  /** The input it was read from. */
  readonly file: string;
  /** 1-based line where it starts. */
  readonly line: number;
  /** Session id for a record that names none: `<file>:<line>`, or `<file>#<index>` for an element of the input's first array. */
  readonly fallbackSession: string;
}

/** Where the records come from. */
export interface RecordOptions {
  readonly file: string;
  readonly maxLineBytes: number;
  readonly layout: Layout;
  /** While active, JSON Lines lines routed by their first bytes come out as RawLines, unparsed (routed-lines.ts). */
  readonly route?: RouteGate;
}

/** Whether `v` holds a whole session (messages, Responses items or a trajectory) rather than being part of one. */
export function isSessionContainer(v: unknown): boolean {
  if (!isRecord(v)) return false;
  return Array.isArray(v.messages) || Array.isArray(v.items) || Array.isArray(v.input) || Array.isArray(v.trajectory) || (Array.isArray(v.output) && typeof v.type !== 'string');
}

/** Whether `v` is a message or a Responses item: an object with a `role` or `type`, no `tool`, holding no session. */
export function isConversationPart(v: unknown): boolean {
  return isRecord(v) && (typeof v.role === 'string' || typeof v.type === 'string') && typeof v.tool !== 'string' && !isSessionContainer(v);
}

/** The records of one input, with an issue for each line or element skipped. */
export async function* readRecords(bytes: AsyncIterable<Uint8Array>, options: Omit<RecordOptions, 'route'>): AsyncGenerator<RecordUnit | TraceIssue> {
  // no route: no line comes out unparsed
  for await (const batch of readRecordBatches(bytes, options)) yield* batch as (RecordUnit | TraceIssue)[];
}

/**
 * {@link readRecords} a batch at a time: the records and issues of each batch of lines (see
 * `readLineBatches`), or of each JSON piece, as one array (never empty).
 */
export async function* readRecordBatches(bytes: AsyncIterable<Uint8Array>, options: RecordOptions): AsyncGenerator<(RecordUnit | TraceIssue | RawLine)[]> {
  const { file } = options;
  let first = true;
  /** Records of a value read whole at `line`, into `out`: one, or the elements of an array that are not parts of one conversation. */
  function whole(value: unknown, line: number, out: (RecordUnit | TraceIssue | RawLine)[]): void {
    const prefix = first ? file : `${file}:${line}`;
    first = false;
    if (!Array.isArray(value) || value.length === 0 || isConversationPart(value[0])) {
      out.push({ kind: 'record', value, file, line, fallbackSession: `${file}:${line}` });
      return;
    }
    for (let i = 0; i < value.length; i++) out.push({ kind: 'record', value: value[i], file, line, fallbackSession: `${prefix}#${i}` });
  }
  if (options.layout === 'lines') {
    for await (const lines of readLineBatches(bytes, options)) {
      const out: (RecordUnit | TraceIssue | RawLine)[] = [];
      for (const l of lines) {
        if (l.kind === 'raw') {
          first = false;
          out.push(l);
          continue;
        }
        if (l.kind === 'issue') {
          first = false;
          out.push(l);
          continue;
        }
        if (l.text.trim() === '') continue;
        const p = parseJson(l.text);
        if (p.ok) whole(p.value, l.line, out);
        else {
          first = false;
          out.push(issue('invalid-json', file, l.line, p.message));
        }
      }
      if (out.length > 0) yield out;
    }
    return;
  }
  let group: unknown[] | null = null;
  // the text of a bare conversation's parts held so far: past maxLineBytes, as a document read whole, it is skipped
  let groupBytes = 0;
  // ... and its values: past MAX_JSON_VALUES, as a document read whole, it is skipped too (json-value-count.ts)
  let groupValues = 0;
  let overflow = false;
  let decided = false;
  let prefix = file;
  for await (const piece of splitJson(bytes, options)) {
    const out: (RecordUnit | TraceIssue)[] = [];
    if (piece.kind === 'issue') out.push(piece);
    else if (piece.kind === 'value') {
      const p = parseJson(piece.text);
      if (p.ok) whole(p.value, piece.line, out);
      else out.push(issue('invalid-json', file, piece.line, p.message));
      first = false;
    } else if (piece.kind === 'array-end') {
      if (group !== null && group.length > 0) out.push({ kind: 'record', value: group, file, line: piece.arrayLine, fallbackSession: `${file}:${piece.arrayLine}` });
      group = null;
      groupBytes = 0;
      groupValues = 0;
      overflow = false;
      decided = false;
      first = false;
    } else if (overflow) {
      // the rest of a conversation over the limit: not parsed, not held
    } else if (group !== null && groupBytes + piece.text.length > options.maxLineBytes) {
      out.push(issue('too-long', file, piece.arrayLine, `conversation of more than ${options.maxLineBytes} bytes (at element ${piece.index}) is longer than maxLineBytes (${options.maxLineBytes}); skipped`));
      group = null;
      overflow = true;
    } else if (group !== null && (groupValues += countJsonValues(piece.text) + 1) > MAX_JSON_VALUES) {
      out.push(issue('too-long', file, piece.arrayLine, `conversation of more than ${MAX_JSON_VALUES} JSON values (at element ${piece.index}); skipped`));
      group = null;
      overflow = true;
    } else {
      const p = parseJson(piece.text);
      if (!p.ok) out.push(issue('invalid-json', file, piece.line, `element ${piece.index}: ${p.message}`));
      else {
        if (!decided) {
          decided = true;
          group = isConversationPart(p.value) ? [] : null;
          prefix = first ? file : `${file}:${piece.arrayLine}`;
        }
        if (group !== null) {
          group.push(p.value);
          groupBytes += piece.text.length;
        }
        else out.push({ kind: 'record', value: p.value, file, line: piece.line, fallbackSession: `${prefix}#${piece.index}` });
      }
    }
    if (out.length > 0) yield out;
  }
}
