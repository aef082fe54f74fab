// Volatile-part masking over UTF-8 bytes: the twin of src/text/mask-volatile.ts (see its rules).
import { MASK_QUOTE_MAX } from './abi';

// @ts-ignore: decorator
@inline function cls(b: u32): u32 {
  // 1 space, 2 quote, 3 delimiter, 0 word byte
  if (b == 0x20 || (b >= 0x09 && b <= 0x0d)) return 1;
  if (b == 0x22 || b == 0x27 || b == 0x60) return 2;
  if (b == 0x28 || b == 0x29 || b == 0x5b || b == 0x5d || b == 0x7b || b == 0x7d || b == 0x2c || b == 0x3b || b == 0x3c || b == 0x3e || b == 0x3d) return 3;
  return 0;
}

// @ts-ignore: decorator
@inline function isAlnum(b: u32): bool {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b == 0x5f;
}

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b >= 0x30 && b <= 0x39;
}

// @ts-ignore: decorator
@inline function isHex(b: u32): bool {
  return isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
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
    if (c == 1) {
      space = o > dst;
      i++;
      continue;
    }
    if (space) {
      store<u8>(o++, 0x20);
      space = false;
    }
    if (c == 2) {
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
    if (c == 3) {
      store<u8>(o++, <u8>b);
      i++;
      continue;
    }
    let j = i;
    let slash = false;
    while (j < n) {
      const d = <u32>load<u8>(src + j);
      if (cls(d) != 0) break;
      if (d == 0x2f || d == 0x5c) slash = true;
      j++;
    }
    if (slash) {
      o = put3(o, 0x3c, 0x70, 0x61); // <pa
      o = put3(o, 0x74, 0x68, 0x3e); // th>
      i = j;
      continue;
    }
    let k = i;
    while (k < j) {
      const d = <u32>load<u8>(src + k);
      if (!isAlnum(d)) {
        store<u8>(o++, <u8>d);
        k++;
        continue;
      }
      let m = k;
      let digit = false;
      let hex = true;
      while (m < j) {
        const e = <u32>load<u8>(src + m);
        if (!isAlnum(e)) break;
        if (isDigit(e)) digit = true;
        if (!isHex(e)) hex = false;
        m++;
      }
      if (!digit) {
        memory.copy(o, src + k, m - k);
        o += m - k;
      } else if (hex && m - k >= 7) {
        o = put3(o, 0x3c, 0x69, 0x64); // <id
        store<u8>(o++, 0x3e); // >
      } else {
        let x = k;
        while (x < m) {
          if (isDigit(<u32>load<u8>(src + x))) {
            while (x < m && isDigit(<u32>load<u8>(src + x))) x++;
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
