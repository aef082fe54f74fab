/**
 * The hashes of a long string's summary (text/args-summary.ts) computed by the thread's module
 * (assembly/unit-hash.ts): the string is written into an area of its memory one byte a unit, when every
 * unit is below 128, and hashed there eight units a step. The same hashes as text/unit-hash.ts's, which
 * reads a unit at a time (most of a long string's summary's cost); any other string is hashed by the
 * caller, as before.
 *
 * The area is the one the module keeps for host bytes (`reserveBytes`), made when the thread's instance is
 * (wasm-module.ts, HOST_BYTES_AREA): this never grows the module's memory, because it runs while a batch's
 * output is being read (similar args summarises a call there), and growing the memory would detach the
 * views the reader holds. A string the area cannot hold is hashed by the caller.
 */
import * as A from './generated/abi.js';
import { sharedInstance } from './wasm-module.js';

/** Bytes before the string in the area: the six hashes. */
const OUT_BYTES = 32;

const encoder = new TextEncoder();

/**
 * What the last successful {@link moduleStringHashes} gave: the hashes of units [0, k), [k, n - k) and
 * [n - k, n) in both bases (head 1, head 2, middle 1, middle 2, tail 1, tail 2), and where the string's
 * bytes lie in the module's memory (read them before anything else runs in the module).
 */
export const moduleHashes: { readonly hashes: Uint32Array; bytes: Uint8Array<ArrayBufferLike>; at: number } = { hashes: new Uint32Array(6), bytes: new Uint8Array(0), at: 0 };

/**
 * Hashes `s` (at least `2 * k` units) in the module: true with the answers in {@link moduleHashes}; false,
 * with nothing computed, when a unit is 128 or more, the string is longer than MODULE_HASH_MAX_UNITS, or
 * the module's memory has no room.
 */
export function moduleStringHashes(s: string, k: number): boolean {
  const n = s.length;
  const inst = sharedInstance();
  const { u8, u32 } = inst.views();
  // the area as it is: never made or grown here (see the module comment)
  const out = u32[(A.HEADER + A.H_BYTES) >>> 2] as number;
  if (out === 0 || (u32[(A.HEADER + A.H_BYTES_SIZE) >>> 2] as number) < n + OUT_BYTES) return false;
  const at = out + OUT_BYTES;
  // n bytes hold the string only when every unit takes one byte (below 128): else fewer units are read
  if (encoder.encodeInto(s, u8.subarray(at, at + n)).read !== n) return false;
  return hashThere(inst, at, n, k, out);
}

/**
 * Hashes the `n` bytes at `at` of `bytes` in the module, where they already lie, one a unit (a string
 * whose every unit is below 128, as the module's encoding of args wrote it): true with the answers in
 * {@link moduleHashes} (its `bytes` and `at` those given); false, nothing computed, when `bytes` is not
 * the module's memory or the module has no area for the hashes.
 */
export function moduleHashesAt(bytes: Uint8Array, at: number, n: number, k: number): boolean {
  const inst = sharedInstance();
  const { u8, u32 } = inst.views();
  if (u8.buffer !== bytes.buffer) return false;
  const out = u32[(A.HEADER + A.H_BYTES) >>> 2] as number;
  if (out === 0 || (u32[(A.HEADER + A.H_BYTES_SIZE) >>> 2] as number) < OUT_BYTES) return false;
  return hashThere(inst, at, n, k, out);
}

/**
 * Hashes the `n` one-byte units at `at` of the module's memory into the six words at `out`, and copies
 * them into {@link moduleHashes} with where the bytes lie (views taken again after the call).
 */
function hashThere(inst: ReturnType<typeof sharedInstance>, at: number, n: number, k: number, out: number): true {
  inst.exports.longStringHashes(at, n, k, out);
  const { u8, u32 } = inst.views();
  const h = moduleHashes.hashes;
  for (let i = 0; i < 6; i++) h[i] = u32[(out >>> 2) + i] as number;
  moduleHashes.bytes = u8;
  moduleHashes.at = at;
  return true;
}
