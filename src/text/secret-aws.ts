/**
 * AWS secret access keys: 40 characters of base64 (`A-Z`, `a-z`, `0-9`, `/`, `+`) and no prefix of their
 * own. Many 40-character runs of those characters are not keys: paths (`/Users/name/Projects/github/dotfile`),
 * long identifiers, base64 of words. A run (exactly 40 characters, no `=` after it) is a key when
 * - it has upper and lower case letters and a digit, `/` or `+` (a git SHA, lowercase hex, has not), and it is
 *   not made of words: at most {@link MAX_WORDY} of its characters in lowercase runs of 3 or more (with a
 *   capital before them), such as `Projects` or `github` (99.9% of random keys have less, paths and names
 *   80-95%), and not a path with two or more segments of lowercase words (`com/services/...`: 1 random key
 *   in 100,000); and
 * - what is around it says so ({@link hasContext}: `secret` or `aws` shortly before it, or an access key id
 *   near it), or it looks random ({@link looksRandom}): at least {@link MIN_ENTROPY} bits of entropy per
 *   character (99.99% of random keys; paths and identifiers of 40 characters have 3.7 to 4.3) and not the
 *   base64 of ASCII text (every fourth character of which is `A-Z` or `a-f`; 1 random key in 1,024 is too).
 *
 * So about 1 bare key in 400 is missed (0.1% wordy, 0.1% ASCII-like, 0.01% of low entropy); a key given to
 * a secret-named key (`aws_secret_access_key=...`, `"SecretAccessKey": "..."`) is redacted by that rule
 * (`secret-values.ts`) whatever its shape. A run starting right after an escape (`\n` in JSON text) or a
 * percent-encoded byte (`%3D`) is read from after it. Linear: each run is read once, its context in a bounded
 * window, the key ids of the text once.
 */
import { type SecretRule, escapeBefore, runEnd } from './secret-scan.js';

/** Most of a run's characters that may be in words (see the header) for it to be a key. */
export const MAX_WORDY = 0.6;
/** Fewest bits of Shannon entropy per character of a key without context. */
export const MIN_ENTROPY = 4.25;
/** Characters before a run looked at for `secret` or `aws`. */
export const CONTEXT_BEFORE = 80;
/** Characters around a run within which an access key id (`AKIA...`, `ASIA...`) gives it context. */
export const KEY_ID_NEAR = 200;

const KEY_LENGTH = 40;
const B64_RUN = /[A-Za-z0-9/+]*/y;
/** A run of 40 or more, from where it starts (after a character not of it; the text's start apart). */
const RUN_START = /[^A-Za-z0-9/+](?=[A-Za-z0-9/+]{40})/g;
const RUN_AT_START = /^[A-Za-z0-9/+]{40}/;
const KEY_ID = /A[KS]IA[0-9A-Z]{16}/g;
const CONTEXT_WORD = /secret|aws/i;

const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;

/**
 * Whether `text[from, from + 40)` has both cases and a digit, `/` or `+`, and is not made of words (at most
 * {@link MAX_WORDY} of it in `[A-Z]?[a-z]{3,}` runs).
 */
export function looksLikeKey(text: string, from: number): boolean {
  let upper = false;
  let lower = false;
  let other = false;
  let wordy = 0;
  let run = 0;
  let segment = from;
  let pathWords = 0;
  /** Counts the lowercase run that ends before `k`, when it is a word (and a path's, when it is all of its segment). */
  const endRun = (k: number): void => {
    if (run >= 3) {
      wordy += run + (k - run - 1 >= from && isUpper(text.charCodeAt(k - run - 1)) ? 1 : 0);
      const c = text.charCodeAt(k);
      if (k - run === segment && (k === from + KEY_LENGTH || c === 0x2f)) pathWords++;
    }
    run = 0;
  };
  const end = from + KEY_LENGTH;
  for (let k = from; k < end; k++) {
    const c = text.charCodeAt(k);
    if (isLower(c)) {
      lower = true;
      run++;
      continue;
    }
    if (isUpper(c)) upper = true;
    else other = true;
    endRun(k);
    if (c === 0x2f) segment = k + 1;
  }
  endRun(end);
  return upper && lower && other && wordy <= MAX_WORDY * KEY_LENGTH && pathWords < 2;
}

const counts = new Uint8Array(128);

/**
 * Whether `text[from, from + 40)` looks random: {@link MIN_ENTROPY} bits or more of Shannon entropy per
 * character, and not base64 of ASCII text (every fourth character, from the first, is a byte's top six bits:
 * `A-Z` or `a-f` for a byte below 128).
 */
export function looksRandom(text: string, from: number): boolean {
  let ascii = true;
  for (let k = 0; k < KEY_LENGTH; k++) {
    const c = text.charCodeAt(from + k);
    counts[c & 0x7f] = (counts[c & 0x7f] as number) + 1;
    if (k % 4 === 0 && !(isUpper(c) || (c >= 0x61 && c <= 0x66))) ascii = false;
  }
  let bits = 0;
  for (let k = 0; k < KEY_LENGTH; k++) {
    const c = text.charCodeAt(from + k) & 0x7f;
    const n = counts[c] as number;
    if (n === 0) continue;
    const p = n / KEY_LENGTH;
    bits -= p * Math.log2(p);
    counts[c] = 0;
  }
  return !ascii && bits >= MIN_ENTROPY;
}

/** Whether `secret` or `aws` (any case) is among the {@link CONTEXT_BEFORE} characters before `from`. */
export function secretWordBefore(text: string, from: number): boolean {
  return CONTEXT_WORD.test(text.slice(Math.max(0, from - CONTEXT_BEFORE), from));
}

/**
 * Where the key of a run starting at `s` starts: after an escape or percent-encoded byte that begins just
 * before the run (`\nwJal...`: the `n` is the escape's), else at `s`.
 */
export function keyStart(text: string, s: number): number {
  const before = s > 0 ? text.charCodeAt(s - 1) : 0;
  if (before !== 0x5c && before !== 0x25) return s;
  for (const n of [3, 5, 1, 2]) if (escapeBefore(text, s + n) === n + 1) return s + n;
  return s;
}

/** AWS secret access keys (see the header). */
export const awsSecretKey: SecretRule = (text, out) => {
  let keyIds: number[] | null = null;
  let near = 0;
  /** Whether an access key id starts within KEY_ID_NEAR of [from, to) (calls in increasing order). */
  const keyIdNear = (from: number, to: number): boolean => {
    if (keyIds === null) {
      keyIds = [];
      KEY_ID.lastIndex = 0;
      for (let m = KEY_ID.exec(text); m !== null; m = KEY_ID.exec(text)) keyIds.push(m.index);
    }
    while (near < keyIds.length && (keyIds[near] as number) + 20 < from - KEY_ID_NEAR) near++;
    return near < keyIds.length && (keyIds[near] as number) <= to + KEY_ID_NEAR;
  };
  const tryRun = (s: number): number => {
    const e = runEnd(text, s, B64_RUN);
    const k = keyStart(text, s);
    if (e - k === KEY_LENGTH && text.charCodeAt(e) !== 0x3d && looksLikeKey(text, k)) {
      if (secretWordBefore(text, k) || keyIdNear(k, e) || looksRandom(text, k)) out.push(k, e);
    }
    return e;
  };
  let from = 0;
  if (RUN_AT_START.test(text)) from = tryRun(0);
  const re = RUN_START;
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) re.lastIndex = tryRun(m.index + 1);
};
