/**
 * What reaches a worker thread unchanged. A LoopPool sends JSON data as it is, and other values by
 * structured clone, which keeps Map, Set, Date, BigInt, typed arrays, NaN, -0 and cycles, but cannot take
 * functions, symbols, Proxies or very deep values, and changes some values it takes: a class instance
 * arrives as a plain object (its toJSON left behind), a Buffer as a Uint8Array, an Error without its own
 * fields. A value whose clone the engine would read differently (another fingerprint, another JSON text)
 * is refused like one that cannot be cloned, so a pool's answer is always the engine's. Errors go as their
 * text (all the engine reads of them), so any error the engine can read reaches a worker.
 *
 * `strictValues: true` makes a LoopDetector or LoopEngine refuse exactly what a pool refuses
 * (assertSendable, below), with the same messages.
 */
import { deserialize, serialize } from 'node:v8';
import { type CanonicalWalkOptions, hashValue } from '../fingerprint/canonical-hash.js';
import { u64 } from '../fingerprint/u64.js';
import { InvalidEventError } from '../errors.js';
import { errorText, resultText } from '../text/outcome-text.js';
import type { ToolEvent } from '../types.js';
import { JsonArgsText } from '../fingerprint/json-args-text.js';
import { RawJsonString } from '../wasm/raw-json-string.js';
import { writeTree } from './value-tree.js';

/** The deepest walk an engine may make of args (options.maxDepth is at most 1024). */
const DEEPEST: CanonicalWalkOptions = { ignoreKeys: null, maxDepth: 1024 };

/** The fingerprint and JSON text the engine reads of a value. */
function reading(v: unknown): string {
  const lo = hashValue(v, DEEPEST);
  return `${u64.hi}:${lo}:${resultText(v)}`;
}

/**
 * The structured clone of `v` as bytes, when the clone reads to the engine as `v` does; else throws a
 * TypeError saying why (it cannot be cloned, or would not arrive unchanged).
 */
export function cloneBytes(v: unknown): Buffer {
  let bytes: Buffer;
  try {
    bytes = serialize(v);
  } catch (err) {
    throw new TypeError(`it cannot be sent to a worker thread (${err instanceof Error ? err.message : String(err)})`);
  }
  let same = false;
  try {
    same = reading(deserialize(bytes)) === reading(v);
  } catch {
    same = false;
  }
  if (!same) throw new TypeError('it cannot be sent to a worker thread unchanged (a structured clone drops prototypes: a class instance arrives without its toJSON, a Buffer as a Uint8Array, an Error without its own fields)');
  return bytes;
}

/**
 * An event's error as it travels: itself when absent, a string, null or false; else its text (`true` for
 * an empty one, which errorText reads back as ''), which is all the engine reads of it.
 */
export function errorOnTheWire(error: unknown): unknown {
  if (error === undefined || error === null || error === false || typeof error === 'string') return error;
  const text = errorText(error);
  return text === '' ? true : text;
}

/**
 * Throws the InvalidEventError writeCheck (pool/event-packing.ts) would throw when a field of a validated
 * event cannot reach a worker thread unchanged, without packing it: a shard in the calling thread, and an
 * engine or a LoopDetector with `strictValues`, refuse exactly what worker shards refuse, so a call gets the
 * same answer wherever it runs. (Errors always can: they travel as their text.)
 */
export function assertSendable(e: ToolEvent): void {
  assertFieldSendable('args', e.args);
  assertFieldSendable('result', e.result);
}

function assertFieldSendable(field: string, v: unknown): void {
  if (v === undefined || typeof v === 'string' || RawJsonString.is(v) || JsonArgsText.is(v)) return;
  let tree = false;
  try {
    tree = writeTree(null, v, 0);
  } catch {
    // a getter threw: the structured clone below says so
  }
  if (tree) return;
  try {
    cloneBytes(v);
  } catch (err) {
    throw new InvalidEventError(field, `event.${field}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
