/**
 * What failure-report.ts reads of an output, found by the thread's module in one pass over the output's UTF-8
 * bytes (assembly/report-scan.ts) instead of three expressions each scanning it: whether it holds a pass of
 * PASS_PATTERNS (or the module cannot tell), whether it holds a failure word's stem, whether it may hold a
 * harness's note, whether it may hold a status field, and (when asked) whether it holds a word of the
 * acknowledgement's quick test. The last four only say where the expressions need not be asked.
 *
 * The engine's module reads each call's result head in its own pass over the call (assembly/result-head.ts,
 * the same scan and key); the scans here are for the texts it did not read (the TypeScript engine, an output
 * with its harness notes taken out, the acknowledgement's masking). They run in an instance of their own (one
 * a thread, made on first use, 256 KiB): its memory grows when it must without emptying the views the
 * engine's instance is read through in the middle of a batch.
 */
import { WasmInstance } from './wasm-module.js';

/** {@link reportScan}'s bit: a pass of PASS_PATTERNS is in the text. */
export const SCAN_PASS = 1;
/** {@link reportScan}'s bit: none found, but the module could not tell for a line-start word (ask the patterns). */
export const SCAN_PASS_UNKNOWN = 2;
/** {@link reportScan}'s bit: a stem of a failure word is in the text (without it, no failure is reported). */
export const SCAN_MAY_FAIL = 4;
/** {@link reportScan}'s bit: a harness's note may be in the text (without it, none is). */
export const SCAN_MAY_NOTE = 8;
/** {@link reportScan}'s bit, when asked: a word of acknowledgement.ts's quick test is in the text (without it, no acknowledgement). */
export const SCAN_MAY_ACK = 16;
/**
 * {@link reportScan}'s bit: the word status, state or phase, not after an ASCII letter, digit or `_`, then an
 * optional quote, white space and `:` or `=`, is in the text (without it, status-field.ts's expression cannot match).
 */
export const SCAN_MAY_STATUS = 32;
/** {@link reportScan}'s bit: failure-report.ts's REPORT matches (a failure word or a cross mark; decided by the module). */
export const SCAN_FAILURE = 64;
/** {@link reportScan}'s bit: no failure word found, but one stem's word has a non-ASCII character beside it (ask REPORT). */
export const SCAN_FAILURE_UNKNOWN = 128;
/** {@link reportScan}'s bit, when asked (`wait`): a word of wait-screen.ts's WAIT_SCREEN, or an ESC, is in the text (without it, neither a wait nor an empty mailbox is read). */
export const SCAN_MAY_WAIT = 16384;

const encoder = new TextEncoder();
let own: WasmInstance | null = null;
/** The view of the area the text is written into, kept while the area and the memory stay (one allocation less a call). */
let area: Uint8Array | null = null;
let areaAt = 0;
/** The text whose bytes the area holds now (the last one scanned), and their length. */
let lastText: string | null = null;
let lastN = 0;

/** Bytes the module may read past a text's end (a block of sixteen, and the next byte): the area keeps them. */
const SLACK = 32;

/** Texts written into this instance so far (each a copy of a text's bytes and a crossing). */
let writes = 0;

/** How many texts were copied into this thread's scan instance so far (for tests: heads the engine read are not). */
export function scanCopies(): number {
  return writes;
}

/** Writes `text` into the module's area (at areaAt); its UTF-8 length, or -1 when the module has no room. */
function write(text: string): number {
  const inst = (own ??= new WasmInstance());
  writes++;
  // at least what a head of 4,096 characters may take, so the area is taken from the heap once or twice
  const room = Math.max(3 * text.length, 3 * 4096) + SLACK;
  const at = inst.exports.reserveBytes(room);
  lastText = null;
  if (at === 0) return -1;
  if (area === null || area.length === 0 || area.length < room - SLACK || areaAt !== at) {
    area = inst.views().u8.subarray(at, at + room - SLACK);
    areaAt = at;
  }
  lastText = text;
  lastN = encoder.encodeInto(text, area).written;
  return lastN;
}

/**
 * The SCAN_ bits of `text` (SCAN_MAY_ACK looked for when `ack`; SCAN_PASS and SCAN_PASS_UNKNOWN not when
 * `pass` is false: the pass patterns' words are skipped, every other bit is the same); -1 when the module has
 * no room for its bytes (the caller asks the expressions). The text last written (by {@link textKey} or a
 * scan) is not written again.
 */
export function reportScan(text: string, ack = false, pass = true, wait = false): number {
  const n = text === lastText ? lastN : write(text);
  return n < 0 ? -1 : (own as WasmInstance).exports.reportScan(areaAt, n, asked(ack, pass, wait));
}

/** The module's `ask` word: ASK_ACK (1), SKIP_PASS (2) and ASK_WAIT (4), assembly/report-scan.ts. */
const asked = (ack: boolean, pass: boolean, wait = false): number => (ack ? 1 : 0) | (pass ? 0 : 2) | (wait ? 4 : 0);

/** The low 53 bits of a u64 (a key a Map holds as a number). */
const KEY_BITS = 53;

/**
 * A key of `text` for a cache of readings: 53 bits of the module's xxh64 of its UTF-8 bytes (written into the
 * area, where a reportScan of the same text then finds them), or -1 when the module has no room for them.
 * Equal texts have equal keys; a cache must still compare its text, as different texts may share one. A
 * string as a Map's key is hashed by V8 character by character the first time it is used (~1.4 ns a
 * character here, 2.1 us for a 1.5 KB result: more than the scan it saves), and every call's result is a
 * string never used before.
 */
export function textKey(text: string): number {
  const n = write(text);
  return n < 0 ? -1 : Number(BigInt.asUintN(KEY_BITS, (own as WasmInstance).exports.xxh64(areaAt, n, 0n)));
}

/**
 * The module's screen of an error text (assembly/error-screen.ts, which the engine's module asks as it keys
 * an error): whether it may say something error-reading.ts reads; null when the module has no room for its
 * bytes. For the differential tests against error-screen.ts's errorMaySay.
 */
export function errorScreen(text: string): boolean | null {
  const n = write(text);
  return n < 0 ? null : (own as WasmInstance).exports.errorMaySay(areaAt, n) !== 0;
}

/** {@link reportScan} by the module's reference twin, which looks at every byte (for the differential tests). */
export function reportScanBytewise(text: string, ack = false, pass = true, wait = false): number {
  const n = write(text);
  return n < 0 ? -1 : (own as WasmInstance).exports.reportScanBytewise(areaAt, n, asked(ack, pass, wait));
}

/**
 * The first `limit` bytes of `text` masked by the module (assembly/mask.ts, the twin of mask-volatile.ts's
 * maskBytes) from the bytes the last scan wrote when `text` is the text last scanned, else from its bytes
 * written now (a head the engine's module scanned in its own pass); null when the module has no room (the
 * caller masks it itself). A view of the module's memory, valid until the next call here.
 */
export function maskScanned(text: string, limit: number): Uint8Array | null {
  if (text !== lastText && write(text) < 0) return null;
  if (own === null) return null;
  const n = lastN < limit ? lastN : limit;
  const dst = own.exports.reserveScratch(6 * n + 8);
  if (dst === 0) return null;
  // the area's address again: reserving the scratch may have grown the memory, never moved the area
  const m = own.exports.maskBytes(areaAt, lastN, limit, dst);
  return own.views().u8.subarray(dst, dst + m);
}
