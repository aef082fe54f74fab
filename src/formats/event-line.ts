/**
 * The events format's line bytes straight to a call, without `JSON.parse` of the line: the module checks
 * the line (`assembly/event-line.ts`) and says where the values of `session`, `tool`, `args`, `result`,
 * `error`, `text`, `step`, `round` and `description` are; only those become JavaScript values. Args that
 * are an object or an array stay JSON text (as OpenAI delivers them): the module fingerprints the text
 * without building objects, and the host parses it only if a detector or a verdict needs the value
 * (`parseArgs` reads JSON text and the parsed value alike, so verdicts do not change).
 *
 * A line is taken only when the result is exactly what `JSON.parse` and the events reader
 * (`events.ts`) make of it; any other line (outside ASCII, not valid JSON, a field of an unexpected type,
 * a session named by `id`, a member named twice, ...) gives null and goes the parsing way, which words its
 * issue. Property tests hold the two ways to the same items (test/formats-event-line.test.ts).
 */
import * as A from '../wasm/generated/abi.js';
import { RawJsonString } from '../wasm/raw-json-string.js';
import { sharedInstance } from '../wasm/wasm-module.js';
import { toolEvent } from './session-calls.js';
import { MAX_NESTING, type TraceCall } from './trace-record.js';
import type { ToolEvent } from '../types.js';

/** Longest line read this way (longer ones are parsed whole: the module's memory never shrinks). */
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

/**
 * The call an events-format line holds, read from its bytes (`line`: its 1-based number, `file`: the
 * input); null when the line must be parsed the usual way.
 */
export function readEventLine(bytes: Uint8Array, file: string, line: number): TraceCall | null {
  const n = bytes.length;
  if (n < 2 || n > MAX_FAST_LINE_BYTES) return null;
  const wasm = sharedInstance();
  const ptr = wasm.exports.reserveBytes(n + SLACK);
  if (ptr === 0) return null;
  const views = wasm.views();
  views.u8.set(bytes, ptr);
  if (wasm.exports.scanEventLine(ptr, n, MAX_NESTING) !== A.LINE_OK) return null;
  const f = fields;
  f.text = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  f.u32 = views.u32;
  f.at = wasm.exports.lineFields() >>> 2;
  try {
    return callOf(f, file, line);
  } finally {
    f.text = EMPTY;
  }
}

const EMPTY = Buffer.alloc(0);

function callOf(f: LineFields, file: string, line: number): TraceCall | null {
  // the events reader's checks, in its order; anything it would refuse (or read another way) is not taken
  if (f.kind(A.LF_TRAJECTORY) === A.K_ARRAY) return null; // a SWE-agent trajectory
  if (f.kind(A.LF_TOOL) !== A.K_STRING || f.kind(A.LF_SESSION) !== A.K_STRING) return null;
  const tool = f.str(A.LF_TOOL);
  const session = f.str(A.LF_SESSION);
  if (tool === '' || session === '') return null;
  const step = f.optionalNumber(A.LF_STEP);
  const round = f.optionalNumber(A.LF_ROUND);
  const text = f.optionalString(A.LF_TEXT);
  const description = f.optionalString(A.LF_DESCRIPTION);
  if (step === NOT_TAKEN || round === NOT_TAKEN || text === NOT_TAKEN || description === NOT_TAKEN) return null;
  const error = f.value(A.LF_ERROR);
  const failed = error !== undefined && error !== null && error !== false && error !== '';
  const argsKind = f.kind(A.LF_ARGS);
  const args = argsKind === A.K_OBJECT || argsKind === A.K_ARRAY ? f.raw(A.LF_ARGS) : f.value(A.LF_ARGS);
  const event = toolEvent(tool, args, f.rawValue(A.LF_RESULT), failed ? error : undefined, text, step, round);
  const withDescription: ToolEvent = description === undefined ? event : { ...event, description };
  return { kind: 'call', session, event: withDescription, errorInfo: failed ? 'known' : 'absent', file, line };
}
