/**
 * An events-format record's bytes straight to a call, without `JSON.parse` of the record: the module
 * checks the bytes (`assembly/event-line.ts`) and says where the values of `session`, `tool`, `args`,
 * `result`, `error`, `text`, `step`, `round` and `description` are; only those become JavaScript values. A
 * string result stays bytes (a RawJsonString, which the module decodes where it copies it). Args that are
 * an object or an array stay JSON text in the line's bytes (a JsonArgsText): the module fingerprints the
 * bytes without building objects, the outcome facts read the few members they need from the spans the
 * module noted, and the host parses the text only if a detector or a verdict needs the value (`parseArgs`
 * reads JSON text and the parsed value alike, so verdicts do not change). Calls given as bytes
 * (`checkLines`, src/wire/event-bytes.ts) are read this way; a pool's calling thread only asks for the
 * session ({@link eventLineSession}).
 *
 * A record is taken only when the result is exactly what `JSON.parse` and the events reader
 * (`events.ts`) make of it; any other (outside ASCII, not valid JSON, a field of an unexpected type, a
 * session named by `id`, a member named twice, ...) gives null and goes the parsing way, which words its
 * issue. Property tests hold the two ways to the same calls (test/formats-event-line.test.ts).
 */
import * as A from '../wasm/generated/abi.js';
import { JsonArgsText } from '../fingerprint/json-args-text.js';
import { RawJsonString } from '../wasm/raw-json-string.js';
import { sharedInstance } from '../wasm/wasm-module.js';
import { toolEvent } from './session-calls.js';
import { MAX_NESTING } from './trace-record.js';
import type { ToolEvent } from '../types.js';

/** Longest line the module reads (longer ones are parsed whole: the module's memory never shrinks). */
export const MAX_FAST_LINE_BYTES = 1 << 20;

/** Bytes the module may read past a line's end (its string scan loads 16 at a time). */
const SLACK = 16;

const NOT_TAKEN = Symbol('not taken');

/** A line's bytes, its field table and how to make its values. */
class LineFields {
  text!: Buffer;
  u32!: Uint32Array;
  at = 0;

  kind(f: number): number {
    return this.u32[this.at + f * 4] as number;
  }

  /** Bytes of field `f`'s JSON text (a string's with its quotes). */
  span(f: number): number {
    const e = this.at + f * 4;
    return (this.u32[e + 2] as number) - (this.u32[e + 1] as number);
  }

  /** The JSON text of field `f`'s value. */
  raw(f: number): string {
    const e = this.at + f * 4;
    return this.text.latin1Slice(this.u32[e + 1] as number, this.u32[e + 2] as number);
  }

  /** Field `f`, a string: its value (decoded by JSON.parse only when it holds an escape). */
  str(f: number): string {
    const e = this.at + f * 4;
    const start = this.u32[e + 1] as number;
    const end = this.u32[e + 2] as number;
    return this.u32[e + 3] === 0 ? this.text.latin1Slice(start + 1, end - 1) : (JSON.parse(this.text.latin1Slice(start, end)) as string);
  }

  /** Field `f`'s value as JSON.parse makes it (undefined when absent). */
  value(f: number): unknown {
    const k = this.kind(f);
    if (k === A.K_ABSENT) return undefined;
    if (k === A.K_STRING) return this.str(f);
    return JSON.parse(this.raw(f)) as unknown;
  }

  /** Field `f`'s value, with a string kept as its bytes (see RawJsonString). */
  rawValue(f: number): unknown {
    if (this.kind(f) !== A.K_STRING) return this.value(f);
    const e = this.at + f * 4;
    return new RawJsonString(this.text.subarray(this.u32[e + 1] as number, this.u32[e + 2] as number), this.u32[e + 3] !== 0);
  }

  /** An optional string field (absent or null: undefined), or NOT_TAKEN for any other type. */
  optionalString(f: number): string | undefined | typeof NOT_TAKEN {
    const k = this.kind(f);
    if (k === A.K_ABSENT || k === A.K_NULL) return undefined;
    return k === A.K_STRING ? this.str(f) : NOT_TAKEN;
  }

  /** An optional finite number field (absent or null: undefined), or NOT_TAKEN otherwise. */
  optionalNumber(f: number): number | undefined | typeof NOT_TAKEN {
    const k = this.kind(f);
    if (k === A.K_ABSENT || k === A.K_NULL) return undefined;
    if (k !== A.K_NUMBER) return NOT_TAKEN;
    const n = Number(this.raw(f));
    return Number.isFinite(n) ? n : NOT_TAKEN;
  }
}

const fields = new LineFields();
const EMPTY = Buffer.alloc(0);

/**
 * Copies a line into the module's bytes area, with `slack` bytes after it that the module may read (never
 * counted): the line's address there, or 0 when it is longer than MAX_FAST_LINE_BYTES or memory is full.
 */
export function copyLineIn(bytes: Uint8Array, slack: number): number {
  if (bytes.length > MAX_FAST_LINE_BYTES) return 0;
  const wasm = sharedInstance();
  const ptr = wasm.exports.reserveBytes(bytes.length + slack);
  if (ptr !== 0) wasm.views().u8.set(bytes, ptr);
  return ptr;
}

/** `bytes` as a Buffer over the same memory (itself when it is one), for Node's string decoders. */
export function bufferOver(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Scans `bytes` into the shared field table; false when the line must be parsed the usual way. */
function scan(bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (n < 2) return false;
  const ptr = copyLineIn(bytes, SLACK);
  if (ptr === 0) return false;
  const wasm = sharedInstance();
  if (wasm.exports.scanEventLine(ptr, n, MAX_NESTING) !== A.LINE_OK) return false;
  const f = fields;
  f.text = bufferOver(bytes);
  f.u32 = wasm.views().u32;
  f.at = wasm.exports.lineFields() >>> 2;
  return true;
}

/**
 * Whether the scanned line is a call the events reader reads as this module does (its checks, in its
 * order, on the field kinds alone): anything it would refuse, or read another way, is not taken.
 */
function accepted(f: LineFields): boolean {
  if (f.kind(A.LF_TRAJECTORY) === A.K_ARRAY) return false; // a SWE-agent trajectory
  // a string literal of more than its two quotes is not empty, escapes or not
  if (f.kind(A.LF_TOOL) !== A.K_STRING || f.span(A.LF_TOOL) <= 2) return false;
  if (f.kind(A.LF_SESSION) !== A.K_STRING || f.span(A.LF_SESSION) <= 2) return false;
  for (const n of [A.LF_STEP, A.LF_ROUND]) if (f.optionalNumber(n) === NOT_TAKEN) return false;
  for (const t of [A.LF_TEXT, A.LF_DESCRIPTION]) {
    const k = f.kind(t);
    if (k !== A.K_ABSENT && k !== A.K_NULL && k !== A.K_STRING) return false;
  }
  return true;
}

/** A call read from its record's bytes, and the session the record names. */
export interface LineCall {
  readonly session: string;
  readonly event: ToolEvent;
}

/** The call an events-format record holds, read from its bytes; null when it must be parsed the usual way. */
export function readEventLine(bytes: Uint8Array): LineCall | null {
  if (!scan(bytes)) return null;
  try {
    return accepted(fields) ? callOf(fields) : null;
  } finally {
    fields.text = EMPTY;
  }
}

/**
 * The session of the call an events-format line holds, when {@link readEventLine} reads the line from its
 * bytes (null otherwise): what a pool needs to route the line, without making its other values.
 */
export function eventLineSession(bytes: Uint8Array): string | null {
  if (!scan(bytes)) return null;
  try {
    return accepted(fields) ? fields.str(A.LF_SESSION) : null;
  } finally {
    fields.text = EMPTY;
  }
}

/**
 * The args' JSON text in the line's bytes, with the spans of the members the module noted (for an object
 * whose noted members are all strings or null, and whose keys hold no escape; else the members are read
 * from the parsed args).
 */
function argsText(f: LineFields, object: boolean): JsonArgsText {
  const e = f.at + A.LF_ARGS * 4;
  const u32 = f.u32;
  return new JsonArgsText(f.text, u32[e + 1] as number, u32[e + 2] as number, object ? memberSpans(f) : null);
}

/** [member, start, end, escaped] of each noted member (start -1 for null), or null when one is of another kind. */
function memberSpans(f: LineFields): number[] | null {
  const u32 = f.u32;
  if (u32[f.at + A.AF_KEY_ESCAPED * 4] !== 0) return null;
  const spans: number[] = [];
  for (let m = 0; m < A.AF_COUNT; m++) {
    const e = f.at + (A.AF_FIRST + m) * 4;
    const k = u32[e] as number;
    if (k === A.K_ABSENT) continue;
    if (k === A.K_STRING) spans.push(m, u32[e + 1] as number, u32[e + 2] as number, u32[e + 3] as number);
    else if (k === A.K_NULL) spans.push(m, -1, 0, 0);
    else return null;
  }
  return spans;
}

function callOf(f: LineFields): LineCall {
  const tool = f.str(A.LF_TOOL);
  const session = f.str(A.LF_SESSION);
  const step = f.optionalNumber(A.LF_STEP) as number | undefined;
  const round = f.optionalNumber(A.LF_ROUND) as number | undefined;
  const text = f.optionalString(A.LF_TEXT) as string | undefined;
  const description = f.optionalString(A.LF_DESCRIPTION) as string | undefined;
  const error = f.value(A.LF_ERROR);
  const failed = error !== undefined && error !== null && error !== false && error !== '';
  const argsKind = f.kind(A.LF_ARGS);
  const args = argsKind === A.K_OBJECT || argsKind === A.K_ARRAY ? argsText(f, argsKind === A.K_OBJECT) : f.value(A.LF_ARGS);
  const event = toolEvent(tool, args, f.rawValue(A.LF_RESULT), failed ? error : undefined, text, step, round);
  return { session, event: description === undefined ? event : { ...event, description } };
}
