/**
 * xxh64 of host bytes computed by the thread's module: the bytes are copied into an area of its memory
 * and hashed there. The same function as `src/fingerprint/xxh64.ts`, which emulates 64-bit arithmetic with
 * 32-bit words and costs several times more per byte; snapshots checksum their whole payload with it.
 */
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';
import { sharedInstance } from './wasm-module.js';

/**
 * Returns the low word of xxh64(bytes[start, end), seed 0); the high word is left in `u64.hi`. When the
 * module's memory has no room for the bytes, the TypeScript xxh64 gives the same answer.
 */
export function moduleXxh64(bytes: Uint8Array, start: number, end: number): number {
  const inst = sharedInstance();
  const n = end - start;
  const at = inst.exports.reserveBytes(Math.max(n, 1));
  if (at === 0) return xxh64(bytes, start, end, 0, 0);
  inst.views().u8.set(bytes.subarray(start, end), at);
  const h = inst.exports.xxh64(at, n, 0n);
  u64.hi = Number((h >> 32n) & 0xffffffffn);
  return Number(h & 0xffffffffn);
}
