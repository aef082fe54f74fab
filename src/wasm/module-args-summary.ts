/**
 * Similar args' summary (text/args-summary.ts) of args that already lie in the module's memory (a record's
 * args section), made by the module where they lie: no JSON.parse or decoding of the args, no walk of a
 * value. Two forms are read: JSON text (written from an events-format line's bytes; assembly/args-summary.ts),
 * whose summary equals `summarizeArgs(JSON.parse(text))` byte for byte, and the value encoding (a pool
 * worker's EncodedArgs; assembly/args-summary-encoded.ts), whose summary equals
 * `summarizeArgs(decodeJsonData(bytes))`; or none is made and the caller summarises the parsed (decoded)
 * args as before (test/similar-args-summary-from-bytes.test.ts, similar-args-summary-from-encoding.test.ts).
 *
 * The module writes it in the area it keeps for host bytes (`reserveBytes`, made with the thread's instance:
 * wasm-module.ts, HOST_BYTES_AREA), which this never makes or grows: it runs while a batch's records are
 * written, through views that growing the memory would detach. Read the summary before anything else runs
 * in the module.
 */
import * as A from './generated/abi.js';
import { sharedInstance } from './wasm-module.js';

/** Where the last summary made lies: in `bytes` (the module's memory), `length` bytes at `at`. */
export const moduleSummary: { bytes: Uint8Array<ArrayBufferLike>; at: number; length: number } = { bytes: new Uint8Array(0), at: 0, length: 0 };

/** The two forms of args the module summarises. */
type SummaryExport = 'summarizeJsonArgs' | 'summarizeEncodedArgs';

/** Has the module summarise the `len` bytes at `at` of `memory` with `reader` (see the callers). */
function summaryBy(reader: SummaryExport, memory: Uint8Array, at: number, len: number): boolean {
  const inst = sharedInstance();
  const { u8, u32 } = inst.views();
  if (u8.buffer !== memory.buffer) return false;
  const area = u32[(A.HEADER + A.H_BYTES) >>> 2] as number;
  const size = u32[(A.HEADER + A.H_BYTES_SIZE) >>> 2] as number;
  if (area === 0) return false;
  const n = inst.exports[reader](at, len, area, size) >>> 0;
  if (n === 0) return false;
  moduleSummary.bytes = inst.views().u8;
  moduleSummary.at = area;
  moduleSummary.length = n;
  return true;
}

/**
 * Summarises the `len` bytes of JSON text at `at` of `memory` (a view of the thread's module's memory):
 * true with the summary in {@link moduleSummary}; false when the module made none (see
 * assembly/args-summary.ts for when), or when `memory` is not that module's.
 */
export function moduleJsonSummary(memory: Uint8Array, at: number, len: number): boolean {
  return summaryBy('summarizeJsonArgs', memory, at, len);
}

/**
 * Summarises the one value encoded (JSON data: encoded-args.ts) in the `len` bytes at `at` of `memory` (a
 * view of the thread's module's memory): true with the summary in {@link moduleSummary}; false when the
 * module made none (see assembly/args-summary-encoded.ts for when), or when `memory` is not that module's.
 */
export function moduleEncodedSummary(memory: Uint8Array, at: number, len: number): boolean {
  return summaryBy('summarizeEncodedArgs', memory, at, len);
}

/** Copies `bytes` into the module's prose area and summarises them with `reader`: a copy, or null for none. */
function summaryOfBytes(reader: SummaryExport, bytes: Uint8Array): Uint8Array | null {
  const inst = sharedInstance();
  const at = inst.exports.reserveText(bytes.length + 16) >>> 0;
  if (at === 0) return null;
  const u8 = inst.views().u8;
  u8.set(bytes, at);
  return summaryBy(reader, u8, at, bytes.length) ? moduleSummary.bytes.slice(moduleSummary.at, moduleSummary.at + moduleSummary.length) : null;
}

/**
 * The module's summary of JSON text given as bytes (copied into the module's prose area first), or null
 * when it makes none: a copy.
 * @internal For tests (the record writer summarises args where its record holds them).
 */
export function summaryOfJsonBytes(text: Uint8Array): Uint8Array | null {
  return summaryOfBytes('summarizeJsonArgs', text);
}

/**
 * The module's summary of a value's encoding given as bytes (copied into the module's prose area first), or
 * null when it makes none: a copy.
 * @internal For tests (the record writer summarises args where its record holds them).
 */
export function summaryOfEncodedBytes(bytes: Uint8Array): Uint8Array | null {
  return summaryOfBytes('summarizeEncodedArgs', bytes);
}
