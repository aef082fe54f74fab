// "Nothing found" results: the twin of src/text/nothing-found.ts (phrases and values must match it).
// One pass over the first NOTHING_LOOK bytes: phrases are only tried at word starts whose first two
// letters begin some phrase. Sixteen bytes at a time (SIMD), word starts whose byte and next two may begin
// some phrase are found first (by the byte alone in a block whose next two bytes would lie past the text),
// so most bytes cost a few vector operations and few word starts reach the phrases.
import { NOTHING_LOOK } from './abi';
import { collectionErrorsAt, installNoticeAt, memberMissingAt, programMissingAt, wrongNameAt } from './not-a-finding';
import { shellNoiseEnd } from './shell-noise';

const PHRASES: StaticArray<string> = [
  'no result', '0 result', 'zero result', 'no match', '0 match', 'not found', 'nothing found', 'could not find',
  "couldn't find", 'no such', 'does not exist', "doesn't exist", 'no items', 'no records', 'no rows',
  'no entries', 'no files', 'no documents', 'no hits', 'no flights', 'nothing to show', '0 items',
  '0 records', '0 rows', '0 hits', 'returned nothing', 'found nothing',
];
const VALUES: StaticArray<string> = ['[]', '{}', 'null', 'none', 'empty', '(empty)', '""', "''"];
// the phrases a match of which may be passed over (not-a-finding.ts): PHRASES' indices
const NOT_FOUND = 5;
const DOES_NOT_EXIST = 10;
const DOESNT_EXIST = 11;
const ZERO_ITEMS = 21;

// @ts-ignore: decorator
@inline function isSpace(b: u32): bool {
  return b == 0x20 || (b >= 0x09 && b <= 0x0d);
}

// @ts-ignore: decorator
@inline function lower(b: u32): u32 {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

/** Whether `s` (ASCII) equals the low-cased bytes [p, p + s.length). */
function matchesAt(p: usize, s: string): bool {
  const n = s.length;
  for (let k = 1; k < n; k++) {
    if (lower(<u32>load<u8>(p + <usize>k)) != <u32>s.charCodeAt(k)) return false;
  }
  return true;
}

// the phrases' distinct two-letter beginnings, and for each the set of phrases (bits) that begin with it
// static memory (no allocation: the module's own allocator is not used, its heap is the slots')
const PREFIXES: usize = memory.data(32 * 4);
const MEMBERS: usize = memory.data(32 * 4);
// per byte: 1 when some phrase begins with it (most word starts are rejected by this one load)
const FIRST: usize = memory.data(256);
// per byte: 1 for ASCII letters and digits (what continues a word)
const WORD: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
let prefixCount: i32 = 0;
// the bytes phrases begin with, as two sixteen-entry tables for a vector lookup: a byte b begins some
// phrase when FIRST_LO[b & 15] & FIRST_HI[b >> 4] != 0 (each distinct high nibble has a bit of its own;
// phrases begin with lower-case letters and digits, three high nibbles)
const FIRST_LO: usize = memory.data(16);
const FIRST_HI: usize = memory.data(16);
let hiBits: u32 = 0;
// the phrases' first three bytes, for a vector lookup of a block's lanes by their byte and the next two (as
// report-lanes.ts classes them): for each of the three bytes a low-nibble and a high-nibble table of sixteen,
// bit k on where the byte may be the phrases of two-letter beginning k's (letters in both cases). A nibble
// product holds every byte asked for (more at most), so a lane whose bits are all off begins no phrase.
const TRIPLES: usize = memory.data(96, 16);
let ready = false;

/** Marks byte `c` (a letter in both cases) for bit `bit` as the `at`-th byte of a phrase's first three. */
function markTriple(bit: u32, at: usize, c: u32): void {
  const base = TRIPLES + at * 32;
  for (let twice = 0; twice < 2; twice++) {
    store<u8>(base + <usize>(c & 15), load<u8>(base + <usize>(c & 15)) | bit);
    store<u8>(base + 16 + <usize>(c >> 4), load<u8>(base + 16 + <usize>(c >> 4)) | bit);
    if ((c | 0x20) - 0x61 >= 26) break;
    c ^= 0x20;
  }
}

function prepare(): void {
  for (let q = 0; q < PHRASES.length; q++) {
    const ph = unchecked(PHRASES[q]);
    const key = <u32>ph.charCodeAt(0) | (<u32>ph.charCodeAt(1) << 8);
    let k = 0;
    while (k < prefixCount && load<u32>(PREFIXES + (<usize>k << 2)) != key) k++;
    if (k == prefixCount) {
      store<u32>(PREFIXES + (<usize>k << 2), key);
      store<u32>(MEMBERS + (<usize>k << 2), 0);
      prefixCount++;
    }
    const f = <u32>ph.charCodeAt(0);
    if (load<u8>(FIRST_HI + (f >> 4)) == 0) {
      store<u8>(FIRST_HI + (f >> 4), <u8>(<u32>1 << hiBits));
      hiBits++;
    }
    store<u8>(FIRST_LO + (f & 15), load<u8>(FIRST_LO + (f & 15)) | load<u8>(FIRST_HI + (f >> 4)));
    store<u8>(FIRST + <usize>ph.charCodeAt(0), 1);
    store<u32>(MEMBERS + (<usize>k << 2), load<u32>(MEMBERS + (<usize>k << 2)) | (<u32>1 << <u32>q));
    // every phrase is longer than three bytes; beginnings past the eighth share its bit (more lanes at most)
    const bit: u32 = <u32>1 << <u32>(k < 7 ? k : 7);
    for (let b = 0; b < 3; b++) markTriple(bit, <usize>b, <u32>ph.charCodeAt(b));
  }
  ready = true;
}

/**
 * Whether UTF-8 text [ptr, ptr + len) says that nothing was found, once the lines a shell's startup prints
 * ahead of it are set aside (shell-noise.ts).
 */
export function saysNothingFound(ptr: usize, len: u32): bool {
  const skip = shellNoiseEnd(ptr, len);
  return saysNothing(ptr + skip, len - skip);
}

/**
 * Whether UTF-8 text [ptr, ptr + len), its shell-startup lines already set aside, says that nothing was found
 * (what saysNothingFound reads past shellNoiseEnd: for a caller that has that end already).
 */
export function saysNothing(ptr: usize, len: u32): bool {
  let e: u32 = len;
  while (e > 0 && isSpace(<u32>load<u8>(ptr + e - 1))) e--;
  return saysNothingHeld(ptr, len, len, e);
}

/**
 * saysNothing of a text of `len` bytes of which only [ptr, ptr + held) may be read (a long section's head:
 * long-section.ts), ending at `e` once its trailing white space is trimmed (given: it may lie past the held
 * bytes). Past its first NOTHING_LOOK bytes the reading looks only at the end of a run of digits (pytest's
 * `collected 0 items / N errors`), read within the held bytes.
 */
export function saysNothingHeld(ptr: usize, len: u32, held: u32, e: u32): bool {
  if (!ready) prepare();
  const n: u32 = len < NOTHING_LOOK ? len : NOTHING_LOOK;
  let s: u32 = 0;
  // (a text all white space: no value matches, wherever s stops)
  while (s < e && s < held && isSpace(<u32>load<u8>(ptr + s))) s++;
  if (e - s <= 8 && e <= n) {
    for (let v = 0; v < VALUES.length; v++) {
      const val = unchecked(VALUES[v]);
      if (<u32>val.length == e - s && lower(<u32>load<u8>(ptr + s)) == <u32>val.charCodeAt(0) && matchesAt(ptr + s, val)) return true;
    }
  }
  // sixteen bytes at a time: the word starts (after a byte that is not an ASCII letter or digit) whose
  // byte, lower-cased, begins some phrase
  let i: u32 = 0;
  // a lane's byte and the next two (read only within the text): only the phrases' first three pass, so
  // few lanes are left, and whether one is at a word start is asked of the byte before it alone
  const n15 = i8x16.splat(15);
  // the tables in registers for the whole loop
  const lo0 = v128.load(TRIPLES);
  const hi0 = v128.load(TRIPLES + 16);
  const lo1 = v128.load(TRIPLES + 32);
  const hi1 = v128.load(TRIPLES + 48);
  const lo2 = v128.load(TRIPLES + 64);
  const hi2 = v128.load(TRIPLES + 80);
  while (i + 16 <= n && i + 18 <= len) {
    const v = v128.load(ptr + i);
    const v1 = v128.load(ptr + i + 1);
    const v2 = v128.load(ptr + i + 2);
    const classes = v128.and(
      v128.and(v128.and(i8x16.swizzle(lo0, v128.and(v, n15)), i8x16.swizzle(hi0, i8x16.shr_u(v, 4))), v128.and(i8x16.swizzle(lo1, v128.and(v1, n15)), i8x16.swizzle(hi1, i8x16.shr_u(v1, 4)))),
      v128.and(i8x16.swizzle(lo2, v128.and(v2, n15)), i8x16.swizzle(hi2, i8x16.shr_u(v2, 4))),
    );
    let lanes = <u32>i8x16.bitmask(i8x16.ne(classes, i8x16.splat(0)));
    while (lanes != 0) {
      const at = i + ctz<u32>(lanes);
      lanes &= lanes - 1;
      if (at > 0 && load<u8>(WORD + <usize>load<u8>(ptr + at - 1)) != 0) continue;
      if (at + 1 < n && phraseAt(ptr, at, n, len, held)) return true;
    }
    i += 16;
  }
  // the last block, where the bytes after a lane may lie past the text: word starts whose byte begins some phrase
  let carry: u32 = i > 0 ? <u32>load<u8>(WORD + <usize>load<u8>(ptr + i - 1)) : 0; // whether the byte before i continues a word
  while (i + 16 <= n) {
    const v = v128.load(ptr + i);
    const upper = i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x41)), i8x16.splat(26));
    const low = v128.or(v, v128.and(upper, i8x16.splat(0x20)));
    const letter = i8x16.lt_u(i8x16.sub(low, i8x16.splat(0x61)), i8x16.splat(26));
    const digit = i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x30)), i8x16.splat(10));
    const word = <u32>i8x16.bitmask(v128.or(letter, digit));
    const classes = v128.and(i8x16.swizzle(v128.load(FIRST_LO), v128.and(low, i8x16.splat(15))), i8x16.swizzle(v128.load(FIRST_HI), i8x16.shr_u(low, 4)));
    const first = <u32>i8x16.bitmask(i8x16.ne(classes, i8x16.splat(0)));
    let starts = first & ~((word << 1) | carry) & 0xffff;
    carry = (word >> 15) & 1;
    while (starts != 0) {
      const at = i + ctz<u32>(starts);
      starts &= starts - 1;
      if (at + 1 < n && phraseAt(ptr, at, n, len, held)) return true;
    }
    i += 16;
  }
  let prevWord: u32 = carry;
  for (; i + 1 < n; i++) {
    const b = <u32>load<u8>(ptr + i);
    const wasWord = prevWord;
    prevWord = <u32>load<u8>(WORD + b);
    // FIRST holds lower-case letters and digits: an upper-case letter is looked up lowered
    if (wasWord != 0 || load<u8>(FIRST + (b | (prevWord & ((b >> 6) & 1)) << 5)) == 0) continue;
    if (phraseAt(ptr, i, n, len, held)) return true;
  }
  return false;
}

/**
 * Whether some phrase starts at `i` (a word start whose byte begins some phrase), within the first `n` bytes
 * of the `len`, and is not passed over where it stands (not-a-finding.ts).
 */
function phraseAt(ptr: usize, i: u32, n: u32, len: u32, held: u32): bool {
  const c = lower(<u32>load<u8>(ptr + i));
  const key = c | (lower(<u32>load<u8>(ptr + i + 1)) << 8);
  let k = 0;
  while (k < prefixCount && load<u32>(PREFIXES + (<usize>k << 2)) != key) k++;
  if (k == prefixCount) return false;
  let members = load<u32>(MEMBERS + (<usize>k << 2));
  while (members != 0) {
    const q = <i32>ctz<u32>(members);
    members &= members - 1;
    const ph = unchecked(PHRASES[q]);
    if (i + <u32>ph.length > n || !matchesAt(ptr + i, ph)) continue;
    const end = i + <u32>ph.length;
    if (q == NOT_FOUND ? installNoticeAt(ptr, len, end) || programMissingAt(ptr, i) || memberMissingAt(ptr, i) : q == DOES_NOT_EXIST || q == DOESNT_EXIST ? wrongNameAt(ptr, len, i, end) : q == ZERO_ITEMS ? collectionErrorsAt(ptr, len, end, held) : false) continue;
    return true;
  }
  return false;
}
