/**
 * The hashes of a long string's summary (text/args-summary.ts) computed by the thread's module
 * (assembly/unit-hash.ts): the string is written into an area of its memory one byte a unit, when every
 * unit is below 128, and hashed there eight units a step. The same hashes as text/unit-hash.ts's, which
 * reads a unit at a time (most of a long string's summary's cost); any other string is hashed by the
 * caller, as before.
 */
import { sharedInstance } from './wasm-module.js';

/** Strings longer than this are hashed by the caller (the area stays bounded). */
export const MODULE_HASH_MAX_UNITS = 256 * 1024;
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
  if (n > MODULE_HASH_MAX_UNITS) return false;
  const inst = sharedInstance();
  // areas grow by powers of two: each growth takes new memory (the old area is not given back)
  let size = 64 * 1024;
  while (size < n + OUT_BYTES) size *= 2;
  const out = inst.exports.reserveBytes(size);
  if (out === 0) return false;
  let u8 = inst.views().u8;
  const at = out + OUT_BYTES;
  // n bytes hold the string only when every unit takes one byte (below 128): else fewer units are read
  if (encoder.encodeInto(s, u8.subarray(at, at + n)).read !== n) return false;
  inst.exports.longStringHashes(at, n, k, out);
  const views = inst.views();
  u8 = views.u8;
  const h = moduleHashes.hashes;
  for (let i = 0; i < 6; i++) h[i] = views.u32[(out >>> 2) + i] as number;
  moduleHashes.bytes = u8;
  moduleHashes.at = at;
  return true;
}
