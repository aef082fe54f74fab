// Similar args' summary (src/text/args-summary.ts's format) of args given as JSON text, made from the text
// itself: the host neither parses the args (JSON.parse) nor walks the value. The summary equals
// `summarizeArgs(JSON.parse(text))` byte for byte (test/similar-args-summary-from-bytes.test.ts), or none is
// made (0 returned) and the host summarises the parsed args as before. Given up on: text that is not JSON,
// a byte outside ASCII (the host's UTF-8 decoding decides those), a key named twice in one object or one
// that is an array index (JSON.parse's key order then differs from the text's), a number outside the exact
// fast path (at most 15 significant digits, a power of ten within 1e±22), a container MAX_DEPTH levels
// down, a string whose decoded units the scratch cannot hold, and a summary past MAX_BYTES (these become
// OPAQUE in the host's summary, which needs the parsed value's fingerprint).
// The summary's nodes are written by args-summary-nodes.ts (its area's layout there).
//
// A string without escapes is its bytes (one unit a byte). An escaped one is decoded into the scratch, one
// byte a unit while every unit is below 256, else again two bytes a unit.
import { hex4 } from './json';
import { NUM_OK, numEnd, numMagnitude, numNeg, readNumber } from './json-number';
import { MAX_DEPTH, S, SE, S_ARRAY, S_FALSE, S_NULL, S_OBJECT, S_TRUE, beginSummary, closeContainer, dropKeys, fail, freshKey, indexKey, keyNode, keysHeld, numberNode, ok, openContainer, readInto, scalarNode, stringNode, summaryLength } from './args-summary-nodes';

let P: usize = 0;
let E: usize = 0;

/**
 * Writes the summary of the JSON text [ptr, ptr + len) at `area` (`size` bytes: the summary, then scratch:
 * args-summary-nodes.ts); returns its length, or 0 when none was made (see the file comment).
 */
export function summarizeJsonArgs(ptr: usize, len: u32, area: usize, size: u32): u32 {
  if (!beginSummary(area, size)) return 0;
  P = ptr;
  E = ptr + <usize>len;
  node(0);
  if (!ok) return 0;
  skipWs();
  return P == E ? summaryLength() : 0;
}

// @ts-ignore: decorator
@inline function isWs(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

function skipWs(): void {
  while (P < E && isWs(<u32>load<u8>(P))) P++;
}

function node(depth: u32): void {
  skipWs();
  if (P >= E) {
    fail();
    return;
  }
  const b = <u32>load<u8>(P);
  if (b == 0x22) {
    if (readString()) stringNode();
  } else if (b == 0x7b || b == 0x5b) {
    if (depth >= MAX_DEPTH) fail();
    else if (b == 0x7b) object(depth);
    else array(depth);
  } else if (b == 0x2d || b - 0x30 < 10) number();
  else if (b == 0x74) literal(0x65757274, 4, S_TRUE);
  else if (b == 0x66) literal(0x65736c6166, 5, S_FALSE);
  else if (b == 0x6e) literal(0x6c6c756e, 4, S_NULL);
  else fail();
}

function literal(text: u64, n: usize, tag: u8): void {
  if (P + n > E) {
    fail();
    return;
  }
  for (let k: usize = 0; k < n; k++) {
    if (<u64>load<u8>(P + k) != ((text >> (k * 8)) & 0xff)) {
      fail();
      return;
    }
  }
  P += n;
  scalarNode(tag);
}

function array(depth: u32): void {
  P++;
  const start = openContainer(S_ARRAY);
  if (!ok) return;
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
        fail();
        return;
      }
      const c = <u32>load<u8>(P);
      P++;
      if (c == 0x5d) break;
      if (c != 0x2c) {
        fail();
        return;
      }
    }
  }
  closeContainer(start, count);
}

function object(depth: u32): void {
  P++;
  const start = openContainer(S_OBJECT);
  if (!ok) return;
  const keysStart = keysHeld();
  let count: u32 = 0;
  skipWs();
  if (P < E && <u32>load<u8>(P) == 0x7d) P++;
  else {
    while (true) {
      skipWs();
      if (P >= E || <u32>load<u8>(P) != 0x22 || !readString()) {
        fail();
        return;
      }
      // an array index comes first in the parsed object's keys, wherever the text has it
      if (indexKey() >= 0) {
        fail();
        return;
      }
      if (!freshKey(keysStart)) return;
      keyNode();
      if (!ok) return;
      skipWs();
      if (P >= E || <u32>load<u8>(P) != 0x3a) {
        fail();
        return;
      }
      P++;
      node(depth + 1);
      if (!ok) return;
      count++;
      skipWs();
      if (P >= E) {
        fail();
        return;
      }
      const c = <u32>load<u8>(P);
      P++;
      if (c == 0x7d) break;
      if (c != 0x2c) {
        fail();
        return;
      }
    }
  }
  dropKeys(keysStart);
  closeContainer(start, count);
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
      readInto(s, <u32>(P - s), false);
      P++;
      return true;
    }
    if (b == 0x5c) return decode(s, false) || (ok && decode(s, true));
    if (b < 0x20 || b >= 0x80) break;
    P++;
  }
  fail();
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
      readInto(S, <u32>(two ? (o - S) >> 1 : o - S), two);
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
  fail();
  return false;
}

/** A number's node (SMALL or NUMBER), its value by Clinger's fast path (json-number.ts); gives up outside it. */
function number(): void {
  if (readNumber(P, E) != NUM_OK) {
    fail();
    return;
  }
  P = numEnd;
  numberNode(numNeg ? -numMagnitude : numMagnitude);
}
