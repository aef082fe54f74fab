// What a text result says, read in one pass over its bytes where the readings can share one (issue 29): the
// result's fingerprint (xxh64, seed TAG_STRING) and its head's key (xxh64, seed 0: the host's reading cache's
// key) in one loop when the head is the whole result (each word loaded once, the two hashes' chains side by
// side); its head as the host's outcome facts read it (result-head.ts); whether it is blank once a shell's
// startup lines are set aside, says nothing was found, is brief, with those lines looked for once (blank and
// "nothing found" both read past them).
//
// textResultSeparate is the readings one after another, as processOne made them before: the differential
// test (test/wasm-result-pass.test.ts) and bench/result-pass.ts hold textResultPass to it.

import { BRIEF_BYTES, HEAD_UNITS, O_HEAD, OF_BRIEF, OF_EMPTY, OF_NOTHING } from './abi';
import { TAG_STRING } from './combine';
import { saysNothing, saysNothingFound, saysNothingHeld } from './nothing';
import { headBytes, headFits, readHeadKeyed, readResultHead } from './result-head';
import { shellNoiseEnd } from './shell-noise';
import { xxh64, xxh64Pair, xxh64PairSecond } from './xxh64';
import { longHash, longHead, longHeadLength, longLead, longLength, longTrail } from './long-section';

/** What a text result's reading is asked: read the head (the record's F_READ_HEAD, no error). */
export const RP_HEAD: u32 = 1;
/** What a text result's reading is asked: look for the acknowledgement's words in a short head (F_HEAD_ACK). */
export const RP_ACK: u32 = 2;
/** What a text result's reading is asked: read the head's pass (not F_HEAD_NO_PASS). */
export const RP_PASS: u32 = 4;
/** What a text result's reading is asked: whether the result says nothing was found, and is brief (CF_ANSWERS). */
export const RP_ANSWERS: u32 = 8;

/** The result's fingerprint (xxh64, seed TAG_STRING) the last reading took. */
let lastFp: u64 = 0;

/** The fingerprint of the text result read last (textResultPass, textResultSeparate). */
export function resultFp(): u64 {
  return lastFp;
}

// @ts-ignore: decorator
@inline function isSpaceByte(b: u32): bool {
  return b == 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** Whether [p + from, p + n) is ASCII white space alone. */
function blankFrom(p: usize, from: u32, n: u32): bool {
  for (let i: u32 = from; i < n; i++) {
    if (!isSpaceByte(<u32>load<u8>(p + i))) return false;
  }
  return true;
}

/** Whether text [p, +n) is under BRIEF_BYTES once leading and trailing ASCII white space is trimmed. */
function isBrief(p: usize, n: u32): bool {
  let s: u32 = 0;
  let e = n;
  while (s < e && isSpaceByte(<u32>load<u8>(p + s))) s++;
  while (e > s && isSpaceByte(<u32>load<u8>(p + e - 1))) e--;
  return e - s < BRIEF_BYTES;
}

/** Whether [p, p + n) is blank, or blank once a shell's startup lines are set aside (the twin of isBlank in src/session/observe-event.ts). */
function isBlank(p: usize, n: u32): bool {
  if (blankFrom(p, 0, n)) return true;
  const skip = shellNoiseEnd(p, n);
  return skip > 0 && blankFrom(p, skip, n);
}

/**
 * The readings of text result [p, p + n) one after another, as processOne made them before textResultPass:
 * its fingerprint (resultFp()), the head into output record `out` when `how` has RP_HEAD, and the outcome
 * flags OF_EMPTY, OF_NOTHING and OF_BRIEF returned (the last two only with RP_ANSWERS). The specification
 * textResultPass is held to.
 */
export function textResultSeparate(p: usize, n: u32, how: u32, out: usize): u32 {
  lastFp = xxh64(p, n, TAG_STRING);
  if ((how & RP_HEAD) != 0) readResultHead(p, n, (how & RP_ACK) != 0, (how & RP_PASS) != 0, out);
  const answers = (how & RP_ANSWERS) != 0;
  let f: u32 = 0;
  if (isBlank(p, n)) f |= OF_EMPTY;
  else if (answers && saysNothingFound(p, n)) f |= OF_NOTHING;
  if (answers && isBrief(p, n)) f |= OF_BRIEF;
  return f;
}

/** What textResultSeparate gives of text result [p, p + n) (its fingerprint, its head into `out`, its flags), the readings sharing passes. */
export function textResultPass(p: usize, n: u32, how: u32, out: usize): u32 {
  if ((how & RP_HEAD) != 0) {
    const m = headBytes(p, n, HEAD_UNITS);
    if (m == <i32>n) {
      // the head is the whole result (every result of at most HEAD_UNITS bytes): both hashes in one loop
      lastFp = xxh64Pair(p, n, TAG_STRING, 0);
      if (headFits(p, n)) readHeadKeyed(p, n, xxh64PairSecond(), (how & RP_ACK) != 0, (how & RP_PASS) != 0, out);
      else store<u32>(out + O_HEAD, 0);
    } else {
      lastFp = xxh64(p, n, TAG_STRING);
      if (m < 0 || !headFits(p, <u32>m)) store<u32>(out + O_HEAD, 0);
      else readHeadKeyed(p, <u32>m, xxh64(p, <usize>m, 0), (how & RP_ACK) != 0, (how & RP_PASS) != 0, out);
    }
  } else lastFp = xxh64(p, n, TAG_STRING);
  // the shell's startup lines looked for once: blank and "nothing found" both read past them
  if (blankFrom(p, 0, n)) return (how & RP_ANSWERS) != 0 && isBrief(p, n) ? OF_EMPTY | OF_BRIEF : OF_EMPTY;
  if ((how & RP_ANSWERS) == 0) {
    const skip = shellNoiseEnd(p, n);
    return skip > 0 && blankFrom(p, skip, n) ? OF_EMPTY : 0;
  }
  const skip = shellNoiseEnd(p, n);
  let f: u32 = 0;
  if (skip > 0 && blankFrom(p, skip, n)) f = OF_EMPTY;
  else if (saysNothing(p + skip, n - skip)) f = OF_NOTHING;
  if (isBrief(p, n)) f |= OF_BRIEF;
  return f;
}

/**
 * What textResultPass gives of a text result too long to be copied whole (long-section.ts): its hash and
 * head as the section holds them, and its blankness and brevity from its white space at either end. The
 * readings of the whole text, from what they read of it: the head (HEAD_UNITS units, at most 3 bytes a unit,
 * within the LONG_HEAD_UNITS units held, and never the whole text), the shell's startup lines and "nothing
 * found" (their first bytes), blank past the startup lines (white space from there to the held head's end,
 * and the trailing white space reaching back into it), brief (the text between its white space).
 */
export function textResultPassLong(body: usize, how: u32, out: usize): u32 {
  const p = longHead(body);
  const held = longHeadLength(body);
  const n = longLength(body);
  const lead = longLead(body);
  const trail = longTrail(body);
  lastFp = longHash(body);
  if ((how & RP_HEAD) != 0) {
    const m = headBytes(p, held, HEAD_UNITS);
    if (m < 0 || !headFits(p, <u32>m)) store<u32>(out + O_HEAD, 0);
    else readHeadKeyed(p, <u32>m, xxh64(p, <usize>m, 0), (how & RP_ACK) != 0, (how & RP_PASS) != 0, out);
  }
  const blank = lead >= n;
  const brief = blank || n - trail - lead < BRIEF_BYTES;
  if (blank) return (how & RP_ANSWERS) != 0 && brief ? OF_EMPTY | OF_BRIEF : OF_EMPTY;
  // the bytes past the held head are all white space when the trailing white space reaches back into it
  const restBlank = n - trail <= held;
  const skip = shellNoiseEnd(p, held);
  if ((how & RP_ANSWERS) == 0) return skip > 0 && restBlank && blankFrom(p, skip, held) ? OF_EMPTY : 0;
  let f: u32 = 0;
  if (skip > 0 && restBlank && blankFrom(p, skip, held)) f = OF_EMPTY;
  // (its trailing white space trimmed at n - trail, which may lie past the held head)
  else if (saysNothingHeld(p + skip, n - skip, held - skip, n - trail - skip)) f = OF_NOTHING;
  if (brief) f |= OF_BRIEF;
  return f;
}
