/**
 * Recognises results that say nothing was found, so similar retries that keep getting them count as
 * failing even when the tool reports success. Identical successes of other kinds ("OK", "File written")
 * are not failures.
 *
 * Over UTF-8 bytes (reproduced by `assembly/nothing.ts`): the first `NOTHING_LOOK` bytes, ASCII-lowercased,
 * contain one of `NOTHING_PHRASES` starting at a word start (the text's start, or after a byte that is not
 * an ASCII letter or digit), or, white space trimmed, are exactly one of `NOTHING_VALUES`. A result that is
 * not text says nothing was found when it is an empty array or an object without keys. The lines a shell's
 * startup prints ahead of a command's output (shell-noise.ts: "~/.profile: line 6: compdef: command not
 * found") are set aside first: their "not found" is the profile's, not the command's. A phrase that, where it
 * stands, reports no empty search is passed over (not-a-finding.ts): npm's "not found and will be installed",
 * a shell's "command not found", a compiler's "Member \"decrypt\" not found",
 * a wrong name's "column \"email\" does not exist", pytest's "collected 0 items / 6 errors".
 */
import { collectionErrorsAt, installNoticeAt, memberMissingAt, programMissingAt, wrongNameAt } from './not-a-finding.js';
import { shellNoiseEnd } from './shell-noise.js';

/** Bytes of a result looked at. */
export const NOTHING_LOOK = 300;

/** Phrases that say nothing was found (lowercase ASCII). */
export const NOTHING_PHRASES: readonly string[] = Object.freeze([
  'no result', '0 result', 'zero result', 'no match', '0 match', 'not found', 'nothing found', 'could not find',
  "couldn't find", 'no such', 'does not exist', "doesn't exist", 'no items', 'no records', 'no rows',
  'no entries', 'no files', 'no documents', 'no hits', 'no flights', 'nothing to show', '0 items',
  '0 records', '0 rows', '0 hits', 'returned nothing', 'found nothing',
]);

/** Whole results that say nothing was found (lowercase ASCII, compared after trimming). */
export const NOTHING_VALUES: readonly string[] = Object.freeze(['[]', '{}', 'null', 'none', 'empty', '(empty)', '""', "''"]);

const ascii = new TextEncoder();
const PHRASE_BYTES = NOTHING_PHRASES.map((p) => ascii.encode(p));
const VALUE_BYTES = NOTHING_VALUES.map((p) => ascii.encode(p));
/** Per phrase, how a match may be passed over (not-a-finding.ts): 1 a package runner's notice, a missing program or member, 2 a wrong name, 3 a failed collection. */
const PASS_OVER = NOTHING_PHRASES.map((p) => (p === 'not found' ? 1 : p === 'does not exist' || p === "doesn't exist" ? 2 : p === '0 items' ? 3 : 0));

/** Whether phrase match `[at, end)` of text `bytes[0, len)` is passed over by rule `pass` (PASS_OVER). */
function passedOver(pass: number, bytes: Uint8Array, len: number, at: number, end: number): boolean {
  if (pass === 1) return installNoticeAt(bytes, len, end) || programMissingAt(bytes, at) || memberMissingAt(bytes, at);
  if (pass === 2) return wrongNameAt(bytes, len, at, end);
  return pass === 3 && collectionErrorsAt(bytes, len, end);
}
const low = new Uint8Array(NOTHING_LOOK);

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a);
}

function isSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/** Whether UTF-8 text `bytes[0, len)` says that nothing was found. */
export function bytesSayNothingFound(bytes: Uint8Array, len: number): boolean {
  const skip = shellNoiseEnd(bytes, len);
  return skip === 0 ? saysNothing(bytes, len) : saysNothing(bytes.subarray(skip), len - skip);
}

/** bytesSayNothingFound of text without a shell's startup lines. */
function saysNothing(bytes: Uint8Array, len: number): boolean {
  const n = len < NOTHING_LOOK ? len : NOTHING_LOOK;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    low[i] = b >= 0x41 && b <= 0x5a ? b + 32 : b;
  }
  let s = 0;
  let e = len;
  while (s < e && isSpace(bytes[s] as number)) s++;
  while (e > s && isSpace(bytes[e - 1] as number)) e--;
  if (e - s <= 8 && e <= n) {
    for (const v of VALUE_BYTES) {
      if (v.length !== e - s) continue;
      let same = true;
      for (let k = 0; k < v.length && same; k++) same = low[s + k] === v[k];
      if (same) return true;
    }
  }
  for (let q = 0; q < PHRASE_BYTES.length; q++) {
    const p = PHRASE_BYTES[q] as Uint8Array;
    const pass = PASS_OVER[q] as number;
    const last = n - p.length;
    for (let i = 0; i <= last; i++) {
      if (low[i] !== p[0] || (i > 0 && isAlnum(low[i - 1] as number))) continue;
      let k = 1;
      while (k < p.length && low[i + k] === p[k]) k++;
      if (k < p.length) continue;
      if (pass !== 0 && passedOver(pass, bytes, len, i, i + p.length)) continue;
      return true;
    }
  }
  return false;
}

/** Whether a non-text result says nothing was found: an empty array or an object without keys. */
export function valueSaysNothingFound(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  try {
    if (Array.isArray(result)) return result.length === 0;
    return Object.keys(result).length === 0;
  } catch {
    return false; // a Proxy whose traps throw, or a revoked one
  }
}
