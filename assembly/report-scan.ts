// What src/text/failure-report.ts and status-field.ts read of an output, in one pass over its UTF-8 bytes
// sixteen at a time (reportScan), and what acknowledgement.ts needs of a short one, looked for in the same
// blocks only when asked (a fourth set of lanes, below):
// - whether it holds a pass of PASS_PATTERNS (ASCII, case-insensitive, no `u` flag). Every pattern begins at
//   a word start (`\b` before a word byte), so only word starts whose byte may begin one are tried. The
//   answer is the patterns' own, except where a line-start word (`(?:^|\n)\s*ok`, `...finished`) has
//   non-ASCII bytes before it on its line: `\s` there may be a non-ASCII space, so the scan says "unknown"
//   and the host asks the expression;
// - whether it may report a failure: it holds a stem of STEMS (error, fail, traceback with a Kelvin sign
//   for its k, exception, panic, fatal, a cross mark), without which the failure expression cannot match;
//   and at each stem, whether REPORT matches the word that holds it (assembly/failure-word.ts): SCAN_FAILURE
//   when one does, else SCAN_FAILURE_UNKNOWN when a stem's word has a non-ASCII character beside it;
// - whether it may hold a harness's note: a `[` followed by th, py, cu or co, or a `(` followed by ba, po or co
//   (how every note of NOTES begins), without which there is no note to take out;
// - when asked (a text short enough to be an acknowledgement), whether it may be one: it holds a word that
//   every ACK_PATTERNS match holds (a word of DONE, completed, done, success, succeeded, ok, okay; ASCII,
//   any case) with no ASCII letter or `_` on either side. The patterns read the masked text, where such a
//   word stands between non-word bytes; masking keeps letters as they are and only puts `<n>` for digits
//   next to one (`42updated`), so in the text itself it has at most digits beside it, or is cut at the
//   MASK_LIMIT-th byte (the masked text ends there). Without one the text is not masked at all.
// - whether it may hold a status field (status-field.ts): the word status, state or phase (ASCII, any case)
//   not after a word byte, then an optional quote, white space and `:` or `=` (statusAt), without which its
//   expression cannot match.
// - when asked (a head short enough for them), whether it may hold a word of a wait or an empty mailbox
//   (still-waiting.ts's WAITING_WORDS, empty-inbox.ts's EMPTY): pending, progress, processing, provisioning,
//   queued, running, ready, waiting, scheduled, starting, initiali, messages, mail, empty (ASCII, any case,
//   anywhere), or an ESC (still-waiting.ts reads the text without its colour codes, which may split a word):
//   src/text/wait-screen.ts's WAIT_SCREEN, its twin. Without one neither expression can match.
// The last five are only ever "maybe": the host then asks the expressions themselves.

import { FAILURE_REPORTED, FAILURE_UNKNOWN, failureAt } from './failure-word';
import { HEAD_MAY_WAIT } from './abi';
import { B_DIGITS, B_NOTE, B_PASS, B_STATUS, B_STEMS, TABLES, initTriples, triples } from './report-lanes';

/** reportScan's bits. */
export const SCAN_PASS: u32 = 1;
export const SCAN_PASS_UNKNOWN: u32 = 2;
export const SCAN_MAY_FAIL: u32 = 4;
export const SCAN_MAY_NOTE: u32 = 8;
export const SCAN_MAY_ACK: u32 = 16;
export const SCAN_MAY_STATUS: u32 = 32;
export const SCAN_FAILURE: u32 = 64;
export const SCAN_FAILURE_UNKNOWN: u32 = 128;
/** When asked (ASK_WAIT): a word of a wait or an empty mailbox, or an ESC (the bit result-head.ts's word carries it in). */
export const SCAN_MAY_WAIT: u32 = HEAD_MAY_WAIT;

/** What reportScan is asked, besides what it always looks for: the acknowledgement's words. */
export const ASK_ACK: u32 = 1;
/** What reportScan is asked: skip the pass patterns (no SCAN_PASS or SCAN_PASS_UNKNOWN; every other bit the same). */
export const SKIP_PASS: u32 = 2;
/** What reportScan is asked, besides what it always looks for: the words of a wait or an empty mailbox (SCAN_MAY_WAIT). */
export const ASK_WAIT: u32 = 4;

// per byte, bits: WORD a word byte of `\b` (ASCII letters, digits, `_`), FIRST a word byte that may begin a
// pass pattern, STEM a byte that may begin a stem, NOTE `[` or `(`, ACK a byte that may begin a word of ANY
export const WORD: u32 = 1;
export const FIRST: u32 = 2;
export const STEM: u32 = 4;
export const NOTE: u32 = 8;
const ACK: u32 = 16;
const LETTER: u32 = 32;
/** Bytes of a text masked at most (src/text/mask-volatile.ts's MASK_LIMIT). */
const MASK_LIMIT: usize = 2048;
export const UNIT: usize = memory.data(256);
// the same with ACK and LETTER, for ackAt and the reference twin's acknowledgementWord
const UNIT_ACK: usize = memory.data(256);
export let ready = false;
// a byte's class by its two nibbles (swizzled, as report-lanes.ts's sets are): CLASS_DIGIT 0-9, CLASS_LETTER
// A-O a-o, P-Z p-z, or `_` (three products of nibble sets, exact): a word byte when any bit is on
const CLASS_LO: usize = memory.data(16);
const CLASS_HI: usize = memory.data(16);
const CLASS_LETTERS: u8 = 0x0e;

/** Fills CLASS_LO and CLASS_HI: bit 1 digits (high nibble 3, low 0-9), 2 A-O a-o (4 or 6, 1-F), 4 P-Z p-z (5 or 7, 0-A), 8 `_` (5, F). */
function initClasses(): void {
  for (let k: usize = 0; k < 16; k++) {
    let lo: u32 = 0;
    if (k <= 9) lo |= 1;
    if (k >= 1) lo |= 2;
    if (k <= 10) lo |= 4;
    if (k == 15) lo |= 8;
    store<u8>(CLASS_LO + k, <u8>lo);
  }
  store<u8>(CLASS_HI + 3, 1);
  store<u8>(CLASS_HI + 4, 2);
  store<u8>(CLASS_HI + 6, 2);
  store<u8>(CLASS_HI + 5, 4 | 8);
  store<u8>(CLASS_HI + 7, 4);
}

function markIn(table: usize, chars: string, bits: u32): void {
  for (let k = 0; k < chars.length; k++) {
    const c = <usize>chars.charCodeAt(k);
    store<u8>(table + c, load<u8>(table + c) | bits);
  }
}

function mark(chars: string, bits: u32): void {
  markIn(UNIT, chars, bits);
}

export function init(): void {
  mark('0123456789', WORD | FIRST);
  mark('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_', WORD);
  mark('abcfnostuwABCFNOSTUW', FIRST);
  mark('eftpEFTP', STEM);
  store<u8>(UNIT + 0xe2, STEM);
  mark('[(', NOTE);
  initTriples();
  initClasses();
  memory.copy(UNIT_ACK, UNIT, 256);
  markIn(UNIT_ACK, 'acdeimorsuwACDEIMORSUW', ACK);
  markIn(UNIT_ACK, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_', LETTER);
  ready = true;
}

// @ts-ignore: decorator
@inline export function lower(b: u32): u32 {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

/** Whether the bytes at `p` (before `end`) are `s` (lower-case ASCII; letters in either case). */
export function at(p: usize, end: usize, s: string): bool {
  const n = <usize>s.length;
  if (p + n > end) return false;
  for (let k: usize = 0; k < n; k++) if (lower(<u32>load<u8>(p + k)) != <u32>s.charCodeAt(<i32>k)) return false;
  return true;
}

/** Whether `q` is a word boundary after a word byte (the end, or a byte that is not a word byte). */
// @ts-ignore: decorator
@inline function endsAt(q: usize, end: usize): bool {
  return q >= end || (<u32>load<u8>(UNIT + <usize>load<u8>(q)) & WORD) == 0;
}

/** Whether `s` is at `p`, followed by a word boundary. */
function wordAt(p: usize, end: usize, s: string): bool {
  return at(p, end, s) && endsAt(p + <usize>s.length, end);
}

/** Whether one of `words` is at `p`, followed by a word boundary. */
function anyWordAt(p: usize, end: usize, words: StaticArray<string>): bool {
  for (let k = 0; k < words.length; k++) if (wordAt(p, end, unchecked(words[k]))) return true;
  return false;
}

/** 1 when only ASCII white space separates `p` from `start` or from a line feed before it; 0 when not; 2 unknown. */
function startsLine(start: usize, p: usize): u32 {
  while (p > start) {
    p--;
    const b = <u32>load<u8>(p);
    if (b == 0x0a) return 1;
    if (b >= 0x80) return 2;
    if (!(b == 0x20 || (b >= 0x09 && b <= 0x0d))) return 0;
  }
  return 1;
}

const PASSED: StaticArray<string> = ['passed', 'passing'];
const ZERO: StaticArray<string> = ['errors', 'error', 'failures', 'failure', 'problems', 'problem', 'issues', 'issue'];
const NO: StaticArray<string> = ['issues', 'errors', 'problems', 'warnings'];
const SUITES: StaticArray<string> = ['tests', 'test', 'checks', 'check', 'specs', 'spec'];
const VERDICTS: StaticArray<string> = ['passed', 'pass', 'ok'];
const SUCCESS: StaticArray<string> = ['success', 'succeeded', 'successfully'];
const BUILT: StaticArray<string> = ['succeeded', 'successful', 'complete'];

/** The end of a run of ASCII digits from `p` (p itself when none). */
function digitsFrom(p: usize, end: usize): usize {
  while (p < end && <u32>load<u8>(p) - 0x30 < 10) p++;
  return p;
}

/** `(?:tests?|checks?|specs?) (?:passed|pass|ok)\b` at `p`. */
function suitePassed(p: usize, end: usize): bool {
  for (let k = 0; k < SUITES.length; k++) {
    const s = unchecked(SUITES[k]);
    const q = p + <usize>s.length;
    if (at(p, end, s) && q < end && load<u8>(q) == 0x20 && anyWordAt(q + 1, end, VERDICTS)) return true;
  }
  return false;
}

/** `all (?:\d+ )?(?:tests?|checks?|specs?) (?:passed|pass|ok)\b` at `p`. */
function allPassed(p: usize, end: usize): bool {
  if (!at(p, end, 'all ')) return false;
  if (suitePassed(p + 4, end)) return true;
  const d = digitsFrom(p + 4, end);
  return d > p + 4 && d < end && load<u8>(d) == 0x20 && suitePassed(d + 1, end);
}

// @ts-ignore: decorator
@inline function dash(p: usize, end: usize): bool {
  return p < end && (load<u8>(p) == 0x20 || load<u8>(p) == 0x2d);
}

/** What a word start at `p` (its byte `c`) begins: 0, 1, or 2 (unknown). */
export function passAt(start: usize, p: usize, end: usize, c: u32): u32 {
  if (c - 0x30 < 10) {
    const d = digitsFrom(p, end);
    if (d < end && load<u8>(d) == 0x20) {
      if (anyWordAt(d + 1, end, PASSED)) return 1;
      if (c == 0x30 && d == p + 1 && anyWordAt(d + 1, end, ZERO)) return 1;
    }
    return 0;
  }
  // the second byte first: most word starts go no further
  if (p + 2 > end) return 0;
  const n = lower(<u32>load<u8>(p + 1));
  switch (c | 0x20) {
    case 0x61: return n == 0x6c && allPassed(p, end) ? 1 : 0;
    case 0x62: return n == 0x75 && at(p, end, 'build ') && anyWordAt(p + 6, end, BUILT) ? 1 : 0;
    case 0x63: return n == 0x6f && wordAt(p, end, 'compiled') ? 1 : 0;
    case 0x66: return n == 0x69 && wordAt(p, end, 'finished') ? startsLine(start, p) : 0;
    case 0x6e: return n == 0x6f && ((at(p, end, 'no ') && anyWordAt(p + 3, end, NO)) || wordAt(p, end, 'nothing to commit')) ? 1 : 0;
    case 0x6f: return n == 0x6b && wordAt(p, end, 'ok') ? startsLine(start, p) : 0;
    case 0x73: return n == 0x75 && anyWordAt(p, end, SUCCESS) ? 1 : 0;
    case 0x74: return n == 0x65 && wordAt(p, end, 'test result: ok') ? 1 : 0;
    case 0x75: return n == 0x70 && at(p, end, 'up') && dash(p + 2, end) && at(p + 3, end, 'to') && dash(p + 5, end) && wordAt(p + 6, end, 'date') ? 1 : 0;
    case 0x77: return n == 0x6f && wordAt(p, end, 'working tree clean') ? 1 : 0;
    default: return 0;
  }
}

/** Whether a stem of STEMS begins at `p` (its byte `c`): error, fail, traceback, exception, panic, fatal, a cross mark. */
export function stemAt(p: usize, end: usize, c: u32): bool {
  if (p + 3 > end) return false;
  // the second byte first: most e, f, t and p bytes are followed by none of a stem's
  const n = lower(<u32>load<u8>(p + 1));
  switch (lower(c)) {
    case 0x65: // e
      return (n == 0x72 && at(p, end, 'error')) || (n == 0x78 && at(p, end, 'exception'));
    case 0x66: // f
      return n == 0x61 && (at(p, end, 'fail') || at(p, end, 'fatal'));
    case 0x70: // p
      return n == 0x61 && at(p, end, 'panic');
    case 0x74: { // t
      if (n != 0x72 || !at(p, end, 'tracebac')) return false;
      const q = p + 8;
      // k, K, or the Kelvin sign (E2 84 AA), which the expression's `u` flag folds to k
      return q < end && (lower(<u32>load<u8>(q)) == 0x6b || (q + 3 <= end && load<u8>(q) == 0xe2 && load<u8>(q + 1) == 0x84 && load<u8>(q + 2) == 0xaa));
    }
    default: {
      // ❌ E2 9D 8C, ✗ E2 9C 97, ✘ E2 9C 98
      if (c != 0xe2) return false;
      const b2 = <u32>load<u8>(p + 2);
      return (n == 0x9d && b2 == 0x8c) || (n == 0x9c && (b2 == 0x97 || b2 == 0x98));
    }
  }
}

/** Whether a note may begin at `p` (its byte `c`, any byte): the two bytes after it begin a note's first word ([th [py [cu [co, (ba (po (co). */
export function noteAt(p: usize, end: usize, c: u32): bool {
  if (p + 2 >= end) return false;
  const n = lower(<u32>load<u8>(p + 1));
  const m = lower(<u32>load<u8>(p + 2));
  if (c == 0x5b) return (n == 0x74 && m == 0x68) || (n == 0x70 && m == 0x79) || (n == 0x63 && (m == 0x75 || m == 0x6f));
  // the lane classes let other bytes through (report-lanes.ts's note bucket is a product of nibble sets)
  return c == 0x28 && ((n == 0x62 && m == 0x61) || (n == 0x70 && m == 0x6f) || (n == 0x63 && m == 0x6f));
}

/**
 * Whether a status field may begin at `p` (status-field.ts's FIELD, up to its value): status, state or phase
 * (ASCII, any case) at the text's start or after a byte that is not an ASCII letter, digit or `_`, then an
 * optional quote, ASCII white space and `:` or `=`; or a byte past ASCII where that white space may be (`\s`
 * holds non-ASCII spaces: the expression decides).
 */
export function statusAt(ptr: usize, p: usize, end: usize): bool {
  if (p > ptr && wordByte(<u32>load<u8>(p - 1))) return false;
  let q: usize;
  if (at(p, end, 'status')) q = p + 6;
  else if (at(p, end, 'state') || at(p, end, 'phase')) q = p + 5;
  else return false;
  if (q < end && (load<u8>(q) == 0x22 || load<u8>(q) == 0x27)) q++;
  for (; q < end; q++) {
    const b = <u32>load<u8>(q);
    if (b == 0x3a || b == 0x3d || b >= 0x80) return true;
    if (!(b == 0x20 || (b >= 0x09 && b <= 0x0d))) return false;
  }
  return false;
}

// the words by their first letter
const ACK_A: StaticArray<string> = ['applied', 'added', 'approved', 'appended'];
const ACK_C: StaticArray<string> = ['completed', 'created', 'changed', 'cancelled', 'canceled', 'committed'];
const ACK_D: StaticArray<string> = ['done', 'deleted'];
const ACK_M: StaticArray<string> = ['modified', 'moved'];
const ACK_O: StaticArray<string> = ['ok', 'okay'];
const ACK_R: StaticArray<string> = ['removed', 'renamed', 'recorded', 'reverted', 'replaced'];
const ACK_S: StaticArray<string> = ['success', 'succeeded', 'saved', 'sent', 'scheduled', 'stored', 'set'];
const ACK_U: StaticArray<string> = ['updated', 'uploaded'];
const ACK_E: StaticArray<string> = ['edited'];
const ACK_I: StaticArray<string> = ['inserted'];
const ACK_W: StaticArray<string> = ['written'];

/** Whether one of `words` is at `p` with no ASCII letter or `_` after it (or cut at `cut`). */
function anyLoneAt(p: usize, end: usize, cut: usize, words: StaticArray<string>): bool {
  for (let k = 0; k < words.length; k++) {
    const w = unchecked(words[k]);
    const q = p + <usize>w.length;
    if (at(p, end, w) && (q >= end || q == cut || (<u32>load<u8>(UNIT_ACK + <usize>load<u8>(q)) & LETTER) == 0)) return true;
  }
  return false;
}

/** Whether a word of the acknowledgement's patterns begins at `p` (its byte `c`; no letter before it). */
export function ackAt(p: usize, end: usize, cut: usize, c: u32): bool {
  if (p + 2 > end) return false;
  // the second byte first (as stemAt does): most of these letters are followed by none of a word's
  const n = lower(<u32>load<u8>(p + 1));
  switch (c | 0x20) {
    case 0x61: return (n == 0x70 || n == 0x64) && anyLoneAt(p, end, cut, ACK_A); // ap, ad
    case 0x63: return (n == 0x6f || n == 0x72 || n == 0x68 || n == 0x61) && anyLoneAt(p, end, cut, ACK_C); // co, cr, ch, ca
    case 0x64: return (n == 0x6f || n == 0x65) && anyLoneAt(p, end, cut, ACK_D); // do, de
    case 0x65: return n == 0x64 && anyLoneAt(p, end, cut, ACK_E);
    case 0x69: return n == 0x6e && anyLoneAt(p, end, cut, ACK_I);
    case 0x6d: return n == 0x6f && anyLoneAt(p, end, cut, ACK_M);
    case 0x6f: return n == 0x6b && anyLoneAt(p, end, cut, ACK_O);
    case 0x72: return n == 0x65 && anyLoneAt(p, end, cut, ACK_R);
    case 0x73: return (n == 0x75 || n == 0x61 || n == 0x65 || n == 0x63 || n == 0x74) && anyLoneAt(p, end, cut, ACK_S); // su, sa, se, sc, st
    case 0x75: return n == 0x70 && anyLoneAt(p, end, cut, ACK_U);
    case 0x77: return n == 0x72 && anyLoneAt(p, end, cut, ACK_W);
    default: return false;
  }
}

const WAIT_P: StaticArray<string> = ['pending', 'progress', 'processing', 'provisioning'];
const WAIT_R: StaticArray<string> = ['running', 'ready'];
const WAIT_S: StaticArray<string> = ['scheduled', 'starting'];
const WAIT_M: StaticArray<string> = ['messages', 'mail'];

/** Whether one of `words` is at `p` (letters in either case). */
export function anyAt(p: usize, end: usize, words: StaticArray<string>): bool {
  for (let k = 0; k < words.length; k++) if (at(p, end, unchecked(words[k]))) return true;
  return false;
}

/** Whether a word of a wait or an empty mailbox (src/text/wait-screen.ts's WAIT_SCREEN), or an ESC, is at `p` (its byte `c`). */
export function waitAt(p: usize, end: usize, c: u32): bool {
  if (c == 0x1b) return true;
  switch (lower(c)) {
    case 0x70: return anyAt(p, end, WAIT_P);
    case 0x71: return at(p, end, 'queued');
    case 0x72: return anyAt(p, end, WAIT_R);
    case 0x77: return at(p, end, 'waiting');
    case 0x73: return anyAt(p, end, WAIT_S);
    case 0x69: return at(p, end, 'initiali');
    case 0x6d: return anyAt(p, end, WAIT_M);
    case 0x65: return at(p, end, 'empty');
    default: return false;
  }
}

/** Whether [ptr, end) holds a word of the acknowledgement's patterns with no letter beside it, byte by byte (the reference twin's; reportScan finds it in its blocks). */
export function acknowledgementWord(ptr: usize, end: usize): bool {
  const cut = ptr + MASK_LIMIT;
  let prev: u32 = 0;
  for (let p = ptr; p < end; p++) {
    const c = <u32>load<u8>(p);
    const u = <u32>load<u8>(UNIT_ACK + <usize>c);
    if ((u & ACK) != 0 && (prev & LETTER) == 0 && ackAt(p, end, cut, c)) return true;
    prev = u;
  }
  return false;
}

/** Whether byte `b` is a word byte of `\b` (an ASCII letter, digit or `_`). */
// @ts-ignore: decorator
@inline function wordByte(b: u32): bool {
  return (<u32>load<u8>(UNIT + <usize>b) & WORD) != 0;
}

/** passAt at the start of the run of digits whose last digit is at `q`, when that start is a word start; else 0. */
function passAtRun(ptr: usize, q: usize, end: usize): u32 {
  let s = q;
  while (s > ptr && <u32>load<u8>(s - 1) - 0x30 < 10) s--;
  if (s > ptr && wordByte(<u32>load<u8>(s - 1))) return 0;
  return passAt(ptr, s, end, <u32>load<u8>(s));
}

/** `out` with what the stem at `q` says: SCAN_MAY_FAIL, and SCAN_FAILURE or SCAN_FAILURE_UNKNOWN (assembly/failure-word.ts). */
export function failureBits(out: u32, ptr: usize, q: usize, end: usize): u32 {
  const f = failureAt(ptr, q, end);
  if (f == FAILURE_REPORTED) return (out & ~SCAN_FAILURE_UNKNOWN) | SCAN_MAY_FAIL | SCAN_FAILURE;
  return f == FAILURE_UNKNOWN ? out | SCAN_MAY_FAIL | SCAN_FAILURE_UNKNOWN : out | SCAN_MAY_FAIL;
}

/** The bits after which the pass has nothing left to find (SCAN_PASS_UNKNOWN is dropped by SCAN_PASS). */
const ALL = SCAN_PASS | SCAN_FAILURE | SCAN_MAY_NOTE | SCAN_MAY_STATUS;

/**
 * What UTF-8 text [ptr, ptr + len) holds, as SCAN_ bits (see the module comment); ANY's words looked for when
 * `ask` has ASK_ACK, the pass patterns not when it has SKIP_PASS, a wait's words when it has ASK_WAIT. Reads up to 18 bytes past the end (the
 * caller's area has room; what they hold changes nothing). The same bits as reportScanBytewise
 * (assembly/report-scan-bytewise.ts), which looks at every byte.
 */
export function reportScan(ptr: usize, len: u32, ask: u32): u32 {
  if (!ready) init();
  const end = ptr + <usize>len;
  const nib = i8x16.splat(0x0f);
  const zero = i8x16.splat(0);
  const bPass = i8x16.splat(B_PASS);
  const bDigits = i8x16.splat(B_DIGITS);
  const bStems = i8x16.splat(B_STEMS);
  const bNote = i8x16.splat(B_NOTE);
  const bStatus = i8x16.splat(B_STATUS);
  const classLo = v128.load(CLASS_LO);
  const classHi = v128.load(CLASS_HI);
  const letters = i8x16.splat(CLASS_LETTERS);
  // whether the byte before the block is a word byte, a letter or `_` (none before the text: it is at a start)
  let wordBefore: u32 = 0;
  let letterBefore: u32 = 0;
  // with ASK_ACK, the pass is done once the acknowledgement's word is found too
  const want: u32 = ((ask & ASK_ACK) != 0 ? ALL | SCAN_MAY_ACK : ALL) | ((ask & ASK_WAIT) != 0 ? SCAN_MAY_WAIT : 0);
  const cut = ptr + MASK_LIMIT;
  // a pass found, or not asked (SCAN_PASS set from the start, taken off at the end), is no longer looked for
  let out: u32 = (ask & SKIP_PASS) != 0 ? SCAN_PASS : 0;
  for (let p = ptr; p < end; p += 16) {
    const v0 = v128.load(p);
    const v1 = v128.load(p + 1);
    const v2 = v128.load(p + 2);
    const lo0 = v128.and(v0, nib);
    const hi0 = v128.and(i16x8.shr_u(v0, 4), nib);
    const lo1 = v128.and(v1, nib);
    const hi1 = v128.and(i16x8.shr_u(v1, 4), nib);
    const lo2 = v128.and(v2, nib);
    const hi2 = v128.and(i16x8.shr_u(v2, 4), nib);
    const b = triples(lo0, hi0, lo1, hi1, lo2, hi2, TABLES + 96);
    const live: u32 = end - p >= 16 ? 0xffff : (1 << <u32>(end - p)) - 1;
    // the lanes' word bytes and letters (or `_`), then each lane's byte before it, carried over from the last block
    const cls = v128.and(i8x16.swizzle(classLo, lo0), i8x16.swizzle(classHi, hi0));
    const wordBits = ~<u32>i8x16.bitmask(i8x16.eq(cls, zero)) & 0xffff;
    const letterBits = ~<u32>i8x16.bitmask(i8x16.eq(v128.and(cls, letters), zero)) & 0xffff;
    const wordPrev = (wordBits << 1) | wordBefore;
    const letterPrev = (letterBits << 1) | letterBefore;
    wordBefore = wordBits >> 15;
    letterBefore = letterBits >> 15;
    if ((out & SCAN_PASS) == 0) {
      // lanes after a byte that is not a word byte (an ASCII letter, digit or `_`); the text's first byte is at a start
      const starts = ~wordPrev;
      const a = triples(lo0, hi0, lo1, hi1, lo2, hi2, TABLES);
      let m = (<u32>i8x16.bitmask(i8x16.ne(v128.or(a, v128.and(b, bPass)), zero)) & starts) | <u32>i8x16.bitmask(i8x16.ne(v128.and(b, bDigits), zero));
      m &= live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        const x = <u32>load<u8>(q);
        const r = x - 0x30 < 10 ? passAtRun(ptr, q, end) : passAt(ptr, q, end, x);
        if (r == 1) {
          out = (out & ~SCAN_PASS_UNKNOWN) | SCAN_PASS;
          break;
        }
        if (r == 2) out |= SCAN_PASS_UNKNOWN;
        m &= m - 1;
      }
    }
    if ((out & SCAN_FAILURE) == 0) {
      let m = <u32>i8x16.bitmask(i8x16.ne(v128.and(b, bStems), zero)) & live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        if (stemAt(q, end, <u32>load<u8>(q))) {
          out = failureBits(out, ptr, q, end);
          if ((out & SCAN_FAILURE) != 0) break;
        }
        m &= m - 1;
      }
    }
    if ((out & SCAN_MAY_NOTE) == 0) {
      let m = <u32>i8x16.bitmask(i8x16.ne(v128.and(b, bNote), zero)) & live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        if (noteAt(q, end, <u32>load<u8>(q))) {
          out |= SCAN_MAY_NOTE;
          break;
        }
        m &= m - 1;
      }
    }
    if ((out & SCAN_MAY_STATUS) == 0) {
      let m = <u32>i8x16.bitmask(i8x16.ne(v128.and(b, bStatus), zero)) & live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        if (statusAt(ptr, q, end)) {
          out |= SCAN_MAY_STATUS;
          break;
        }
        m &= m - 1;
      }
    }
    if ((want & ~out & SCAN_MAY_ACK) != 0) {
      // lanes after no ASCII letter or `_` (digits may be there: masking makes them <n>)
      const free = ~letterPrev;
      const d = triples(lo0, hi0, lo1, hi1, lo2, hi2, TABLES + 288);
      let m = <u32>i8x16.bitmask(i8x16.ne(d, zero)) & free & live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        if (ackAt(q, end, cut, <u32>load<u8>(q))) {
          out |= SCAN_MAY_ACK;
          break;
        }
        m &= m - 1;
      }
    }
    if ((want & ~out & SCAN_MAY_WAIT) != 0) {
      const w = triples(lo0, hi0, lo1, hi1, lo2, hi2, TABLES + 192);
      let m = <u32>i8x16.bitmask(i8x16.ne(w, zero)) & live;
      while (m != 0) {
        const q = p + <usize>ctz(m);
        if (waitAt(q, end, <u32>load<u8>(q))) {
          out |= SCAN_MAY_WAIT;
          break;
        }
        m &= m - 1;
      }
    }
    if ((out & want) == want) break;
  }
  return (ask & SKIP_PASS) != 0 ? out & ~SCAN_PASS : out;
}
