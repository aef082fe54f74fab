// Volatile-part masking over UTF-8 bytes: the twin of src/text/mask-volatile.ts (see its rules).
import { MASK_QUOTE_MAX } from './abi';

// byte classes: 1 space, 2 quote, 4 delimiter, 8 ASCII alphanumeric or "_", 16 digit, 32 hex digit, 64 slash,
// 128 colon (a word byte; an "ID:" label is found in the byte loop, so the vector path leaves it there)
const CLASS: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 0, 2, 0, 0, 0, 0, 2, 4, 4, 0, 0, 4, 0, 0, 64, 56, 56, 56, 56, 56, 56, 56, 56, 56, 56, 128, 4, 4, 4, 4, 0,
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
const COLON: u32 = 128;

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

// bytes that need the byte loop (quotes, delimiters, digits, slashes, colons), as two sixteen-entry tables for a
// vector lookup: b is one when SPECIAL_LO[b & 15] & SPECIAL_HI[b >> 4] != 0, each distinct high nibble
// of such bytes having a bit of its own (five of them); made from CLASS on first use
const SPECIAL_LO: usize = memory.data(16);
const SPECIAL_HI: usize = memory.data(16);
let specialReady = false;
// lanes of the last chunk plainRun() accepted that hold white space (all ones), for the store
let spaceLanes: v128 = i8x16.splat(0);

function prepareSpecial(): void {
  let bits: u32 = 0;
  for (let b: u32 = 0; b < 128; b++) {
    if ((cls(b) & (QUOTE | DELIM | DIGIT | SLASH | COLON)) == 0) continue;
    if (load<u8>(SPECIAL_HI + (b >> 4)) == 0) {
      store<u8>(SPECIAL_HI + (b >> 4), <u8>(<u32>1 << bits));
      bits++;
    }
    store<u8>(SPECIAL_LO + (b & 15), load<u8>(SPECIAL_LO + (b & 15)) | load<u8>(SPECIAL_HI + (b >> 4)));
  }
  specialReady = true;
}

/**
 * Whether the bytes at p (at least 16 before the limit, `left` of them) start a run the vector path
 * keeps: no special byte, no two white space bytes together (nor one after a pending space, nor one
 * first in the output), and ending where a word ends. Returns 0, or the run's length (at most 16) with
 * 0x80 set when its last byte is white space.
 */
function plainRun(p: usize, left: usize, pending: bool, started: bool): u32 {
  const v = v128.load(p);
  const special = v128.and(i8x16.swizzle(v128.load(SPECIAL_LO), v128.and(v, i8x16.splat(15))), i8x16.swizzle(v128.load(SPECIAL_HI), i8x16.shr_u(v, 4)));
  if (v128.any_true(special)) return 0;
  const sp = v128.or(i8x16.eq(v, i8x16.splat(0x20)), i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x09)), i8x16.splat(5)));
  const bits = <u32>i8x16.bitmask(sp);
  if ((bits & (bits >> 1)) != 0) return 0;
  if ((bits & 1) != 0 && (pending || !started)) return 0;
  let len: u32 = 16;
  if (left > 16 && (bits & 0x8000) == 0 && (cls(<u32>load<u8>(p + 16)) & (SPACE | QUOTE | DELIM)) == 0) {
    // the last word goes on past the chunk: stop after the last white space byte
    if (bits == 0) return 0;
    len = 32 - clz<u32>(bits);
  }
  spaceLanes = sp;
  return len | ((bits >> (len - 1)) & 1) << 7;
}

/** Copies n bytes to o; returns o + n. Words are short: a byte loop beats memory.copy's call below 16 bytes. */
// @ts-ignore: decorator
@inline function copyBytes(o: usize, from: usize, n: usize): usize {
  if (n < 16) {
    for (let x: usize = 0; x < n; x++) store<u8>(o + x, load<u8>(from + x));
  } else {
    memory.copy(o, from, n);
  }
  return o + n;
}

/** Masks src[0, min(len, limit)) into dst (at least 6 * n + 8 bytes); returns the masked length. */
export function maskBytes(src: usize, len: u32, limit: u32, dst: usize): u32 {
  const n: usize = len < limit ? len : limit;
  if (!specialReady) prepareSpecial();
  let o = dst;
  let space = false;
  let i: usize = 0;
  while (i < n) {
    // sixteen bytes at a time while they hold only words without digits or slashes, separated by single
    // white space bytes (most prose and log text): kept as they are, each space byte as 0x20
    if (i + 16 <= n) {
      const run = plainRun(src + i, n - i, space, o > dst);
      if (run != 0) {
        if (space) store<u8>(o++, 0x20);
        v128.store(o, v128.bitselect(i8x16.splat(0x20), v128.load(src + i), spaceLanes));
        // a space ending the run is left pending, as the byte loop leaves it
        space = (run & 0x80) != 0;
        const len = <usize>(run & 0x1f);
        o += space ? len - 1 : len;
        i += len;
        continue;
      }
    }
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
    if (j - i == 3 && (<u32>load<u8>(src + i) | 0x20) == 0x69 && (<u32>load<u8>(src + i + 1) | 0x20) == 0x64 && <u32>load<u8>(src + i + 2) == 0x3a) {
      // "ID:" labels the next word, masked whole: <id>
      o = copyBytes(o, src + i, 3);
      let w = j;
      while (w < n && (cls(<u32>load<u8>(src + w)) & SPACE) != 0) w++;
      if (w > j && w < n && (cls(<u32>load<u8>(src + w)) & (SPACE | QUOTE | DELIM)) == 0) {
        let t = w;
        while (t < n && (cls(<u32>load<u8>(src + t)) & (SPACE | QUOTE | DELIM)) == 0) t++;
        store<u8>(o++, 0x20);
        o = put3(o, 0x3c, 0x69, 0x64); // <id
        store<u8>(o++, 0x3e); // >
        j = t;
      }
      i = j;
      continue;
    }
    if (slash) {
      o = put3(o, 0x3c, 0x70, 0x61); // <pa
      o = put3(o, 0x74, 0x68, 0x3e); // th>
      i = j;
      continue;
    }
    if ((any & DIGIT) == 0) {
      // no digit: no number or id to mask, the token is kept as it is (most tokens)
      o = copyBytes(o, src + i, j - i);
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
        o = copyBytes(o, src + k, m - k);
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
