// Where report-scan.ts's checks may begin in an output, sixteen bytes at a time (the lane classes of its pass). Each check needs its first three bytes to be one of a
// few triples (passAt: all, bui, com, fin, no_/not, ok?, suc, tes, up_/up-, wor at a word start, or a run of
// digits, a space and p, e, f or i; stemAt: err, exc, fai/fat, pan, tra, or a cross mark's E2 9C/9D; noteAt:
// [th [cu [co [py (ba (po (co), so a block's lanes are classed by their byte and the next two, each by two nibble
// lookups (i8x16.swizzle): bit k of a set is on in a lane when its byte's low and high nibbles both allow
// triple k's first byte, the next byte's its second and the one after its third. A nibble product holds every
// byte asked for (letters in both cases; more at most), so a lane whose bits are all off is one where the
// check would answer no: only the other lanes are looked at, by report-scan.ts's scalar checks.
//
//   set A, bits 0-7: all bui com fin no(space or t) ok(any) suc tes      (pass, at a word start)
//   set B, one bucket a bit, each a product of letter sets (more at most; the scalar checks turn the rest
//          away): bit 0 up(space, - or r)/wor (pass, at a word start), bit 1 a digit, a space, then p e f or
//          i (the run's last digit: its start is found by walking back), bits 2-5 err/exc, fai/fat, pan/tra,
//          E2 9C/9D (stems), bit 6 [ or ( then t/p/c/b then h/y/u/o/a (notes), bit 7 sta/pha (status
//          fields). Sets B and C were one set each until s14's headscan: one set's six lookups a block fewer
//   set C, when asked (a head of a few hundred units): the words of a wait or an empty mailbox by their first
//          three letters (src/text/wait-screen.ts), grouped: pen/pro, que, run/rea, wai/mai, mes, sch/sta,
//          ini/emp, and an ESC (any two bytes after it: a colour code may split a word)
//   set E, for an error text (assembly/error-screen.ts, any case, anywhere): MAY_SAY's words by their first
//          three letters, grouped: app/abo/aut, can/den/gra/wan, exa/exp, int/inp/inv/use/une, log/mus/occ/you,
//          ple/par/sib, req/reg/rec/rep, fou/val/ver
//   set D, when asked, after no ASCII letter or `_`: the acknowledgement's words by their first three letters,
//          grouped (app/add, com/cre/cha/can, don/del/mod/mov, edi/ins, ok, rem/ren/rec/rev/rep,
//          suc/sav/sen/sch/sto/set, upd/upl/wri), each group a product of letter sets (more at most)
/** Per set (A, B, C, D, E), for each of the three bytes: its low nibble's table, its high nibble's. */
export const TABLES: usize = memory.data(5 * 96);
/** Set B's pass bit, its digit-run bit, its stem bits, its note bit, its status bit. */
export const B_PASS: u8 = 0x01;
export const B_DIGITS: u8 = 0x02;
export const B_STEMS: u8 = 0x3c;
export const B_NOTE: u8 = 0x40;
export const B_STATUS: u8 = 0x80;

/** Marks byte `c` (a letter in both cases) for bit `bit` of set `set`, as a triple's `at`-th byte (0, 1, 2). */
function mark3(set: usize, bit: u32, at: usize, c: u32): void {
  const base = TABLES + set * 96 + at * 32;
  for (let twice = 0; twice < 2; twice++) {
    store<u8>(base + <usize>(c & 15), load<u8>(base + <usize>(c & 15)) | bit);
    store<u8>(base + 16 + <usize>(c >> 4), load<u8>(base + 16 + <usize>(c >> 4)) | bit);
    if ((c | 0x20) - 0x61 >= 26) break;
    c ^= 0x20;
  }
}

/** Marks every byte as the `at`-th byte of bit `bit` of set `set`. */
function markAny(set: usize, bit: u32, at: usize): void {
  const base = TABLES + set * 96 + at * 32;
  for (let k: usize = 0; k < 32; k++) store<u8>(base + k, load<u8>(base + k) | bit);
}

/** Marks the triples `words` (each its bytes, a `*` for any byte) as bits 1 << (first + k) of set `set`. */
function markTriples(set: usize, first: u32, words: StaticArray<string>): void {
  for (let k = 0; k < words.length; k++) {
    const w = unchecked(words[k]);
    const bit: u32 = 1 << (first + <u32>k);
    for (let at = 0; at < w.length; at++) {
      const c = <u32>w.charCodeAt(at);
      if (c == 0x2a) markAny(set, bit, <usize>at);
      else mark3(set, bit, <usize>at, c);
    }
  }
}

const TRIPLES_A: StaticArray<string> = ['all', 'bui', 'com', 'fin', 'no', 'ok*', 'suc', 'tes'];

/** Marks bit `bit` of set `set` for the triples of `first` x `second` x `third` (letters; `*` any byte). */
function markSets(set: usize, bit: u32, first: string, second: string, third: string): void {
  for (let k = 0; k < first.length; k++) mark3(set, bit, 0, <u32>first.charCodeAt(k));
  for (let k = 0; k < second.length; k++) mark3(set, bit, 1, <u32>second.charCodeAt(k));
  if (third == '*') markAny(set, bit, 2);
  else for (let k = 0; k < third.length; k++) mark3(set, bit, 2, <u32>third.charCodeAt(k));
}

/** Fills the triple tables (once). */
export function initTriples(): void {
  markTriples(0, 0, TRIPLES_A);
  mark3(0, 0x10, 2, 0x20); // no, not
  mark3(0, 0x10, 2, 0x74);
  // set B, eight buckets, each a product of letter sets (more at most): up wor, the digit run, err exc,
  // fai fat, pan tra, a cross mark, the notes, the status words
  markSets(1, B_PASS, 'uw', 'po', ' -r');
  for (let d: u32 = 0x30; d <= 0x39; d++) mark3(1, B_DIGITS, 0, d);
  mark3(1, B_DIGITS, 1, 0x20);
  for (let k = 0; k < 4; k++) mark3(1, B_DIGITS, 2, <u32>'pefi'.charCodeAt(k));
  markSets(1, 0x04, 'e', 'rx', 'rc');
  markSets(1, 0x08, 'f', 'a', 'it');
  markSets(1, 0x10, 'pt', 'ar', 'na');
  // a cross mark: E2 9C 97/98, E2 9D 8C
  mark3(1, 0x20, 0, 0xe2);
  mark3(1, 0x20, 1, 0x9c);
  mark3(1, 0x20, 1, 0x9d);
  markAny(1, 0x20, 2);
  // the notes: [th [py, [cu [co, (ba (po (co
  markSets(1, B_NOTE, '[(', 'tpcb', 'hyuoa');
  markSets(1, B_STATUS, 'sp', 'th', 'a');
  // set C: the words of a wait or an empty mailbox, and an ESC
  markSets(2, 1, 'p', 'er', 'no');
  markSets(2, 2, 'q', 'u', 'e');
  markSets(2, 4, 'r', 'ue', 'na');
  markSets(2, 8, 'wm', 'a', 'i');
  markSets(2, 16, 'm', 'e', 's');
  markSets(2, 32, 's', 'ct', 'ha');
  markSets(2, 64, 'ie', 'nm', 'ip');
  mark3(2, 128, 0, 0x1b);
  markAny(2, 128, 1);
  markAny(2, 128, 2);
  // set E: MAY_SAY's words (error-screen.ts)
  markSets(4, 1, 'a', 'pbu', 'pot');
  markSets(4, 2, 'cdgw', 'aer', 'na');
  markSets(4, 4, 'e', 'x', 'ap');
  markSets(4, 8, 'iu', 'ns', 'tpvne');
  markSets(4, 16, 'lmoy', 'ouc', 'gscu');
  markSets(4, 32, 'ps', 'lai', 'erb');
  markSets(4, 64, 'r', 'e', 'qgcp');
  markSets(4, 128, 'fv', 'oae', 'ulr');
  // set D: the acknowledgement's words
  markSets(3, 1, 'a', 'pd', 'pd');
  markSets(3, 2, 'c', 'orha', 'mean');
  markSets(3, 4, 'dm', 'oe', 'nldv');
  markSets(3, 8, 'ei', 'dn', 'is');
  markSets(3, 16, 'o', 'k', '*');
  markSets(3, 32, 'r', 'e', 'mncvp');
  markSets(3, 64, 's', 'uaect', 'cvnhot');
  markSets(3, 128, 'uw', 'pr', 'dli');
}

// @ts-ignore: decorator
@inline export function triples(lo0: v128, hi0: v128, lo1: v128, hi1: v128, lo2: v128, hi2: v128, t: usize): v128 {
  return v128.and(
    v128.and(v128.and(i8x16.swizzle(v128.load(t), lo0), i8x16.swizzle(v128.load(t + 16), hi0)), v128.and(i8x16.swizzle(v128.load(t + 32), lo1), i8x16.swizzle(v128.load(t + 48), hi1))),
    v128.and(i8x16.swizzle(v128.load(t + 64), lo2), i8x16.swizzle(v128.load(t + 80), hi2)),
  );
}

