// Similar args' summary (src/text/args-summary.ts's format) of args given in the module's value encoding
// (src/wasm/encode-value.ts; a pool worker's EncodedArgs, whose bytes its record holds), made from the
// encoding itself: the host neither decodes the args into objects (EncodedArgs.value) nor walks them. The
// summary equals `summarizeArgs(decodeJsonData(bytes))` byte for byte (src/wasm/encoded-args.ts;
// test/similar-args-summary-from-encoding.test.ts), or none is made (0 returned) and the host summarises the
// decoded args as before. Given up on: a tag that is not JSON data's (the decoder refuses those too), bytes
// that end too early or are left over, a string that is not well-formed UTF-8 (the host's decoding would
// replace its bytes), one whose UTF-16 units the scratch cannot hold, NaN (its bits as the host writes
// them), keys in an order the decoded object does not keep (a key named twice, an array index after
// another key or not in ascending order: Object.keys puts indexes first, in order), a container
// MAX_DEPTH levels down or of more parts than a summary's bytes, and a summary past MAX_BYTES (these become
// OPAQUE in the host's summary, which needs the decoded value's fingerprint).
//
// A string all ASCII is its bytes (one unit a byte, read where they lie); another is decoded from UTF-8
// into the scratch, two bytes a unit. The nodes are written by args-summary-nodes.ts.
import { T_ARRAY, T_FALSE, T_NULL, T_NUMBER, T_OBJECT, T_STRING, T_TRUE } from './abi';
import { MAX_BYTES, MAX_DEPTH, S, SE, S_ARRAY, S_FALSE, S_NULL, S_OBJECT, S_TRUE, beginSummary, closeContainer, dropKeys, fail, freshKey, indexKey, keyNode, keysHeld, numberNode, ok, openContainer, readInto, scalarNode, stringNode, summaryLength } from './args-summary-nodes';

let P: usize = 0;
let E: usize = 0;

/**
 * Writes the summary of the one value encoded in [ptr, ptr + len) at `area` (`size` bytes: the summary, then
 * scratch: args-summary-nodes.ts); returns its length, or 0 when none was made (see the file comment).
 */
export function summarizeEncodedArgs(ptr: usize, len: u32, area: usize, size: u32): u32 {
  if (!beginSummary(area, size)) return 0;
  P = ptr;
  E = ptr + <usize>len;
  node(0);
  return ok && P == E ? summaryLength() : 0;
}

/** The u32 at P (moved past), or 0 having given up when the bytes end first. */
function count(): u32 {
  if (E - P < 4) {
    fail();
    return 0;
  }
  const n = load<u32>(P);
  P += 4;
  return n;
}

function node(depth: u32): void {
  if (P >= E) {
    fail();
    return;
  }
  const tag = <u32>load<u8>(P);
  P++;
  if (tag == T_STRING) {
    if (readString()) stringNode();
  } else if (tag == T_OBJECT || tag == T_ARRAY) {
    if (depth >= MAX_DEPTH) fail();
    else if (tag == T_OBJECT) object(depth);
    else array(depth);
  } else if (tag == T_NUMBER) {
    if (E - P < 8) {
      fail();
      return;
    }
    const v = load<f64>(P);
    P += 8;
    if (v != v) fail();
    else numberNode(v);
  } else if (tag == T_NULL) scalarNode(S_NULL);
  else if (tag == T_FALSE) scalarNode(S_FALSE);
  else if (tag == T_TRUE) scalarNode(S_TRUE);
  else fail();
}

function array(depth: u32): void {
  const n = count();
  // (more elements than a summary's bytes cannot fit: each takes one at least)
  if (!ok || n > MAX_BYTES) {
    fail();
    return;
  }
  const start = openContainer(S_ARRAY);
  for (let i: u32 = 0; i < n && ok; i++) node(depth + 1);
  if (ok) closeContainer(start, n);
}

function object(depth: u32): void {
  const n = count();
  if (!ok || n > MAX_BYTES) {
    fail();
    return;
  }
  const start = openContainer(S_OBJECT);
  const keysStart = keysHeld();
  // the array indexes among the keys: first, ascending (as Object.keys gives a decoded object's keys)
  let lastIndex: i64 = -1;
  let named = false;
  for (let i: u32 = 0; i < n && ok; i++) {
    if (!readString()) return;
    const k = indexKey();
    if (k >= 0) {
      if (named || k <= lastIndex) {
        fail();
        return;
      }
      lastIndex = k;
    } else named = true;
    if (!freshKey(keysStart)) return;
    keyNode();
    if (ok) node(depth + 1);
  }
  if (!ok) return;
  dropKeys(keysStart);
  closeContainer(start, n);
}

/** Reads a string's length and bytes at P into the string read last; false (given up) when it is not one taken. */
function readString(): bool {
  const n = count();
  if (!ok) return false;
  if (<usize>n > E - P) {
    fail();
    return false;
  }
  const s = P;
  P += <usize>n;
  // sixteen bytes at a time to the first outside ASCII
  let i: usize = 0;
  const len = <usize>n;
  while (i + 16 <= len && i8x16.bitmask(v128.load(s + i)) == 0) i += 16;
  while (i < len && load<u8>(s + i) < 0x80) i++;
  if (i == len) {
    readInto(s, n, false);
    return true;
  }
  return decodeUtf8(s, len, i);
}

/**
 * Decodes the `len` bytes of UTF-8 at `s` (the first `ascii` of them ASCII) into the scratch, two bytes a
 * UTF-16 unit, as the host's Buffer#toString does well-formed UTF-8; gives up on any byte sequence that is
 * not (an overlong form, a surrogate, past U+10FFFF, cut short), or when the scratch is full.
 */
function decodeUtf8(s: usize, len: usize, ascii: usize): bool {
  const e = s + len;
  let o = S;
  if (o + (ascii << 1) > SE) {
    fail();
    return false;
  }
  for (let i: usize = 0; i < ascii; i++) store<u16>(o + (i << 1), <u16>load<u8>(s + i));
  o += ascii << 1;
  let p = s + ascii;
  while (p < e) {
    const b = <u32>load<u8>(p);
    let c: u32 = 0;
    if (b < 0x80) {
      c = b;
      p++;
    } else if (b >= 0xc2 && b <= 0xdf) {
      if (e - p < 2) break;
      const b1 = <u32>load<u8>(p + 1);
      if ((b1 & 0xc0) != 0x80) break;
      c = ((b & 0x1f) << 6) | (b1 & 0x3f);
      p += 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      if (e - p < 3) break;
      const b1 = <u32>load<u8>(p + 1);
      const b2 = <u32>load<u8>(p + 2);
      // E0 needs A0..BF (not overlong), ED 80..9F (not a surrogate)
      const lo: u32 = b == 0xe0 ? 0xa0 : 0x80;
      const hi: u32 = b == 0xed ? 0x9f : 0xbf;
      if (b1 < lo || b1 > hi || (b2 & 0xc0) != 0x80) break;
      c = ((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      p += 3;
    } else if (b >= 0xf0 && b <= 0xf4) {
      if (e - p < 4) break;
      const b1 = <u32>load<u8>(p + 1);
      const b2 = <u32>load<u8>(p + 2);
      const b3 = <u32>load<u8>(p + 3);
      // F0 needs 90..BF (not overlong), F4 80..8F (not past U+10FFFF)
      const lo: u32 = b == 0xf0 ? 0x90 : 0x80;
      const hi: u32 = b == 0xf4 ? 0x8f : 0xbf;
      if (b1 < lo || b1 > hi || (b2 & 0xc0) != 0x80 || (b3 & 0xc0) != 0x80) break;
      const cp = (((b & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)) - 0x10000;
      // a surrogate pair
      if (o + 4 > SE) break;
      store<u16>(o, <u16>(0xd800 + (cp >> 10)));
      store<u16>(o + 2, <u16>(0xdc00 + (cp & 0x3ff)));
      o += 4;
      p += 4;
      continue;
    } else break;
    if (o + 2 > SE) break;
    store<u16>(o, <u16>c);
    o += 2;
  }
  if (p < e) {
    fail();
    return false;
  }
  readInto(S, <u32>((o - S) >> 1), true);
  return true;
}
