// Canonical fingerprints of JSON text, without building values: the fingerprint of a JSON document here
// equals src/fingerprint/canonical-hash.ts's fingerprint of JSON.parse(text). Objects sum their members'
// pair fingerprints, so key order needs no sorting.
//
// Returned status: OK (fingerprint in `jsonFp`), NOT_JSON (invalid: the caller hashes the text as a plain
// string), or HOST (valid but outside what this parser reproduces exactly: numbers that need more than
// the exact fast path, duplicate keys, array-index keys while collecting text, very wide objects, nesting
// deeper than the skip stack, more array elements than a walk's budget). Nothing here touches session state.
import { JSON_STRING_WINDOW, MAX_WALK_ELEMENTS } from './abi';
import { NUM_BAD, NUM_FAR, numEnd, numMagnitude, numNeg, numZero, readNumber } from './json-number';
import { TAG_ARRAY, TAG_DEEP, TAG_FALSE, TAG_NULL, TAG_OBJECT, TAG_STRING, TAG_TRUE, close, fold, hashNumber, pair, word } from './combine';
import { textMore, textNode, textResume, textString, textSuspend } from './text';
import { xxh64 } from './xxh64';
import { streamBegin, streamEnd, streamStripes } from './xxh64-stream';

export const J_OK: u32 = 0;
export const J_NOT_JSON: u32 = 1;
export const J_HOST: u32 = 2;

/** Keys of one object checked for duplicates at most; wider objects go to the host. */
const MAX_KEYS: u32 = 256;
/** Keys held at once along the open path. */
const KEY_CAP: u32 = 4096;
/** Containers skipped (beyond maxDepth) may nest this deep before the host takes over. */
const SKIP_STACK: u32 = 65536;
/**
 * Decoded bytes of one string held at once (a multiple of 32, XXH64's stripe): a longer string is hashed, and
 * its action text taken, in pieces as it is decoded (strFlush), so the scratch is this window whatever the
 * record's size. Its hash and text are those of the whole string (xxh64-stream.ts; text.ts textMore).
 */
const STR_WINDOW: u32 = JSON_STRING_WINDOW;


let P: usize = 0;
let E: usize = 0;
let status: u32 = J_OK;
let maxDepth: u32 = 64;
let strBuf: usize = 0;
/** Past this the window may not hold the next write (a vector store of 16 bytes): the decode lets go of a piece. */
let strLimit: usize = 0;
/** Bytes of the string being decoded already let go of (hashed, taken as text): 0 while it lies whole in the window. */
let strFlushed: u32 = 0;
/** Whether the string being decoded is hashed, and taken as action text (known before it is decoded). */
let strHashing: bool = false;
let strTexting: bool = false;
let keyBuf: usize = 0;
let keyTop: u32 = 0;
let skipBuf: usize = 0;
let ignorePtr: usize = 0;
let ignoreCount: u32 = 0;
let checkIndexKeys: bool = false;
/** Array elements read so far: past the walk's budget the host hashes the document (its "too many" marker). */
let elements: u32 = 0;

/** The fingerprint of the last document parsed with status OK. */
export let jsonFp: u64 = 0;

// @ts-ignore: decorator
@inline function isWs(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

function skipWs(): void {
  while (P < E && isWs(<u32>load<u8>(P))) P++;
}

function fail(s: u32): u64 {
  if (status == J_OK) status = s;
  return 0;
}

/** The value of the four hex digits at `p`, or -1 when one is not a hex digit. */
export function hex4(p: usize): i32 {
  let v: i32 = 0;
  for (let k: usize = 0; k < 4; k++) {
    const c = <i32>load<u8>(p + k);
    let d: i32;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** Writes code point `cp` as UTF-8 at `o`; returns the address after it. */
export function putUtf8(o: usize, cp: u32): usize {
  if (cp < 0x80) {
    store<u8>(o, <u8>cp);
    return o + 1;
  }
  if (cp < 0x800) {
    store<u8>(o, <u8>(0xc0 | (cp >> 6)));
    store<u8>(o, <u8>(0x80 | (cp & 0x3f)), 1);
    return o + 2;
  }
  if (cp < 0x10000) {
    store<u8>(o, <u8>(0xe0 | (cp >> 12)));
    store<u8>(o, <u8>(0x80 | ((cp >> 6) & 0x3f)), 1);
    store<u8>(o, <u8>(0x80 | (cp & 0x3f)), 2);
    return o + 3;
  }
  store<u8>(o, <u8>(0xf0 | (cp >> 18)));
  store<u8>(o, <u8>(0x80 | ((cp >> 12) & 0x3f)), 1);
  store<u8>(o, <u8>(0x80 | ((cp >> 6) & 0x3f)), 2);
  store<u8>(o, <u8>(0x80 | (cp & 0x3f)), 3);
  return o + 4;
}

/**
 * The window's whole stripes before `o` let go of: hashed into the stream and taken as text as the string
 * asks (the first piece begins both), the rest (under 32 bytes) moved to the window's start; returns where
 * the decode goes on.
 */
function strFlush(o: usize): usize {
  const n = o - strBuf;
  const whole = n & ~(<usize>31);
  if (strHashing) {
    if (strFlushed == 0) streamBegin(TAG_STRING);
    streamStripes(strBuf, whole);
  }
  if (strTexting) {
    if (strFlushed == 0) textString(strBuf, <u32>whole);
    else textMore(strBuf, <u32>whole);
  }
  strFlushed += <u32>whole;
  memory.copy(strBuf, strBuf + whole, n - whole);
  return strBuf + (n - whole);
}

/** XXH64 (seed TAG_STRING) of the string just decoded, `n` bytes in all. */
function stringHash(n: u32): u64 {
  return strFlushed == 0 ? xxh64(strBuf, n, TAG_STRING) : streamEnd(strBuf, n - strFlushed);
}

/** Appends the string just decoded (`n` bytes in all) to the action text: what was not let go of yet. */
function stringText(n: u32): void {
  if (strFlushed == 0) textString(strBuf, n);
  else textMore(strBuf, n - strFlushed);
}

/**
 * Decodes the string at P (just after its opening quote) into strBuf as UTF-8, lone surrogates as
 * U+FFFD (what TextEncoder makes of JSON.parse's result). Returns the byte length; P ends after the quote.
 * A string past the window is let go of in pieces (strFlush): `hash` and `text` say what to make of them,
 * and stringHash, stringText give the whole string's hash and text.
 */
function decodeString(hash: bool, text: bool): u32 {
  let o = strBuf;
  strFlushed = 0;
  strHashing = hash;
  strTexting = text;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  while (true) {
    // sixteen bytes at a time while none is a quote, a backslash or a control character (room for the
    // vector store made first)
    while (P + 16 <= E) {
      if (o > strLimit) o = strFlush(o);
      const v = v128.load(P);
      const special = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_u(v, space)));
      v128.store(o, v);
      if (special != 0) {
        // keep the plain bytes before the first special one, and go on from there
        const n = ctz<u32>(special);
        o += n;
        P += n;
        break;
      }
      o += 16;
      P += 16;
    }
    // room for one code point (at most 4 bytes)
    if (o > strLimit) o = strFlush(o);
    if (P >= E) {
      fail(J_NOT_JSON);
      return 0;
    }
    const b = <u32>load<u8>(P);
    if (b == 0x22) {
      P++;
      break;
    }
    if (b < 0x20) {
      fail(J_NOT_JSON);
      return 0;
    }
    if (b != 0x5c) {
      store<u8>(o++, <u8>b);
      P++;
      continue;
    }
    if (P + 1 >= E) {
      fail(J_NOT_JSON);
      return 0;
    }
    const c = <u32>load<u8>(P + 1);
    P += 2;
    if (c == 0x22 || c == 0x5c || c == 0x2f) store<u8>(o++, <u8>c);
    else if (c == 0x62) store<u8>(o++, 0x08);
    else if (c == 0x66) store<u8>(o++, 0x0c);
    else if (c == 0x6e) store<u8>(o++, 0x0a);
    else if (c == 0x72) store<u8>(o++, 0x0d);
    else if (c == 0x74) store<u8>(o++, 0x09);
    else if (c == 0x75) {
      if (P + 4 > E) {
        fail(J_NOT_JSON);
        return 0;
      }
      const u = hex4(P);
      if (u < 0) {
        fail(J_NOT_JSON);
        return 0;
      }
      P += 4;
      if (u >= 0xd800 && u <= 0xdbff) {
        // a high surrogate pairs with an immediately following \uDC00-\uDFFF escape
        if (P + 6 <= E && <u32>load<u8>(P) == 0x5c && <u32>load<u8>(P + 1) == 0x75) {
          const lo = hex4(P + 2);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            P += 6;
            o = putUtf8(o, 0x10000 + ((<u32>(u - 0xd800)) << 10) + <u32>(lo - 0xdc00));
            continue;
          }
        }
        o = putUtf8(o, 0xfffd);
      } else if (u >= 0xdc00 && u <= 0xdfff) {
        o = putUtf8(o, 0xfffd);
      } else {
        o = putUtf8(o, <u32>u);
      }
    } else {
      fail(J_NOT_JSON);
      return 0;
    }
  }
  return <u32>(o - strBuf) + strFlushed;
}

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b >= 0x30 && b <= 0x39;
}

/**
 * Parses a JSON number at P (json-number.ts: exact on Clinger's fast path); HOST outside it, and the host's
 * JSON.parse decides.
 */
function parseNumber(): u64 {
  const r = readNumber(P, E);
  if (r == NUM_BAD) return fail(J_NOT_JSON);
  P = numEnd;
  if (r == NUM_FAR) return fail(J_HOST);
  if (numZero) return hashNumber(0.0);
  return hashNumber(numNeg ? -numMagnitude : numMagnitude);
}

function literal(text: u64, n: usize, fp: u64): u64 {
  // text holds the literal's bytes little-endian ("true" = 0x65757274)
  if (P + n > E) return fail(J_NOT_JSON);
  for (let k: usize = 0; k < n; k++) {
    if (<u64>load<u8>(P + k) != ((text >> (k * 8)) & 0xff)) return fail(J_NOT_JSON);
  }
  P += n;
  return fp;
}

/** Skip mode: a member key and its colon. */
function memberKey(): bool {
  skipWs();
  if (P >= E || <u32>load<u8>(P) != 0x22) {
    fail(J_NOT_JSON);
    return false;
  }
  P++;
  decodeString(false, false);
  if (status != J_OK) return false;
  skipWs();
  if (P >= E || <u32>load<u8>(P) != 0x3a) {
    fail(J_NOT_JSON);
    return false;
  }
  P++;
  return true;
}

/** Skip mode: a scalar value at P (any valid number is fine here, exact or not). */
function skipScalar(b: u32): bool {
  if (b == 0x22) {
    P++;
    decodeString(false, false);
  } else if (b == 0x2d || isDigit(b)) {
    parseNumber();
    if (status == J_HOST) status = J_OK;
  } else if (b == 0x74) literal(0x65757274, 4, 0);
  else if (b == 0x66) literal(0x65736c6166, 5, 0);
  else if (b == 0x6e) literal(0x6c6c756e, 4, 0);
  else fail(J_NOT_JSON);
  return status == J_OK;
}

/**
 * Validates, without hashing, the container opening at P however deep it nests (the open brackets are kept
 * in a byte stack; HOST beyond SKIP_STACK levels).
 */
function skipContainer(): void {
  let depth: u32 = 0;
  while (true) {
    // a value
    skipWs();
    if (P >= E) {
      fail(J_NOT_JSON);
      return;
    }
    const b = <u32>load<u8>(P);
    let closed = false;
    if (b == 0x7b || b == 0x5b) {
      if (depth >= SKIP_STACK) {
        fail(J_HOST);
        return;
      }
      store<u8>(skipBuf + depth, <u8>b);
      depth++;
      P++;
      skipWs();
      if (P < E && <u32>load<u8>(P) == (b == 0x7b ? 0x7d : 0x5d)) {
        P++;
        depth--;
        closed = true;
      } else {
        if (b == 0x7b && !memberKey()) return;
        continue;
      }
    } else if (!skipScalar(b)) {
      return;
    }
    // after a value: commas and closing brackets
    while (true) {
      if (depth == 0) return;
      skipWs();
      if (P >= E) {
        fail(J_NOT_JSON);
        return;
      }
      const c = <u32>load<u8>(P);
      const open = <u32>load<u8>(skipBuf + depth - 1);
      if (c == 0x2c) {
        P++;
        if (open == 0x7b && !memberKey()) return;
        break;
      }
      if ((open == 0x7b && c == 0x7d) || (open == 0x5b && c == 0x5d)) {
        P++;
        depth--;
        continue;
      }
      fail(J_NOT_JSON);
      return;
    }
    if (closed && depth == 0) return;
  }
}

function isIgnored(k: u64): bool {
  for (let i: u32 = 0; i < ignoreCount; i++) {
    if (load<u64>(ignorePtr + (<usize>i << 3)) == k) return true;
  }
  return false;
}

/** Whether decoded key bytes [strBuf, +n) are an array index ("0", "17", < 2^32 - 1): JS orders those first (a key past the window is none). */
function isIndexKey(n: u32): bool {
  if (n == 0 || n > 10) return false;
  if (n > 1 && <u32>load<u8>(strBuf) == 0x30) return false;
  let v: u64 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const c = <u32>load<u8>(strBuf + k);
    if (!isDigit(c)) return false;
    v = v * 10 + <u64>(c - 0x30);
  }
  return v < 4294967295;
}

function parseValue(depth: u32): u64 {
  skipWs();
  if (P >= E) return fail(J_NOT_JSON);
  const b = <u32>load<u8>(P);
  if (b == 0x7b) return parseObject(depth);
  if (b == 0x5b) return parseArray(depth);
  const text = textNode();
  if (b == 0x22) {
    P++;
    const n = decodeString(true, text);
    if (status != J_OK) return 0;
    if (text) stringText(n);
    return stringHash(n);
  }
  if (b == 0x2d || isDigit(b)) return parseNumber();
  if (b == 0x74) return literal(0x65757274, 4, word(TAG_TRUE, 0));
  if (b == 0x66) return literal(0x65736c6166, 5, word(TAG_FALSE, 0));
  if (b == 0x6e) return literal(0x6c6c756e, 4, word(TAG_NULL, 0));
  return fail(J_NOT_JSON);
}

function parseArray(depth: u32): u64 {
  textNode();
  if (depth >= maxDepth) {
    skipContainer();
    return word(TAG_DEEP, 0);
  }
  P++;
  let acc: u64 = TAG_ARRAY;
  let n: u64 = 0;
  skipWs();
  if (P < E && <u32>load<u8>(P) == 0x5d) {
    P++;
    return close(acc, 0);
  }
  while (true) {
    if (++elements > MAX_WALK_ELEMENTS) return fail(J_HOST);
    const v = parseValue(depth + 1);
    if (status != J_OK) return 0;
    acc = fold(acc, v);
    n++;
    skipWs();
    if (P >= E) return fail(J_NOT_JSON);
    const c = <u32>load<u8>(P);
    P++;
    if (c == 0x2c) continue;
    if (c == 0x5d) return close(acc, n);
    return fail(J_NOT_JSON);
  }
}

function parseObject(depth: u32): u64 {
  textNode();
  if (depth >= maxDepth) {
    skipContainer();
    return word(TAG_DEEP, 0);
  }
  P++;
  let sum: u64 = 0;
  let n: u64 = 0;
  const keysStart = keyTop;
  skipWs();
  if (P < E && <u32>load<u8>(P) == 0x7d) {
    P++;
    return close(fold(TAG_OBJECT, 0), 0);
  }
  while (true) {
    skipWs();
    if (P >= E || <u32>load<u8>(P) != 0x22) return fail(J_NOT_JSON);
    P++;
    const kn = decodeString(true, false);
    if (status != J_OK) return 0;
    const key = stringHash(kn);
    if (keyTop - keysStart >= MAX_KEYS || keyTop >= KEY_CAP) return fail(J_HOST);
    for (let i = keysStart; i < keyTop; i++) {
      if (load<u64>(keyBuf + (<usize>i << 3)) == key) return fail(J_HOST);
    }
    store<u64>(keyBuf + (<usize>keyTop << 3), key);
    keyTop++;
    const ignored = ignoreCount > 0 && isIgnored(key);
    if (checkIndexKeys && !ignored && isIndexKey(kn)) return fail(J_HOST);
    skipWs();
    if (P >= E || <u32>load<u8>(P) != 0x3a) return fail(J_NOT_JSON);
    P++;
    if (ignored) textSuspend();
    const v = parseValue(depth + 1);
    if (ignored) textResume();
    if (status != J_OK) return 0;
    if (!ignored) {
      sum += pair(key, v);
      n++;
    }
    skipWs();
    if (P >= E) return fail(J_NOT_JSON);
    const c = <u32>load<u8>(P);
    P++;
    if (c == 0x2c) continue;
    if (c == 0x7d) {
      keyTop = keysStart;
      return close(fold(TAG_OBJECT, sum), n);
    }
    return fail(J_NOT_JSON);
  }
}

/**
 * Hashes JSON text [ptr, ptr + len). `scratch` needs jsonScratchSize() bytes, whatever `len`: the window for
 * decoded strings, 8 * KEY_CAP for keys and SKIP_STACK bytes for skipping. Returns J_OK (fingerprint in
 * jsonFp), J_NOT_JSON or J_HOST.
 */
export function hashJson(ptr: usize, len: u32, depthLimit: u32, ignore: usize, ignoreN: u32, scratch: usize, indexKeysMatter: bool): u32 {
  P = ptr;
  E = ptr + len;
  status = J_OK;
  maxDepth = depthLimit;
  strBuf = scratch;
  strLimit = scratch + STR_WINDOW - 16;
  keyBuf = (scratch + STR_WINDOW + 15) & ~7;
  keyTop = 0;
  skipBuf = keyBuf + 8 * KEY_CAP;
  ignorePtr = ignore;
  ignoreCount = ignoreN;
  checkIndexKeys = indexKeysMatter;
  elements = 0;
  const fp = parseValue(0);
  if (status == J_OK) {
    skipWs();
    if (P != E) status = J_NOT_JSON;
  }
  jsonFp = fp;
  return status;
}

/** Scratch bytes hashJson needs, for an input of any length. */
export function jsonScratchSize(): u32 {
  return STR_WINDOW + 16 + 8 * KEY_CAP + SKIP_STACK;
}
