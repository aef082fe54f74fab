// Volatile-part masking over UTF-8 bytes: the twin of src/text/mask-volatile.ts (see its rules).
import { MASK_QUOTE_MAX } from './abi';

// byte classes: 1 space, 2 quote, 4 delimiter, 8 ASCII alphanumeric or "_", 16 digit, 32 hex digit, 64 slash
const CLASS: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 0, 2, 0, 0, 0, 0, 2, 4, 4, 0, 0, 4, 0, 0, 64, 56, 56, 56, 56, 56, 56, 56, 56, 56, 56, 0, 4, 4, 4, 4, 0,
  0, 40, 40, 40, 40, 40, 40, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 64, 4, 0, 8,
  2, 40, 40, 40, 40, 40, 40, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 0, 4, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
const SPACE: u32 = 1;
const QUOTE: u32 = 2;
const DELIM: u32 = 4;
const ALNUM: u32 = 8;
const DIGIT: u32 = 16;
const HEX: u32 = 32;
const SLASH: u32 = 64;

// @ts-ignore: decorator
@inline function cls(b: u32): u32 {
  return <u32>load<u8>(CLASS + b);
}

// @ts-ignore: decorator
@inline function put3(o: usize, a: u32, b: u32, c: u32): usize {
  store<u8>(o, <u8>a);
  store<u8>(o, <u8>b, 1);
  store<u8>(o, <u8>c, 2);
  return o + 3;
}

/** Masks src[0, min(len, limit)) into dst (at least 6 * n + 8 bytes); returns the masked length. */
export function maskBytes(src: usize, len: u32, limit: u32, dst: usize): u32 {
  const n: usize = len < limit ? len : limit;
  let o = dst;
  let space = false;
  let i: usize = 0;
  while (i < n) {
    const b = <u32>load<u8>(src + i);
    const c = cls(b);
    if ((c & SPACE) != 0) {
      space = o > dst;
      i++;
      continue;
    }
    if (space) {
      store<u8>(o++, 0x20);
      space = false;
    }
    if ((c & QUOTE) != 0) {
      let j = i + 1;
      while (j < n && j - i - 1 <= MASK_QUOTE_MAX) {
        const d = <u32>load<u8>(src + j);
        if (d == b || d == 0x0a) break;
        j++;
      }
      if (j < n && <u32>load<u8>(src + j) == b && j - i - 1 <= MASK_QUOTE_MAX) {
        o = put3(o, 0x3c, 0x71, 0x3e); // <q>
        i = j + 1;
      } else {
        store<u8>(o++, <u8>b);
        i++;
      }
      continue;
    }
    if ((c & DELIM) != 0) {
      store<u8>(o++, <u8>b);
      i++;
      continue;
    }
    let j = i;
    let slash = false;
    let any: u32 = 0;
    while (j < n) {
      const d = cls(<u32>load<u8>(src + j));
      if ((d & (SPACE | QUOTE | DELIM)) != 0) break;
      any |= d;
      j++;
    }
    slash = (any & SLASH) != 0;
    if (slash) {
      o = put3(o, 0x3c, 0x70, 0x61); // <pa
      o = put3(o, 0x74, 0x68, 0x3e); // th>
      i = j;
      continue;
    }
    let k = i;
    while (k < j) {
      const d = <u32>load<u8>(src + k);
      if ((cls(d) & ALNUM) == 0) {
        store<u8>(o++, <u8>d);
        k++;
        continue;
      }
      let m = k;
      let digit = false;
      let hex = true;
      while (m < j) {
        const e = cls(<u32>load<u8>(src + m));
        if ((e & ALNUM) == 0) break;
        if ((e & DIGIT) != 0) digit = true;
        if ((e & HEX) == 0) hex = false;
        m++;
      }
      if (!digit) {
        // words are short: a byte loop beats memory.copy's call below 16 bytes
        if (m - k < 16) {
          for (let x = k; x < m; x++) store<u8>(o++, load<u8>(src + x));
        } else {
          memory.copy(o, src + k, m - k);
          o += m - k;
        }
      } else if (hex && m - k >= 7) {
        o = put3(o, 0x3c, 0x69, 0x64); // <id
        store<u8>(o++, 0x3e); // >
      } else {
        let x = k;
        while (x < m) {
          if ((cls(<u32>load<u8>(src + x)) & DIGIT) != 0) {
            while (x < m && (cls(<u32>load<u8>(src + x)) & DIGIT) != 0) x++;
            o = put3(o, 0x3c, 0x6e, 0x3e); // <n>
          } else {
            store<u8>(o++, load<u8>(src + x));
            x++;
          }
        }
      }
      k = m;
    }
    i = j;
  }
  return <u32>(o - dst);
}
