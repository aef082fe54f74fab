/**
 * Calls packed into bytes for the trip to a worker thread: one buffer per batch, transferred, not
 * structured-cloned object by object. Strings go as UTF-8 (or UTF-16 units when not well-formed, so lone
 * surrogates arrive intact); args and results that are JSON data go as a tree of tagged values (strings
 * copied, never escaped) and come back as the same values; anything else (a Map, a Date, a BigInt, NaN,
 * -0, cycles) goes through `v8.serialize`, the structured clone, when the worker reads it as the caller's
 * value (see wire/portable-values.ts); errors go as their text.
 *
 * Each operation: `op u8 | session str | ...`; a check carries the event's fields after its session. A
 * two-phase call (PROPOSE, RECORD, DECLINE) is packed as a check whose op byte says its phase, followed by
 * its call id: `op | session | event fields | id optStr`, so it travels in the same batches as checks, in order.
 */
import { RawJsonString } from '../wasm/raw-json-string.js';
import { readEventLine } from '../formats/event-line.js';
import { sessionEvent } from '../wire/session-event.js';
import { atLine, parsedEvent } from '../wire/event-bytes.js';
import { validateEvent } from '../session/observe-event.js';
import { deserialize } from 'node:v8';
import { InvalidEventError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { ToolEvent } from '../types.js';
import type { ArgsEncoder } from '../wasm/args-encoder.js';
import { EncodedArgs } from '../wasm/encoded-args.js';
import { cloneBytes, errorOnTheWire } from '../wire/portable-values.js';
import { readTree, writeTree } from '../wire/value-tree.js';

/** Operations in a batch, applied in order by the worker. */
export const Op = {
  /** Check one call of a session. */
  CHECK: 0,
  /** Feed streamed text to a session's chanting detector. */
  TEXT: 1,
  /** End a session. */
  END: 2,
  /** Take a session's snapshot. */
  SNAPSHOT: 3,
  /** Restore a session from a snapshot. */
  RESTORE: 4,
  /** Report the worker's engine stats. */
  STATS: 5,
  /** Check a session's call before it runs (LoopEngine.propose). */
  PROPOSE: 6,
  /** Record a session's call that ran, with its outcome (LoopEngine.record). */
  RECORD: 7,
  /** Say a session's proposed call was declined and did not run (LoopEngine.decline). */
  DECLINE: 8,
  /** Check one call given as its events-format record's bytes (read in the worker: see LoopPool.checkLines). */
  LINE: 9,
  /** Give a session a fresh start (a person's new prompt: LoopEngine.freshStart). */
  FRESH: 10,
} as const;

/** One of {@link Op}'s values. */
export type OpCode = (typeof Op)[keyof typeof Op];

/** The operations of two-phase calls. */
export type LiveOpCode = typeof Op.PROPOSE | typeof Op.RECORD | typeof Op.DECLINE;

/** Whether `op` is a two-phase call's. */
export function isLiveOp(op: OpCode): op is LiveOpCode {
  return op === Op.PROPOSE || op === Op.RECORD || op === Op.DECLINE;
}

const ABSENT = 0;
const STRING = 1;
const TREE = 2;
const CLONE = 3;
/** Args in the module's value encoding (ArgsEncoder, EncodedArgs): the worker hands the bytes to the module as they are. */
export const ENCODED = 4;
/** A string still in its JSON bytes (a RawJsonString): the literal, escapes and all, and whether it has any. */
const RAW_STRING = 5;

/**
 * Writes a value: absent, a string, a tree of JSON data, or a structured clone. Throws (a TypeError naming
 * why) when the value cannot be cloned (a function, a symbol, a Proxy...) or would not arrive unchanged.
 */
function writeValue(w: ByteWriter, v: unknown): void {
  if (v === undefined) {
    w.u8(ABSENT);
    return;
  }
  if (typeof v === 'string') {
    w.u8(STRING);
    w.str(v);
    return;
  }
  if (RawJsonString.is(v)) {
    // the worker's module decodes it: it travels as the bytes it was read from
    w.u8(RAW_STRING);
    w.bool(v.escaped);
    w.bytes(v.literal);
    return;
  }
  const mark = w.length;
  w.u8(TREE);
  try {
    if (writeTree(w, v, 0)) return;
  } catch {
    // a getter threw: the structured clone below says so
  }
  w.length = mark;
  const bytes = cloneBytes(v);
  w.u8(CLONE);
  w.bytes(bytes);
}

function readValue(r: ByteReader): unknown {
  const tag = r.u8();
  switch (tag) {
    case ENCODED:
      return new EncodedArgs(r.latin1());
    case RAW_STRING: {
      // a view of the batch: a check keeps no result past itself (see RawJsonString.literal)
      const escaped = r.bool();
      return new RawJsonString(r.view(), escaped);
    }
    case ABSENT:
      return undefined;
    case STRING:
      return r.str();
    case TREE:
      return readTree(r);
    case CLONE:
      return deserialize(r.bytes()) as unknown;
    default:
      throw new Error(`loopwatch: a packed batch is corrupt (value tag ${tag})`);
  }
}

function optNumber(w: ByteWriter, v: number | undefined): void {
  if (v === undefined) w.u8(0);
  else {
    w.u8(1);
    w.f64(v);
  }
}

/**
 * Writes a check of a validated event (its args encoded for the module when `argsEncoder` can). Throws an
 * InvalidEventError naming the field when a value cannot be sent; the writer is then rolled back to where
 * it was.
 */
export function writeCheck(w: ByteWriter, session: string, e: ToolEvent, argsEncoder: ArgsEncoder | null = null): void {
  const mark = w.length;
  let field = 'args';
  try {
    w.u8(Op.CHECK);
    w.str(session);
    w.str(e.tool);
    if (argsEncoder === null || !argsEncoder.write(w, e.tool, e.args)) writeValue(w, e.args);
    field = 'result';
    writeValue(w, e.result);
    field = 'error';
    writeValue(w, errorOnTheWire(e.error));
    w.optStr(e.text);
    w.optStr(e.description);
    optNumber(w, e.step);
    optNumber(w, e.round);
  } catch (err) {
    w.length = mark;
    throw new InvalidEventError(field, `event.${field}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Writes a two-phase call of a validated event: a check (see writeCheck, which throws the same way) whose op
 * byte says its phase, then its call id.
 */
export function writeLive(w: ByteWriter, op: LiveOpCode, session: string, id: string | undefined, e: ToolEvent, argsEncoder: ArgsEncoder | null = null): void {
  const mark = w.length;
  writeCheck(w, session, e, argsEncoder);
  w.patchU8(mark, op);
  w.optStr(id);
}

/**
 * Writes a check of a call given as its events-format record's bytes (line `index` of the caller's batch),
 * routed by `session`: the worker reads the bytes (see readOp).
 */
export function writeLine(w: ByteWriter, session: string, index: number, bytes: Uint8Array): void {
  w.u8(Op.LINE);
  w.str(session);
  w.u32(index);
  w.bytes(bytes);
}

/** Writes an operation on a session that carries no event: TEXT (with `text`), END, SNAPSHOT, RESTORE (with `bytes`), STATS, FRESH. */
export function writeOp(w: ByteWriter, op: Exclude<OpCode, typeof Op.CHECK | typeof Op.LINE | LiveOpCode>, session: string, text?: string, bytes?: Uint8Array): void {
  w.u8(op);
  w.str(session);
  if (op === Op.TEXT) w.str(text ?? '');
  if (op === Op.RESTORE) w.bytes(bytes ?? new Uint8Array(0));
}

/** An operation read back from a batch. */
export interface PackedOp {
  readonly op: OpCode;
  readonly session: string;
  /** CHECK and two-phase calls: the event (with its session). */
  readonly event?: ToolEvent & { readonly session: string };
  /** Two-phase calls: the caller's call id, when given. */
  readonly id?: string;
  /** TEXT: the text. */
  readonly text?: string;
  /** RESTORE: the snapshot. */
  readonly bytes?: Uint8Array;
  /** LINE: why the record holds no call to check (the error its line gets in its place). */
  readonly error?: Error;
  /** A CHECK read from a LINE (its facts go back: wire/routed-line.ts). */
  readonly line?: true;
}

/** Reads the next operation. */
export function readOp(r: ByteReader): PackedOp {
  const op = r.u8() as OpCode;
  const session = r.str();
  switch (op) {
    case Op.CHECK:
    case Op.PROPOSE:
    case Op.RECORD:
    case Op.DECLINE: {
      const tool = r.str();
      const args = readValue(r);
      const result = readValue(r);
      const error = readValue(r);
      const text = r.optStr();
      const description = r.optStr();
      const step = r.bool() ? r.f64() : undefined;
      const round = r.bool() ? r.f64() : undefined;
      const event = { session, tool, args, result, error, text, description, step, round };
      return op === Op.CHECK ? { op, session, event } : { op, session, event, id: r.optStr() };
    }
    case Op.LINE: {
      // a view of the batch: what the call keeps of its line (strings, and a result no check keeps) is copied out
      const index = r.u32();
      const bytes = r.view();
      const read = lineEvent(bytes, index, session);
      return read instanceof Error ? { op, session, error: read } : { op: Op.CHECK, session, event: read, line: true };
    }
    case Op.TEXT:
      return { op, session, text: r.str() };
    case Op.RESTORE:
      return { op, session, bytes: r.bytes() };
    case Op.END:
    case Op.SNAPSHOT:
    case Op.STATS:
    case Op.FRESH:
      return { op, session };
    default:
      throw new Error(`loopwatch: a packed batch is corrupt (operation ${String(op)})`);
  }
}

/**
 * The call a routed line holds, as the calling thread would have read it (LoopPool.enqueueLine): from its
 * bytes, or parsed and validated, with the same error in its place when it holds none. A line whose
 * session is not the one it was routed by (never, by line-route.ts) is an error too, never checked in
 * another session's worker.
 */
export function lineEvent(bytes: Uint8Array, index: number, session: string): (ToolEvent & { readonly session: string }) | Error {
  const fast = readEventLine(bytes);
  if (fast !== null) return fast.session === session ? sessionEvent(session, fast.event) : misrouted(index);
  // declined from its bytes: parsed (not read from its bytes a second time)
  const e = atLine(parsedEvent(bytes), index);
  if (e instanceof Error) return e;
  if (e.session !== session) return misrouted(index);
  try {
    return sessionEvent(session, validateEvent(e));
  } catch (err) {
    return err instanceof InvalidEventError ? new InvalidEventError(err.field, `events[${index}]: ${err.message}`) : (err as Error);
  }
}

function misrouted(index: number): Error {
  return new Error(`loopwatch: lines[${index}] names another session than the one it was routed by`);
}
