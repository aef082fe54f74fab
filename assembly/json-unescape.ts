// A JSON string literal's content (between its quotes, escapes and all) decoded in place into the UTF-8
// that `TextEncoder` makes of `JSON.parse`'s string: `\uXXXX` escapes become UTF-8, a surrogate pair one
// code point, a lone surrogate U+FFFD (as the encoder writes it). Decoding never lengthens the text, so it
// is done where it lies. Input the line reader did not check (an escape cut short, an unknown one) is kept
// byte for byte rather than trapping.
import { hex4, putUtf8 } from './json';

/** Decodes the `n` bytes at `p` in place; returns the decoded length. */
export function unescapeJsonInPlace(p: usize, n: u32): u32 {
  const end = p + <usize>n;
  // the text up to the first backslash stays where it is
  let i = p;
  const backslash = i8x16.splat(0x5c);
  while (i + 16 <= end) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(i), backslash));
    if (m != 0) {
      i += <usize>ctz<u32>(m);
      break;
    }
    i += 16;
  }
  while (i < end && load<u8>(i) != 0x5c) i++;
  let o = i;
  while (i < end) {
    // sixteen bytes with no backslash move as one (all read before any is written: o <= i)
    if (i + 16 <= end) {
      const v = v128.load(i);
      const m = i8x16.bitmask(i8x16.eq(v, backslash));
      if (m == 0) {
        v128.store(o, v);
        i += 16;
        o += 16;
        continue;
      }
      // the bytes before the backslash move as one run (memory.copy allows the overlap)
      const k = <usize>ctz<u32>(m);
      if (k != 0) {
        memory.copy(o, i, k);
        i += k;
        o += k;
      }
    }
    const b = <u32>load<u8>(i);
    if (b != 0x5c || i + 1 >= end) {
      store<u8>(o++, <u8>b);
      i++;
      continue;
    }
    const c = <u32>load<u8>(i + 1);
    let out: u32 = 0xffffffff;
    if (c == 0x22 || c == 0x5c || c == 0x2f) out = c;
    else if (c == 0x62) out = 0x08;
    else if (c == 0x66) out = 0x0c;
    else if (c == 0x6e) out = 0x0a;
    else if (c == 0x72) out = 0x0d;
    else if (c == 0x74) out = 0x09;
    if (out != 0xffffffff) {
      store<u8>(o++, <u8>out);
      i += 2;
      continue;
    }
    const u = c == 0x75 && i + 6 <= end ? hex4(i + 2) : -1;
    if (u < 0) {
      // not an escape the line reader lets through: kept as it is
      store<u8>(o++, <u8>b);
      i++;
      continue;
    }
    i += 6;
    let cp = <u32>u;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      // a high surrogate: a pair with a low one that follows, else alone
      const lo = i + 6 <= end && load<u8>(i) == 0x5c && load<u8>(i + 1) == 0x75 ? hex4(i + 2) : -1;
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (<u32>lo - 0xdc00);
        i += 6;
      } else cp = 0xfffd;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) cp = 0xfffd;
    o = putUtf8(o, cp);
  }
  return <u32>(o - p);
}
