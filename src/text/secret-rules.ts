/**
 * The secret shapes redaction knows. Each rule adds the spans it would redact (`[start, end)` pairs, in
 * the text as given) to a list; `redact.ts` merges them and writes the text out once.
 *
 * Every rule is linear in the length of the text, whatever the text (a regular expression that retries
 * from every start position of a long run costs the square of the run: 80 KB of `eyJ-eyJ-...` took
 * seconds). Each one holds to one of three shapes:
 * - a literal start followed by a run with no more than a bounded look past it (`sk-` and a run of key
 *   characters; a failed attempt reads at most the bounded part);
 * - a start that only a run's first character (or a separator) can be, so the runs read from two starts
 *   never overlap (URL credentials start at `://` and stop at the next `/`);
 * - a hand-written scan that reads each run once and remembers the answer for the run (private key blocks,
 *   JSON Web Tokens).
 * Regular expressions only find starts (literals, bounded counts): runs are measured by `runEnd`, a sticky
 * `[...]*` that nothing follows. An unbounded count with more after it (`[a-z]{16,}`) keeps a backtracking
 * entry per character and overflows the expression's stack on a run of some megabytes (`RangeError`).
 */

/** Pushes the spans a rule redacts in `text` onto `out` as start, end pairs. */
export type SecretRule = (text: string, out: number[]) => void;

/** Whether `c` is a character of `\w` (ASCII letter, digit, `_`): what `\b` looks at. */
function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/**
 * End of the run that `run` (a sticky regular expression of one character class and `*`, which always
 * matches) reads from `i`.
 */
function runEnd(text: string, i: number, run: RegExp): number {
  run.lastIndex = i;
  run.test(text);
  return run.lastIndex;
}

const BASE64URL = /[A-Za-z0-9_-]*/y;
const LABEL = /[A-Z ]*/y;

/**
 * Where a `-----BEGIN ... PRIVATE KEY-----` (or END) marker whose label starts at `at` ends, or -1. The label
 * is a run of capitals and spaces; `PRIVATE KEY-----` can only close it at the run's end (a `-` ends the run).
 */
function markerEnd(text: string, at: number): number {
  const e = runEnd(text, at, LABEL);
  return e - at >= 11 && text.startsWith('PRIVATE KEY', e - 11) && text.startsWith('-----', e) ? e + 5 : -1;
}

/** A private key block: from its BEGIN marker to its END marker, or to the end of the text. */
const privateKeyBlock: SecretRule = (text, out) => {
  let from = 0;
  for (;;) {
    const begin = text.indexOf('-----BEGIN ', from);
    if (begin < 0) return;
    const head = markerEnd(text, begin + 11);
    if (head < 0) {
      from = begin + 1;
      continue;
    }
    let end = text.length;
    for (let k = text.indexOf('-----END ', head); k >= 0; k = text.indexOf('-----END ', k + 1)) {
      const e = markerEnd(text, k + 9);
      if (e >= 0) {
        end = e;
        break;
      }
    }
    out.push(begin, end);
    from = end;
  }
};

const ALNUM = /[A-Za-z0-9]*/y;
const WORD = /\w*/y;
const ALNUM_DASH = /[A-Za-z0-9-]*/y;
const AWS_KEY_ID = /[0-9A-Z]{16}\b/y;
const GOOGLE_KEY = /[0-9A-Za-z_-]{35}\b/y;
const KEY_PREFIX = /\b(?:[spr]k-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza)/g;

/** Whether the sticky `re` matches at `at`. */
function matchesAt(re: RegExp, text: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(text);
}

/**
 * Where the key whose prefix `prefix` starts at `at` ends, or -1: OpenAI/Anthropic-style (`sk-`, `pk-`,
 * `rk-` and 16 or more key characters), GitHub, Slack, AWS key ids (exactly 16 more), Google (exactly 35).
 */
function keyEnd(text: string, at: number, prefix: string): number {
  const from = at + prefix.length;
  const atLeast = (run: RegExp, n: number): number => {
    const e = runEnd(text, from, run);
    return e - from >= n ? e : -1;
  };
  switch (prefix.charCodeAt(0)) {
    case 0x67: // g
      return prefix.length === 4 ? atLeast(ALNUM, 20) : atLeast(WORD, 20);
    case 0x78: // x
      return atLeast(ALNUM_DASH, 10);
    case 0x41: // A
      if (prefix === 'AIza') return matchesAt(GOOGLE_KEY, text, from) ? from + 35 : -1;
      return matchesAt(AWS_KEY_ID, text, from) ? from + 16 : -1;
    default:
      return atLeast(BASE64URL, 16);
  }
}

/** Keys and tokens known by their prefix (see {@link keyEnd}). */
const prefixedTokens: SecretRule = (text, out) => {
  const re = KEY_PREFIX;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = keyEnd(text, m.index, m[0]);
    if (end >= 0) {
      out.push(m.index, end);
      re.lastIndex = end;
    } else re.lastIndex = m.index + 1;
  }
};

/**
 * JSON Web Tokens: `eyJ` at a word boundary, then three base64url segments of 8 or more characters joined
 * by dots. A segment runs to the end of its base64url run, so every `eyJ` of one run shares the run's
 * answer: a run that fails is skipped whole.
 */
const webToken: SecretRule = (text, out) => {
  for (let i = text.indexOf('eyJ'); i >= 0; ) {
    if (i > 0 && isWord(text.charCodeAt(i - 1))) {
      i = text.indexOf('eyJ', i + 1);
      continue;
    }
    const e1 = runEnd(text, i, BASE64URL);
    let end = -1;
    if (e1 - i >= 11 && text.charCodeAt(e1) === 0x2e) {
      const e2 = runEnd(text, e1 + 1, BASE64URL);
      if (e2 - e1 - 1 >= 8 && text.charCodeAt(e2) === 0x2e) {
        const e3 = runEnd(text, e2 + 1, BASE64URL);
        if (e3 - e2 - 1 >= 8) end = e3;
      }
    }
    if (end >= 0) out.push(i, end);
    // a later `eyJ` of the same run has less room before the same dot: it fails too
    i = text.indexOf('eyJ', end >= 0 ? end : e1);
  }
};

const SPACES = /\s*/y;
const AUTH_SCHEME = /\b(?:bearer|basic|token)/gi;
const CREDENTIAL = /[A-Za-z0-9._~+/=-]*/y;

/** `Bearer`, `Basic` and `token` followed by white space and a credential of 8 or more characters: the credential. */
const authScheme: SecretRule = (text, out) => {
  const re = AUTH_SCHEME;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const v = runEnd(text, re.lastIndex, SPACES);
    if (v === re.lastIndex) continue;
    const end = runEnd(text, v, CREDENTIAL);
    if (end - v >= 8) out.push(v, end);
    re.lastIndex = end;
  }
};

/** Whether `c` may end a URL scheme (`[A-Za-z0-9+.-]`). */
const isSchemeEnd = (c: number): boolean => (isWord(c) ? c !== 0x5f : c === 0x2b || c === 0x2e || c === 0x2d);
/** A URL's user: no `:`, `/`, `@` or white space. */
const USER = /[^:\s/@]*/y;
/** A URL's password: no `@`, `/` or white space. */
const PASSWORD = /[^@\s/]*/y;

/**
 * The password of credentials in a URL (`scheme://user:password@host`). A try starts at `://` and reads no
 * further than the next `/`, where the next try starts.
 */
const urlPassword: SecretRule = (text, out) => {
  for (let k = text.indexOf('://'); k >= 0; ) {
    let next = k + 3;
    if (k > 0 && isSchemeEnd(text.charCodeAt(k - 1))) {
      const user = runEnd(text, k + 3, USER);
      next = user;
      if (user > k + 3 && text.charCodeAt(user) === 0x3a) {
        const end = runEnd(text, user + 1, PASSWORD);
        if (end > user + 1 && text.charCodeAt(end) === 0x40) {
          out.push(user + 1, end);
          next = end + 1;
        } else next = Math.max(user + 1, end - 1);
      }
    }
    k = text.indexOf('://', next);
  }
};

const SECRET_KEY = /api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|refresh[_-]?token|token|password|passwd|pwd|access[_-]?key|client[_-]?secret|private[_-]?key/gi;

/** An unquoted value: no white space, quote, `\`, `,`, `;`, `&` or `}`. */
const BARE_VALUE = /[^\s"'\\,;&}]*/y;

/** Index past an optional `\` and an optional quote at `i`. */
function skipQuote(text: string, i: number): number {
  const j = text.charCodeAt(i) === 0x5c ? i + 1 : i;
  const c = text.charCodeAt(j);
  return c === 0x22 || c === 0x27 ? j + 1 : j;
}

/**
 * Where the value given to the secret-named key that ends at `i` starts (`password=`, `"api_key": "`,
 * `\"token\" : \"`), or -1 when no `:` or `=` follows it.
 */
function valueStart(text: string, i: number): number {
  const sep = runEnd(text, skipQuote(text, i), SPACES);
  const c = text.charCodeAt(sep);
  if (c !== 0x3a && c !== 0x3d) return -1;
  return skipQuote(text, runEnd(text, sep + 1, SPACES));
}

/** The value given to a secret-named key (`password=...`, `"api_key": "..."`): three or more characters. */
const keyValue: SecretRule = (text, out) => {
  const re = SECRET_KEY;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const v = valueStart(text, re.lastIndex);
    const end = v < 0 ? -1 : runEnd(text, v, BARE_VALUE);
    if (end - v >= 3) {
      out.push(v, end);
      re.lastIndex = end;
    } else re.lastIndex = m.index + 1;
  }
};

/** Every rule, in the order their spans are looked for (the order does not change the result). */
export const SECRET_RULES: readonly SecretRule[] = [privateKeyBlock, prefixedTokens, webToken, authScheme, urlPassword, keyValue];
