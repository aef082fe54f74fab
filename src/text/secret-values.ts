/**
 * Secrets known by what stands before them: the credential after an auth scheme (`Bearer ...`), the
 * password in a URL, the value given to a secret-named key (`password: "..."`, `api_key=...`,
 * `aws_secret_access_key ...`, `--token ...`). Only the secret is redacted, the name is kept. Linear in the
 * text (see `secret-scan.ts`).
 */
import { RUN, type SecretRule, isWord, runEnd } from './secret-scan.js';

const AUTH_SCHEME = /\b(?:bearer|basic|token)/gi;
const CREDENTIAL = /[A-Za-z0-9._~+/=-]*/y;
/** Most white space, quotes and backslashes skipped on each side of an `Authorization` header's separator. */
const HEADER_GAP = 8;

/** Index before the white space, quotes and backslashes (at most {@link HEADER_GAP}) that end at `k`. */
function gapStart(text: string, k: number): number {
  const stop = Math.max(0, k - HEADER_GAP);
  while (k > stop) {
    const c = text.charCodeAt(k - 1);
    if (c !== 0x20 && c !== 0x09 && c !== 0x22 && c !== 0x27 && c !== 0x5c) break;
    k--;
  }
  return k;
}

/**
 * Whether the scheme at `at` is an `Authorization` header's: `Authorization: Basic`, `"authorization":
 * "Bearer`, `Authorization=Bearer` (any case; quotes, escapes and white space around the separator).
 */
export function afterAuthorization(text: string, at: number): boolean {
  let k = gapStart(text, at);
  const c = text.charCodeAt(k - 1);
  if (k === 0 || (c !== 0x3a && c !== 0x3d)) return false;
  k = gapStart(text, k - 1);
  return k >= 13 && text.slice(k - 13, k).toLowerCase() === 'authorization';
}

/** Whether `text[from, to)` has a digit, `+`, `/` or `=`, as credentials do and words (`Basic functionality`) do not. */
export function credentialLike(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d) return true;
  }
  return false;
}

/**
 * `Bearer`, `Basic` and `token` followed by white space and a credential of 8 or more characters: the
 * credential, when it is an `Authorization` header's, or has a digit, `+`, `/` or `=` (prose says `Basic
 * functionality`, `token generation`: 292 such phrases in the shared traces were redacted before).
 */
const authScheme: SecretRule = (text, out) => {
  const re = AUTH_SCHEME;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const after = re.lastIndex;
    const v = runEnd(text, after, RUN.space);
    if (v === after) continue;
    const end = runEnd(text, v, CREDENTIAL);
    if (end - v >= 8) {
      if (credentialLike(text, v, end) || afterAuthorization(text, m.index)) out.push(v, end);
      re.lastIndex = end;
    } else re.lastIndex = v; // a scheme may follow in these few characters
  }
};

/** Whether `c` may end a URL scheme (`[A-Za-z0-9+.-]`). */
const isSchemeEnd = (c: number): boolean => (isWord(c) ? c !== 0x5f : c === 0x2b || c === 0x2e || c === 0x2d);
/** A URL's user: no `:`, `/`, `@` or white space. */
const USER = /[^:\s/@]*/y;
/** A URL's password: no `@`, `/` or white space. */
const PASSWORD = /[^@\s/]*/y;

/**
 * The password of credentials in a URL (`scheme://user:password@host`, `redis://:password@host`). A try starts at `://` and reads no
 * further than the next `/`, where the next try starts. With `openEnd`, a password reaching the end counts.
 */
const urlPassword: SecretRule = (text, out, openEnd) => {
  for (let k = text.indexOf('://'); k >= 0; ) {
    let next = k + 3;
    if (k > 0 && isSchemeEnd(text.charCodeAt(k - 1))) {
      const user = runEnd(text, k + 3, USER);
      next = user;
      // the user may be empty (`redis://:password@host`)
      if (text.charCodeAt(user) === 0x3a) {
        const end = runEnd(text, user + 1, PASSWORD);
        if (end > user + 1 && (text.charCodeAt(end) === 0x40 || (openEnd && end === text.length))) {
          out.push(user + 1, end);
          next = end + 1;
        } else next = end - 1; // the password's last `:` (or the user's, when it is empty) may begin a `://`
      }
    }
    k = text.indexOf('://', next);
  }
};

/** Longest quoted value redacted, in characters: past it (or a line break, or the end) the span stops. */
export const QUOTED_VALUE_MAX = 256;
/** An unquoted value: no white space, quote, `\`, `,`, `;`, `&` or `}`. */
const BARE_VALUE = /[^\s"'\\,;&}]*/y;

const isQuote = (c: number): boolean => c === 0x22 || c === 0x27;

/** Words that are a value of code, not a secret (`token=None`, `"api_key": null`). */
const CODE_WORDS: ReadonlySet<string> = new Set(['None', 'null', 'NULL', 'nil', 'true', 'false', 'True', 'False', 'undefined']);
/** A dotted name (`settings.SECRET_KEY`, `self.password`, `process.env.TOKEN`). */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** Longest bare value looked at as a dotted name. */
const NAME_MAX = 100;

/**
 * Whether the unquoted value `text[start, end)` is code rather than a secret: a call or an index
 * (`models.CharField(max_length=128`, `settings_dict[`), a variable or template (`$DB_PASSWORD`,
 * `{token}`), a literal such as `None` or `null`, or a dotted name (`settings.SECRET_KEY`). 233 of the
 * 1,114 spans redacted in the shared traces were such code.
 */
function codeValue(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (first === 0x24 || first === 0x7b) return true;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x28 || c === 0x5b) return true;
  }
  if (end - start > NAME_MAX) return false;
  // what closes the code around it (`token=None):`) is not part of the value
  const value = text.slice(start, end).replace(/[):.\]]+$/, '');
  return CODE_WORDS.has(value) || DOTTED_NAME.test(value);
}

/**
 * The span of the value that starts at `v` (after the separator), as [start, end], or null (an empty span:
 * code, to skip): a quoted value
 * (`"correct horse, battery"`, also `\"...\"` inside JSON text) up to its closing quote, a line break or
 * {@link QUOTED_VALUE_MAX} characters; else three or more characters up to white space, a quote, `\`, `,`,
 * `;`, `&` or `}`, unless they are code ({@link codeValue}).
 */
function valueSpan(text: string, v: number): [number, number] | null {
  const escaped = text.charCodeAt(v) === 0x5c && isQuote(text.charCodeAt(v + 1));
  const at = escaped ? v + 1 : v;
  const q = text.charCodeAt(at);
  if (!isQuote(q)) {
    const start = text.charCodeAt(at) === 0x5c ? at + 1 : at;
    const end = runEnd(text, start, BARE_VALUE);
    if (end - start < 3) return null;
    // code is skipped whole (an empty span), so that a key inside it is not read again from each start
    return codeValue(text, start, end) ? [end, end] : [start, end];
  }
  const start = at + 1;
  const stop = Math.min(text.length, start + QUOTED_VALUE_MAX);
  let k = start;
  for (; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c === q) {
      const end = escaped && text.charCodeAt(k - 1) === 0x5c ? k - 1 : k;
      return end === start ? null : [start, end]; // an empty value (`\"\"` in JSON text too) has nothing to hide
    }
    if (c === 0x0a || c === 0x0d) break;
    if (c === 0x5c && !escaped) k++;
  }
  return k > start ? [start, Math.min(k, text.length)] : null;
}

/** Index past an optional `\` and an optional quote at `i` (a key's closing quote). */
function skipQuote(text: string, i: number): number {
  const j = text.charCodeAt(i) === 0x5c ? i + 1 : i;
  return isQuote(text.charCodeAt(j)) ? j + 1 : j;
}

const SECRET_KEY = /api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|refresh[_-]?token|token|password|passwd|pwd|access[_-]?key|client[_-]?secret|private[_-]?key/gi;
/** Keys whose value may follow after white space alone: AWS's in shell commands and config, and flags. */
const SPACED_KEY = /\b(?:aws_secret_access_key|aws_session_token)|--(?:password|passwd|api[_-]?key|token|auth[_-]?token|access[_-]?token|secret|client[_-]?secret|secret[_-]?access[_-]?key)\b/gi;

/**
 * The value given to a secret-named key. `spaced`: the keys of {@link SPACED_KEY}, whose value may follow
 * white space alone; otherwise a `:` or `=` (with white space and the key's closing quote around it).
 */
function keyValue(keys: RegExp, spaced: boolean): SecretRule {
  return (text, out) => {
    const re = keys;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const key = skipQuote(text, re.lastIndex);
      let v = runEnd(text, key, RUN.space);
      const c = text.charCodeAt(v);
      if (c === 0x3a || c === 0x3d) v = runEnd(text, v + 1, RUN.space);
      else if (!spaced || v === key) v = -1;
      const span = v < 0 ? null : valueSpan(text, v);
      if (span !== null) {
        if (span[1] > span[0]) out.push(span[0], span[1]);
        re.lastIndex = span[1];
      } else re.lastIndex = m.index + 1;
    }
  };
}

/**
 * Secret names written as environment variables and connection strings only (case matters): `NPM_AUTH=`,
 * `GOOGLE_CREDENTIALS:`, `OPENAI_KEY=` (a `_KEY` name with `=` right after it, as `.env` files write it;
 * code's `SESSION_KEY = "_auth_user_id"` keeps its value), Azure's `AccountKey=` and `SharedAccessKey=`.
 */
const ENV_KEY = /_(?:CREDENTIALS?|AUTH)\b|\b(?:Account|SharedAccess)Key(?==)|[A-Z0-9]_KEY(?==)/g;

/** The rules for secrets known by what stands before them. */
export const VALUE_RULES: readonly SecretRule[] = [authScheme, urlPassword, keyValue(SECRET_KEY, false), keyValue(SPACED_KEY, true), keyValue(ENV_KEY, false)];
