// Similar args' summary (src/text/args-summary.ts's format) of args given as JSON text, made from the text
// itself: the host neither parses the args (JSON.parse) nor walks the value. The summary equals
// `summarizeArgs(JSON.parse(text))` byte for byte (test/similar-args-summary-from-bytes.test.ts), or none is
// made (0 returned) and the host summarises the parsed args as before. Given up on: text that is not JSON,
// a byte outside ASCII (the host's UTF-8 decoding decides those), a key named twice in one object or one
// that is an array index (JSON.parse's key order then differs from the text's), a number outside the exact
// fast path (at most 15 significant digits, a power of ten within 1e±22), a container MAX_DEPTH levels
// down, a string whose decoded units the scratch cannot hold, and a summary past MAX_BYTES (these become
// OPAQUE in the host's summary, which needs the parsed value's fingerprint).
//
//   area: [ summary, MAX_BYTES | six hashes, 32 | keys' hashes, KEY_CAP * 8 | scratch: one escaped string's units, u8 or u16 each ]
//
// A string without escapes is its bytes (one unit a byte). An escaped one is decoded into the scratch, one
// byte a unit while every unit is below 256, else again two bytes a unit.
import { hex4 } from './json';
import { NUM_OK, numEnd, numMagnitude, numNeg, readNumber } from './json-number';
import { longStringHashes, power } from './unit-hash';
import { xxh64 } from './xxh64';

/** The constants of src/text/args-summary.ts and src/text/args-similarity.ts (MAX_ARGS_DEPTH). */
const MAX_BYTES: u32 = 4096;
const KEPT: u32 = 256;
const WHOLE: u32 = 512;
const MAX_DEPTH: u32 = 16;
const NO_RUN: u32 = 0xffffffff;
const WIDE_BIT: u32 = 0x8000;
const S_NULL: u8 = 1;
const S_FALSE: u8 = 2;
const S_TRUE: u8 = 3;
const S_NUMBER: u8 = 4;
const S_STRING: u8 = 6;
const S_LONG: u8 = 7;
const S_ARRAY: u8 = 8;
const S_OBJECT: u8 = 9;
const S_SMALL: u8 = 10;
const BASE_1: u32 = 0x01000193;
const BASE_2: u32 = 0x5bd1e995;

/** Keys held at once along the open path (for the duplicate check). */
const KEY_CAP: u32 = 1024;
/** Bytes of the area before the scratch: the summary, a long string's six hashes, the keys' hashes. */
const OUT_ROOM: u32 = MAX_BYTES + 32 + KEY_CAP * 8;


let P: usize = 0;
let E: usize = 0;
/** The summary's start, and where the next byte goes. */
let OB: usize = 0;
let O: usize = 0;
let S: usize = 0;
let SE: usize = 0;
let hashes: usize = 0;
let keys: usize = 0;
let ok = true;
let keyTop: u32 = 0;
/** The string last read: its units at `U`, `N` of them, two bytes each when `wide16`. */
let U: usize = 0;
let N: u32 = 0;
let wide16 = false;

/**
 * Writes the summary of the JSON text [ptr, ptr + len) at `area` (`size` bytes: OUT_ROOM for the summary,
 * the rest scratch); returns its length, or 0 when none was made (see the file comment).
 */
export function summarizeJsonArgs(ptr: usize, len: u32, area: usize, size: u32): u32 {
  if (size <= OUT_ROOM) return 0;
  P = ptr;
  E = ptr + <usize>len;
  OB = area;
  O = area;
  hashes = area + MAX_BYTES;
  keys = hashes + 32;
  S = area + OUT_ROOM;
  SE = area + <usize>size;
  ok = true;
  keyTop = 0;
  node(0);
  if (!ok) return 0;
  skipWs();
  return P == E ? <u32>(O - OB) : 0;
}

// @ts-ignore: decorator
@inline function isWs(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

function skipWs(): void {
  while (P < E && isWs(<u32>load<u8>(P))) P++;
}

/** Room for `n` more bytes of summary: where they go, or 0 (and give up) past MAX_BYTES. */
function room(n: u32): usize {
  const p = O;
  if (<u32>(p - OB) + n > MAX_BYTES) {
    ok = false;
    return 0;
  }
  O = p + <usize>n;
  return p;
}

function node(depth: u32): void {
  skipWs();
  if (P >= E) {
    ok = false;
    return;
  }
  const b = <u32>load<u8>(P);
  if (b == 0x22) {
    if (readString()) stringNode();
  } else if (b == 0x7b || b == 0x5b) {
    if (depth >= MAX_DEPTH) ok = false;
    else if (b == 0x7b) object(depth);
    else array(depth);
  } else if (b == 0x2d || b - 0x30 < 10) number();
  else if (b == 0x74) literal(0x65757274, 4, S_TRUE);
  else if (b == 0x66) literal(0x65736c6166, 5, S_FALSE);
  else if (b == 0x6e) literal(0x6c6c756e, 4, S_NULL);
  else ok = false;
}

function literal(text: u64, n: usize, tag: u8): void {
  if (P + n > E) {
    ok = false;
    return;
  }
  for (let k: usize = 0; k < n; k++) {
    if (<u64>load<u8>(P + k) != ((text >> (k * 8)) & 0xff)) {
      ok = false;
      return;
    }
  }
  P += n;
  const p = room(1);
  if (ok) store<u8>(p, tag);
}

function array(depth: u32): void {
  P++;
  const start = room(5);
  if (!ok) return;
  store<u8>(start, S_ARRAY);
  let count: u32 = 0;
  skipWs();
  if (P < E && <u32>load<u8>(P) == 0x5d) P++;
  else {
    while (true) {
      node(depth + 1);
      if (!ok) return;
      count++;
      skipWs();
      if (P >= E) {
        ok = false;
        return;
      }
      const c = <u32>load<u8>(P);
      P++;
      if (c == 0x5d) break;
      if (c != 0x2c) {
        ok = false;
        return;
      }
    }
  }
  store<u16>(start + 1, <u16>(O - start));
  store<u16>(start + 3, <u16>count);
}

function object(depth: u32): void {
  P++;
  const start = room(5);
  if (!ok) return;
  store<u8>(start, S_OBJECT);
  const keysStart = keyTop;
  let count: u32 = 0;
  skipWs();
  if (P < E && <u32>load<u8>(P) == 0x7d) P++;
  else {
    while (true) {
      skipWs();
      if (P >= E || <u32>load<u8>(P) != 0x22 || !readString()) {
        ok = false;
        return;
      }
      if (!newKey(keysStart)) return;
      keyNode();
      if (!ok) return;
      skipWs();
      if (P >= E || <u32>load<u8>(P) != 0x3a) {
        ok = false;
        return;
      }
      P++;
      node(depth + 1);
      if (!ok) return;
      count++;
      skipWs();
      if (P >= E) {
        ok = false;
        return;
      }
      const c = <u32>load<u8>(P);
      P++;
      if (c == 0x7d) break;
      if (c != 0x2c) {
        ok = false;
        return;
      }
    }
  }
  keyTop = keysStart;
  store<u16>(start + 1, <u16>(O - start));
  store<u16>(start + 3, <u16>count);
}

/**
 * Whether the key just read is neither one the object named already (JSON.parse keeps its first place but
 * its last value) nor an array index (ordered first by Object.keys); else gives up.
 */
function newKey(keysStart: u32): bool {
  if (!wide16 && isIndexKey()) {
    ok = false;
    return false;
  }
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

/** Whether the one-byte units read last are an array index ("0", "17", below 2^32 - 1). */
function isIndexKey(): bool {
  const n = N;
  if (n == 0 || n > 10) return false;
  if (n > 1 && load<u8>(U) == 0x30) return false;
  let v: u64 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const c = <u32>load<u8>(U + <usize>k);
    if (c - 0x30 >= 10) return false;
    v = v * 10 + <u64>(c - 0x30);
  }
  return v < 4294967295;
}

/** Reads the string whose quote is at P into U, N, wide16; false (given up) when it is not one taken. */
function readString(): bool {
  P++;
  const s = P;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  // sixteen bytes at a time to the first quote, backslash, control character or byte outside ASCII
  while (P + 16 <= E) {
    const v = v128.load(P);
    const special = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_s(v, space)));
    if (special != 0) {
      P += <usize>ctz<u32>(special);
      break;
    }
    P += 16;
  }
  while (P < E) {
    const b = <u32>load<u8>(P);
    if (b == 0x22) {
      U = s;
      N = <u32>(P - s);
      wide16 = false;
      P++;
      return true;
    }
    if (b == 0x5c) return decode(s, false) || (ok && decode(s, true));
    if (b < 0x20 || b >= 0x80) break;
    P++;
  }
  ok = false;
  return false;
}

/**
 * Decodes the escaped string whose units begin at `s` into the scratch, one byte a unit (`two` false: false
 * with `ok` still true, P back at `s`, when a unit is 256 or more) or two.
 */
function decode(s: usize, two: bool): bool {
  P = s;
  let o = S;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  while (P < E) {
    // one byte a unit: sixteen plain bytes at a time up to the next quote, escape or other special byte
    if (!two) {
      while (P + 16 <= E && o + 16 <= SE) {
        const v = v128.load(P);
        v128.store(o, v);
        const special = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_s(v, space)));
        if (special != 0) {
          const n = <usize>ctz<u32>(special);
          P += n;
          o += n;
          break;
        }
        P += 16;
        o += 16;
      }
    }
    let b = <u32>load<u8>(P);
    if (b == 0x22) {
      P++;
      U = S;
      N = <u32>(two ? (o - S) >> 1 : o - S);
      wide16 = two;
      return true;
    }
    if (b < 0x20 || b >= 0x80) break;
    if (b == 0x5c) {
      if (P + 1 >= E) break;
      const c = <u32>load<u8>(P + 1);
      P += 2;
      if (c == 0x22 || c == 0x5c || c == 0x2f) b = c;
      else if (c == 0x62) b = 0x08;
      else if (c == 0x66) b = 0x0c;
      else if (c == 0x6e) b = 0x0a;
      else if (c == 0x72) b = 0x0d;
      else if (c == 0x74) b = 0x09;
      else if (c == 0x75) {
        if (P + 4 > E) break;
        const u = hex4(P);
        if (u < 0) break;
        P += 4;
        b = <u32>u;
        if (b > 0xff && !two) {
          P = s;
          return false;
        }
      } else break;
    } else P++;
    if (two) {
      if (o + 2 > SE) break;
      store<u16>(o, <u16>b);
      o += 2;
    } else {
      if (o + 1 > SE) break;
      store<u8>(o, <u8>b);
      o++;
    }
  }
  ok = false;
  return false;
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
function keyNode(): void {
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
function stringNode(): void {
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

/** A number's node (SMALL or NUMBER), its value by Clinger's fast path (json-number.ts); gives up outside it. */
function number(): void {
  if (readNumber(P, E) != NUM_OK) {
    ok = false;
    return;
  }
  P = numEnd;
  const neg = numNeg;
  const v = neg ? -numMagnitude : numMagnitude;
  // SMALL: an integer from -128 to 127, not -0
  if (v >= -128 && v <= 127 && v == Math.floor(v) && !(v == 0 && neg)) {
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
