// Similar args' summary (src/text/args-summary.ts's format) written by the module: the summary's state and
// its nodes, shared by the two readers that make one: of args given as JSON text (args-summary.ts) and of args
// given in the module's value encoding (args-summary-encoded.ts). A reader reads a string into `U`, `N` and
// `wide16` (its bytes where they lie when one a unit, else decoded into the scratch) and writes its node; it
// gives up (`ok` false, no summary made) where the host's summary would differ or needs what only the host
// has (an OPAQUE part's fingerprint: a summary past MAX_BYTES, a container MAX_DEPTH levels down).
//
//   area: [ summary, MAX_BYTES | six hashes, 32 | keys' hashes, KEY_CAP * 8 | scratch: one string's units, u8 or u16 each ]
import { longStringHashes, power } from './unit-hash';
import { xxh64 } from './xxh64';

/** The constants of src/text/args-summary.ts and src/text/args-similarity.ts (MAX_ARGS_DEPTH). */
export const MAX_BYTES: u32 = 4096;
const KEPT: u32 = 256;
const WHOLE: u32 = 512;
export const MAX_DEPTH: u32 = 16;
const NO_RUN: u32 = 0xffffffff;
const WIDE_BIT: u32 = 0x8000;
export const S_NULL: u8 = 1;
export const S_FALSE: u8 = 2;
export const S_TRUE: u8 = 3;
const S_NUMBER: u8 = 4;
const S_STRING: u8 = 6;
const S_LONG: u8 = 7;
export const S_ARRAY: u8 = 8;
export const S_OBJECT: u8 = 9;
const S_SMALL: u8 = 10;
const BASE_1: u32 = 0x01000193;
const BASE_2: u32 = 0x5bd1e995;

/** Keys held at once along the open path (for the duplicate check). */
const KEY_CAP: u32 = 1024;
/** Bytes of the area before the scratch: the summary, a long string's six hashes, the keys' hashes. */
const OUT_ROOM: u32 = MAX_BYTES + 32 + KEY_CAP * 8;

/** The summary's start, and where the next byte goes. */
let OB: usize = 0;
let O: usize = 0;
/** The scratch: [S, SE). */
export let S: usize = 0;
export let SE: usize = 0;
let hashes: usize = 0;
let keys: usize = 0;
/** False once the reader has given up (fail). */
export let ok = true;
/** Keys held along the open path (their hashes at `keys`). */
let keyTop: u32 = 0;
/** The string last read (readInto): its units at `U`, `N` of them, two bytes each when `wide16`. */
let U: usize = 0;
let N: u32 = 0;
let wide16 = false;

/** Starts a summary at `area` (`size` bytes: OUT_ROOM for the summary, the rest scratch); false when too small. */
export function beginSummary(area: usize, size: u32): bool {
  if (size <= OUT_ROOM) return false;
  OB = area;
  O = area;
  hashes = area + MAX_BYTES;
  keys = hashes + 32;
  S = area + OUT_ROOM;
  SE = area + <usize>size;
  ok = true;
  keyTop = 0;
  return true;
}

/** The summary's length so far. */
export function summaryLength(): u32 {
  return <u32>(O - OB);
}

/** The string just read: `n` units at `u`, two bytes each when `wide`. */
// @ts-ignore: decorator
@inline export function readInto(u: usize, n: u32, wide: bool): void {
  U = u;
  N = n;
  wide16 = wide;
}

/** Keys held along the open path: where an object's own begin. */
// @ts-ignore: decorator
@inline export function keysHeld(): u32 {
  return keyTop;
}

/** Forgets the keys held from `at` on (their object is closed). */
// @ts-ignore: decorator
@inline export function dropKeys(at: u32): void {
  keyTop = at;
}

/** Gives up: no summary is made. */
export function fail(): void {
  ok = false;
}

/** Room for `n` more bytes of summary: where they go, or 0 (and give up) past MAX_BYTES. */
export function room(n: u32): usize {
  const p = O;
  if (<u32>(p - OB) + n > MAX_BYTES) {
    ok = false;
    return 0;
  }
  O = p + <usize>n;
  return p;
}

/** A NULL, FALSE or TRUE node. */
export function scalarNode(tag: u8): void {
  const p = room(1);
  if (ok) store<u8>(p, tag);
}

/** Opens an ARRAY or OBJECT node: where it starts (for closeContainer), or 0 having given up. */
export function openContainer(tag: u8): usize {
  const start = room(5);
  if (ok) store<u8>(start, tag);
  return start;
}

/** Closes the container opened at `start`, of `count` parts. */
export function closeContainer(start: usize, count: u32): void {
  store<u16>(start + 1, <u16>(O - start));
  store<u16>(start + 3, <u16>count);
}

/**
 * Whether the key just read is not one its object (whose keys' hashes begin at `keysStart`) named already
 * (JSON.parse, and a decoded object, keep its first place but its last value); else gives up.
 */
export function freshKey(keysStart: u32): bool {
  const k = xxh64(U, wide16 ? N << 1 : N, wide16 ? 2 : 1);
  for (let i = keysStart; i < keyTop; i++) {
    if (load<u64>(keys + (<usize>i << 3)) == k) {
      ok = false;
      return false;
    }
  }
  if (keyTop >= KEY_CAP) {
    ok = false;
    return false;
  }
  store<u64>(keys + (<usize>keyTop << 3), k);
  keyTop++;
  return true;
}

/** The array index ("0", "17", below 2^32 - 1: ordered first by Object.keys) the key read last is, or -1. */
export function indexKey(): i64 {
  if (wide16) return -1;
  const n = N;
  if (n == 0 || n > 10) return -1;
  if (n > 1 && load<u8>(U) == 0x30) return -1;
  let v: u64 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const c = <u32>load<u8>(U + <usize>k);
    if (c - 0x30 >= 10) return -1;
    v = v * 10 + <u64>(c - 0x30);
  }
  return v < 4294967295 ? <i64>v : -1;
}

// @ts-ignore: decorator
@inline function unit(i: u32): u32 {
  return wide16 ? <u32>load<u16>(U + (<usize>i << 1)) : <u32>load<u8>(U + <usize>i);
}

/** Whether unit `c` is a word character (text/args-summary.ts's isWordUnit). */
// @ts-ignore: decorator
@inline function isWord(c: u32): bool {
  return c - 48 < 10 || c - 65 < 26 || c - 97 < 26 || c == 95 || c >= 128;
}

/** Whether a unit of [from, to) of the string read last is above 0xff. */
function anyWide(from: u32, to: u32): bool {
  if (!wide16) return false;
  for (let i = from; i < to; i++) if (unit(i) > 0xff) return true;
  return false;
}

/** Copies units [from, to) of the string read last to `o`, two bytes each when `wide`, else one. */
function copyUnits(o: usize, from: u32, to: u32, wide: bool): void {
  if (!wide16) memory.copy(o, U + <usize>from, <usize>(to - from));
  else if (wide) memory.copy(o, U + (<usize>from << 1), <usize>(to - from) << 1);
  else for (let i = from; i < to; i++) store<u8>(o + <usize>(i - from), <u8>unit(i));
}

/** A STRING node of the string read last, whatever its length (a key's, or a short value's). */
export function keyNode(): void {
  const n = N;
  const wide = anyWide(0, n);
  const p = room(3 + (wide ? n << 1 : n));
  if (!ok) return;
  store<u8>(p, S_STRING);
  store<u16>(p + 1, <u16>(wide ? n | WIDE_BIT : n));
  copyUnits(p + 3, 0, n, wide);
}

/** H of units [from, to) in both bases into `hashes` at `at` (the string read last, two bytes a unit). */
function hash16(from: u32, to: u32, at: usize): void {
  let h1: u32 = 0;
  let h2: u32 = 0;
  for (let i = from; i < to; i++) {
    const c = <u32>load<u16>(U + (<usize>i << 1));
    h1 = h1 * BASE_1 + c;
    h2 = h2 * BASE_2 + c;
  }
  store<u32>(hashes + at, h1);
  store<u32>(hashes + at, h2, 4);
}

/** The node of the string read last: STRING up to WHOLE units, else LONG. */
export function stringNode(): void {
  const n = N;
  if (n <= WHOLE) {
    keyNode();
    return;
  }
  const K = KEPT;
  const mid = n - 2 * K;
  const wide = anyWide(0, K) || anyWide(n - K, n);
  const p = room(35 + (wide ? 4 * K : 2 * K));
  if (!ok) return;
  // the hashes of [0, K), [K, n - K) and [n - K, n), joined into those of all but the last K and all but the first K
  if (wide16) {
    hash16(0, K, 0);
    hash16(K, n - K, 8);
    hash16(n - K, n, 16);
  } else longStringHashes(U, n, K, hashes);
  const head1 = load<u32>(hashes);
  const head2 = load<u32>(hashes, 4);
  const mid1 = load<u32>(hashes, 8);
  const mid2 = load<u32>(hashes, 12);
  const tail1 = load<u32>(hashes, 16);
  const tail2 = load<u32>(hashes, 20);
  store<u8>(p, S_LONG);
  store<u32>(p + 1, n);
  store<u8>(p + 5, wide ? 1 : 0);
  store<u32>(p + 6, head1 * power(BASE_1, mid) + mid1);
  store<u32>(p + 10, head2 * power(BASE_2, mid) + mid2);
  store<u32>(p + 14, mid1 * power(BASE_1, K) + tail1);
  store<u32>(p + 18, mid2 * power(BASE_2, K) + tail2);
  // the end of the word holding unit K - 1, and the first whole word starting at K or after
  let headRunEnd: u32 = 0;
  if (isWord(unit(K - 1))) {
    headRunEnd = K;
    while (headRunEnd < n && isWord(unit(headRunEnd))) headRunEnd++;
  }
  let midRunStart = NO_RUN;
  let midRunEnd: u32 = 0;
  for (let i = headRunEnd > K ? headRunEnd : K; i < n - K; i++) {
    if (isWord(unit(i)) && !isWord(unit(i - 1))) {
      midRunStart = i;
      let e = i + 1;
      while (e < n && isWord(unit(e))) e++;
      midRunEnd = e;
      break;
    }
  }
  store<u32>(p + 22, headRunEnd);
  store<u32>(p + 26, midRunStart);
  store<u32>(p + 30, midRunEnd);
  store<u8>(p + 34, isWord(unit(n - K - 1)) ? 1 : 0);
  const w: u32 = wide ? 2 : 1;
  copyUnits(p + 35, 0, K, wide);
  copyUnits(p + 35 + <usize>(K * w), n - K, n, wide);
}


/** A number's node: SMALL for an integer from -128 to 127 (not -0), else NUMBER. */
export function numberNode(v: f64): void {
  if (v >= -128 && v <= 127 && v == Math.floor(v) && !(v == 0 && (reinterpret<u64>(v) >> 63) != 0)) {
    const p = room(2);
    if (!ok) return;
    store<u8>(p, S_SMALL);
    store<i8>(p + 1, <i8><i32>v);
    return;
  }
  const p = room(9);
  if (!ok) return;
  store<u8>(p, S_NUMBER);
  store<f64>(p + 1, v);
}
