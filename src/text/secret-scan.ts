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
