// Whether an error text may say one of the things src/text/error-reading.ts reads of it (issue 29): the
// module's twin of src/text/error-screen.ts's ERROR_SCREEN, asked in the call's pass over its record as the
// error's key is hashed, so the host reads errorBits only of an error that holds one of MAY_SAY's words.
// The answer is only ever "maybe" or "none": a "maybe" sends the text to the host's expressions.
//
// What is looked for, in the text's first ERROR_SAYS_UNITS UTF-16 units (the expressions read no further;
// counted in units: a 4-byte UTF-8 sequence is two, and one begun before the limit is read whole):
// - a word of MAY_SAY anywhere (no word boundaries: MAY_SAY has none), its ASCII letters in either case
//   (without its `u` flag, `i` folds no character past ASCII to an ASCII letter);
// - `found` and `expected` followed by ASCII white space then `in` / `lines`, or by ASCII white space (or
//   none) then a byte past ASCII: `\s` holds non-ASCII spaces, which "maybe" covers.

import { ERROR_SAYS_UNITS } from './abi';
import { anyAt, at, init as initLanes, ready as lanesReady } from './report-scan';
import { TABLES, triples } from './report-lanes';
import { headBytes } from './result-head';

let ready = false;

function init(): void {
  // the lanes' tables (report-lanes.ts's set E) are filled with report-scan.ts's
  if (!lanesReady) initLanes();
  ready = true;
}

/** `word` at `p`, then ASCII white space and `next`, or ASCII white space (or none) and a byte past ASCII. */
function spacedAt(p: usize, end: usize, word: string, next: string): bool {
  if (!at(p, end, word)) return false;
  let q = p + <usize>word.length;
  const from = q;
  for (; q < end; q++) {
    const b = <u32>load<u8>(q);
    if (b >= 0x80) return true;
    if (!(b == 0x20 || (b >= 0x09 && b <= 0x0d))) break;
  }
  return q > from && at(q, end, next);
}

// MAY_SAY's words by their first letter (found and expected apart: spacedAt)
const W_A: StaticArray<string> = ['approval', 'aborted', 'auth'];
const W_C: StaticArray<string> = ['cancel'];
const W_D: StaticArray<string> = ['denied'];
const W_E: StaticArray<string> = ['exactly'];
const W_G: StaticArray<string> = ['granted'];
const W_I: StaticArray<string> = ['interrupted', 'input', 'invalid'];
const W_L: StaticArray<string> = ['logged'];
const W_M: StaticArray<string> = ['must'];
const W_O: StaticArray<string> = ['occurrences'];
const W_P: StaticArray<string> = ['please', 'parse'];
const W_R: StaticArray<string> = ['required', 'regist', 'received', 'replace'];
const W_S: StaticArray<string> = ['sibling'];
const W_U: StaticArray<string> = ['user', 'unexpected'];
const W_V: StaticArray<string> = ['validation', 'verbatim'];
const W_W: StaticArray<string> = ['want'];
const W_Y: StaticArray<string> = ['your'];

/** Whether a word of MAY_SAY may begin at `p` (its byte `c`, a first letter of one). */
function sayAt(p: usize, end: usize, c: u32): bool {
  switch (c | 0x20) {
    case 0x61: return anyAt(p, end, W_A);
    case 0x63: return anyAt(p, end, W_C);
    case 0x64: return anyAt(p, end, W_D);
    case 0x65: return anyAt(p, end, W_E) || spacedAt(p, end, 'expected', 'lines');
    case 0x66: return spacedAt(p, end, 'found', 'in');
    case 0x67: return anyAt(p, end, W_G);
    case 0x69: return anyAt(p, end, W_I);
    case 0x6c: return anyAt(p, end, W_L);
    case 0x6d: return anyAt(p, end, W_M);
    case 0x6f: return anyAt(p, end, W_O);
    case 0x70: return anyAt(p, end, W_P);
    case 0x72: return anyAt(p, end, W_R);
    case 0x73: return anyAt(p, end, W_S);
    case 0x75: return anyAt(p, end, W_U);
    case 0x76: return anyAt(p, end, W_V);
    case 0x77: return anyAt(p, end, W_W);
    case 0x79: return anyAt(p, end, W_Y);
    default: return false;
  }
}

/** The bytes of UTF-8 text [ptr, ptr + len) that hold its first `units` UTF-16 units (a 4-byte character begun before them whole). */
export function unitsEnd(ptr: usize, len: u32, units: u32): u32 {
  // a unit takes a byte at least: a text of at most `units` bytes is whole
  if (len <= units) return len;
  // result-head.ts's count (-1: the cut falls inside a 4-byte character, which one unit more holds whole)
  const m = headBytes(ptr, len, units);
  return <u32>(m >= 0 ? m : headBytes(ptr, len, units + 1));
}

/** Bytes past a text's end the lanes read (a block of sixteen, and the next two). */
const SLACK: usize = 32;

/** errorMaySay's answer byte by byte (the reference twin of its lanes; also where the lanes would read past the memory). */
export function errorMaySayBytewise(ptr: usize, len: u32): u32 {
  if (!ready) init();
  const end = ptr + <usize>unitsEnd(ptr, len, ERROR_SAYS_UNITS);
  for (let p = ptr; p < end; p++) {
    const c = <u32>load<u8>(p);
    if ((c | 0x20) - 0x61 < 26 && sayAt(p, end, c)) return 1;
  }
  return 0;
}

/**
 * 1 when UTF-8 text [ptr, ptr + len) may say something error-reading.ts reads (see above), 0 when it says none:
 * sixteen bytes at a time, each lane classed by its byte and the next two (report-lanes.ts's set E), only the
 * lanes that may begin a word looked at. Reads up to 18 bytes past the end (what they hold changes nothing).
 */
export function errorMaySay(ptr: usize, len: u32): u32 {
  if (!ready) init();
  const end = ptr + <usize>unitsEnd(ptr, len, ERROR_SAYS_UNITS);
  if (<u64>end + <u64>SLACK > (<u64>memory.size() << 16)) return errorMaySayBytewise(ptr, len);
  const nib = i8x16.splat(0x0f);
  const zero = i8x16.splat(0);
  for (let p = ptr; p < end; p += 16) {
    const v0 = v128.load(p);
    const v1 = v128.load(p + 1);
    const v2 = v128.load(p + 2);
    const e = triples(v128.and(v0, nib), v128.and(i16x8.shr_u(v0, 4), nib), v128.and(v1, nib), v128.and(i16x8.shr_u(v1, 4), nib), v128.and(v2, nib), v128.and(i16x8.shr_u(v2, 4), nib), TABLES + 384);
    const live: u32 = end - p >= 16 ? 0xffff : (1 << <u32>(end - p)) - 1;
    let m = <u32>i8x16.bitmask(i8x16.ne(e, zero)) & live;
    while (m != 0) {
      const q = p + <usize>ctz(m);
      if (sayAt(q, end, <u32>load<u8>(q))) return 1;
      m &= m - 1;
    }
  }
  return 0;
}
