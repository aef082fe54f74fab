/**
 * What the secret rules (`secret-tokens.ts`, `secret-values.ts`) are made of: the rule contract and the
 * run measures they share.
 *
 * Every rule is linear in the length of the text, whatever the text (a regular expression that retries
 * from every start position of a long run costs the square of the run: 80 KB of `eyJ-eyJ-...` took
 * seconds). Each one holds to one of three shapes:
 * - a literal start followed by a run with no more than a bounded look past it (`sk-` and a run of key
 *   characters; a failed attempt reads at most the bounded part), the run skipped once it is a secret;
 * - a start that only a run's first character (or a separator) can be, so the runs read from two starts
 *   never overlap (URL credentials start at `://` and stop at the next `/`);
 * - a hand-written scan that reads each run once and remembers the answer for the run (private key blocks,
 *   JSON Web Tokens).
 * Regular expressions only find starts (literals, bounded counts): runs are measured by {@link runEnd}, a
 * sticky `[...]*` that nothing follows. An unbounded count with more after it (`[a-z]{16,}`) keeps a
 * backtracking entry per character and overflows the expression's stack on a run of some megabytes
 * (`RangeError`).
 */

/**
 * Pushes the spans a rule redacts in `text` onto `out` as start, end pairs (in the text as given).
 * `openEnd`: the text is the beginning of a longer one, so a secret still open at its end (a token whose
 * last segment, a URL password whose `@`, has not come yet) counts as one running to the end.
 */
export type SecretRule = (text: string, out: number[], openEnd: boolean) => void;

/** Whether `c` is a character of `\w` (ASCII letter, digit, `_`): what `\b` looks at. */
export function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** Whether `c` is an ASCII letter. */
function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Whether `c` is a hexadecimal digit. */
function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Whether the `n` characters before `end` are hexadecimal digits. */
function hexBefore(text: string, end: number, n: number): boolean {
  if (end < n) return false;
  for (let k = end - n; k < end; k++) if (!isHex(text.charCodeAt(k))) return false;
  return true;
}

/**
 * Characters an escape or encoding that ends at `i` takes (0 when none does): `\n`, `\t` (a backslash and a
 * letter, as JSON and shells write a line break or tab), `\x1b`, `\u000a`, and `%3D` (a percent-encoded
 * byte). What follows one starts a new token, whatever letter or digit the escape ends with.
 */
export function escapeBefore(text: string, i: number): number {
  if (i >= 3 && text.charCodeAt(i - 3) === 0x25 && hexBefore(text, i, 2)) return 3;
  if (i >= 2 && text.charCodeAt(i - 2) === 0x5c && isLetter(text.charCodeAt(i - 1))) return 2;
  if (i >= 4 && text.charCodeAt(i - 4) === 0x5c && text.charCodeAt(i - 3) === 0x78 && hexBefore(text, i, 2)) return 4;
  if (i >= 6 && text.charCodeAt(i - 6) === 0x5c && text.charCodeAt(i - 5) === 0x75 && hexBefore(text, i, 4)) return 6;
  return 0;
}

/**
 * Whether a key's prefix at `i` starts a token: at the text's start, after anything but an ASCII letter
 * (`_`, a digit, punctuation, white space), or after an escape or encoding ({@link escapeBefore}). After a
 * letter the prefix is inside a word (`disk-...`, `risk_live_...`). A word boundary (`\b`) was the rule
 * before, and a key after `_`, a digit, `\n` in JSON text or `%3D` in a URL was shown whole.
 */
export function startsToken(text: string, i: number): boolean {
  return i === 0 || !isLetter(text.charCodeAt(i - 1)) || escapeBefore(text, i) > 0;
}

/**
 * End of the run that `run` (a sticky regular expression of one character class and `*`, which always
 * matches) reads from `i`.
 */
export function runEnd(text: string, i: number, run: RegExp): number {
  run.lastIndex = i;
  run.test(text);
  return run.lastIndex;
}

/** Whether the sticky `re` (of bounded length) matches at `at`. */
export function matchesAt(re: RegExp, text: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(text);
}

/** Runs the rules measure. */
export const RUN = {
  base64url: /[A-Za-z0-9_-]*/y,
  alnum: /[A-Za-z0-9]*/y,
  word: /\w*/y,
  alnumDash: /[A-Za-z0-9-]*/y,
  space: /\s*/y,
} as const;
