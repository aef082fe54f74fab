/**
 * Credentials of services whose shape is not a prefix (hostile7): Telegram and Discord bot tokens, Azure
 * shared access signatures, tokens given as a URL's user (Sentry DSNs' keys), `.netrc` passwords. Each is checked by more than its
 * characters (a Discord token's first part must decode to a user id, a SAS signature needs the SAS's
 * other fields near it, a `.netrc` password its entry's `machine` and `login`), so hashes, UUIDs, git SHAs, base64
 * and minified code keep their text. Linear in the text (see `secret-scan.ts`): starts are found by literals
 * or bounded expressions, runs measured once.
 */
import { RUN, type SecretRule, escapeBefore, runEnd, startsToken } from './secret-scan.js';

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * Telegram bot tokens: a bot id of 8 to 10 digits, `:`, then 35 base64url characters starting `AA`
 * (`123456789:AAH...`). Any character may stand before the id (`.../bot123456789:AA...` in the Bot API's
 * URLs); a token glued after other digits (hostile8: `id 4` then the token, written without a space) has
 * its last 10 digits and the secret hidden. The secret part is a whole run of exactly 35: longer runs are
 * something else.
 */
const telegramBotToken: SecretRule = (text, out) => {
  for (let k = text.indexOf(':AA'); k >= 0; ) {
    let d = k;
    const stop = Math.max(0, k - 10);
    while (d > stop && isDigit(text.charCodeAt(d - 1))) d--;
    const end = runEnd(text, k + 1, RUN.base64url);
    const digits = k - d;
    if (digits >= 8 && end - k - 1 === 35) out.push(d, end);
    // the run after this `:` holds no other `:`
    k = text.indexOf(':AA', end);
  }
};

/** A Discord bot token's three parts: user id (base64url), timestamp (6), HMAC (27 or more). Bounded. */
const DISCORD = /[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27}/g;

/** Whether `text[from, to)` is base64url of 17 to 20 ASCII digits (a Discord user id, a snowflake). */
function snowflakeId(text: string, from: number, to: number): boolean {
  const id = Buffer.from(text.slice(from, to), 'base64url');
  if (id.length < 17 || id.length > 20) return false;
  for (const b of id) if (!isDigit(b)) return false;
  return true;
}

/**
 * Discord bot tokens (`MTA4...` `.` `GxYz12` `.` HMAC): where a token starts (`startsToken`), a first part
 * that decodes to a user id of digits, a 6-character second part, and a third of 27 to 40 characters
 * ending its run. Random base64url with two dots fails the first part (1 in ~10^15).
 */
const discordBotToken: SecretRule = (text, out) => {
  const re = DISCORD;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const i = m.index;
    const dot1 = text.indexOf('.', i);
    const third = dot1 + 8;
    const end = runEnd(text, third, RUN.base64url);
    if (startsToken(text, i) && end - third <= 40 && snowflakeId(text, i, dot1)) {
      out.push(i, end);
      re.lastIndex = end;
    } else re.lastIndex = i + 1;
  }
};

/** A shared access signature's other fields: its version or expiry, as a query parameter. */
const SAS_FIELD = /[?&;](?:sv|se)=/g;
const SAS_SIG = /[?&;]sig=/g;
/** A signature's value: base64, percent-encoded or not. */
const SIG_VALUE = /[A-Za-z0-9%+/=_.-]*/y;
/** How near before the signature (characters) its SAS's `sv=` or `se=` must be. */
const SAS_NEAR = 1024;

/** Where a URL's query string ends: white space, a quote or an angle bracket. */
const QUERY_END = /[\s"'<>]/g;

/**
 * Azure shared access signatures: the value of `sig=` (16 or more characters) in a query string with `sv=`
 * or `se=` within {@link SAS_NEAR} characters before it (`?sv=2022-11-02&se=...&sig=AbC%2Bd...%3D`: Azure's
 * tools write `sig` last), or after it in the same query string (hostile8: `?sig=...&sv=...`, a URL put
 * together by hand: then hidden through that field's name, `?sig=[REDACTED]2022-11-02`, so that a cut
 * between the two, which cutText moves before a secret it runs into, hides the signature too). The fields'
 * places are found once, then walked beside the signatures, and so is where the query after each ends.
 */
const azureSasSignature: SecretRule = (text, out) => {
  if (text.indexOf('sig=') < 0) return;
  const fields: number[] = [];
  SAS_FIELD.lastIndex = 0;
  for (let m = SAS_FIELD.exec(text); m !== null; m = SAS_FIELD.exec(text)) fields.push(m.index);
  if (fields.length === 0) return;
  let f = 0;
  let g = 0;
  let queryEnd = -1;
  const re = SAS_SIG;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const v = m.index + 5;
    const end = runEnd(text, v, SIG_VALUE);
    while (f < fields.length && (fields[f] as number) < m.index - SAS_NEAR) f++;
    // the first field after the signature (signatures' ends only grow: read once)
    if (g < f) g = f;
    while (g < fields.length && (fields[g] as number) < end) g++;
    if (end - v >= 16) {
      const before = f < fields.length && (fields[f] as number) < m.index;
      if (!before && g < fields.length && queryEnd < end) {
        QUERY_END.lastIndex = end;
        queryEnd = QUERY_END.exec(text)?.index ?? text.length;
      }
      const after = !before && g < fields.length && (fields[g] as number) < Math.min(queryEnd, end + SAS_NEAR);
      // a signature told by a field after it runs through that field's name: a cut before the field (a
      // preview) must fall before the signature too, so the hidden part takes `&sv=` and what is between
      if (before) out.push(v, end);
      else if (after) out.push(v, (fields[g] as number) + 4);
    }
    re.lastIndex = Math.max(end, v);
  }
};

/** A URL's user that is a token: 32 or more base64url characters. */
const MIN_USER_TOKEN = 32;

/**
 * A token given as a URL's user, with no password: Sentry DSNs' keys (`https://<32 hex>@o123.ingest.sentry.io/456`,
 * which let anyone send events as the project), `https://<token>@github.com/...`. User names are short
 * (`git@`, `x-access-token@`); a DSN with `key:secret@` has its secret redacted as any URL password. No host
 * is looked at: a text cut after the `@` must still show none of the key.
 */
const urlUserToken: SecretRule = (text, out) => {
  for (let k = text.indexOf('://'); k >= 0; ) {
    const user = k + 3;
    const end = runEnd(text, user, RUN.base64url);
    if (end - user >= MIN_USER_TOKEN && text.charCodeAt(end) === 0x40) out.push(user, end);
    k = text.indexOf('://', Math.max(end, user));
  }
};

/** `.netrc` keywords, where a word starts; `machine` or `default` opens an entry. */
const NETRC_WORD = /machine|default|login|account|password/g;
/**
 * End of the white space between `.netrc` tokens from `i`, JSON's escapes (`\n`, `\r`, `\t`) included. A
 * loop, not an expression: a repeated alternation keeps a backtracking entry a character, and 8 MB of spaces
 * overflowed its stack.
 */
function gapEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x5c) {
      const e = text.charCodeAt(i + 1);
      if (e !== 0x6e && e !== 0x72 && e !== 0x74) return i;
      i += 2;
    } else return i;
  }
}
/** A token's value (a login, a password): no white space, quote or backslash. */
const NETRC_VALUE = /[^\s"'\\]*/y;

/** Whether the `.netrc` keyword at `i` starts a word (after white space, an escape such as `\n`, or at the start). */
function wordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i - 1);
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x27 || escapeBefore(text, i) > 0;
}

/** Whether a `.netrc` machine's name `text[from, to)` is a host's: a dot in it, or `localhost`. */
function hostName(text: string, from: number, to: number): boolean {
  const dot = text.indexOf('.', from);
  return (dot >= 0 && dot < to - 1) || text.startsWith('localhost', from);
}

/**
 * `.netrc` passwords (`machine api.example.com login ada password hunter2`, on one line or several): the
 * value after `password` in an entry read from its `machine` (whose name is a host's) or `default`, each
 * keyword since followed by exactly one value (`default` by none). Prose ("your login and password",
 * "machine learning login page password reset") does not read as one. Each stretch between keywords is
 * read once.
 */
const netrcPassword: SecretRule = (text, out) => {
  const re = NETRC_WORD;
  re.lastIndex = 0;
  /** Whether an entry is being read, the keyword before, and where what follows it starts. */
  let entry = false;
  let prev = '';
  let prevEnd = -1;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const i = m.index;
    const after = re.lastIndex;
    const gap = gapEnd(text, after);
    if (!wordStart(text, i) || gap === after) continue;
    const word = m[0];
    if (entry) {
      if (prev === 'default') entry = prevEnd === i;
      else {
        const v = runEnd(text, prevEnd, NETRC_VALUE);
        entry = v > prevEnd && gapEnd(text, v) === i && (prev !== 'machine' || hostName(text, prevEnd, v));
      }
    }
    if (word === 'machine' || word === 'default') entry = true;
    if (word === 'password' && entry) {
      const end = runEnd(text, gap, NETRC_VALUE);
      if (end > gap) {
        out.push(gap, end);
        re.lastIndex = end;
      }
    }
    prev = word;
    prevEnd = gap;
  }
};

/** Words on a line that say a Twilio auth token is on it: the vendor's name, its account SID's name or shape. */
const TWILIO_CONTEXT = /twilio|account_?sid|AC[0-9a-f]{32}/gi;
/** A quoted string of exactly 32 lower-case hex digits (a Twilio auth token's shape, and an md5's), in JSON text too (`\\"`). */
const QUOTED_HEX32 = /(["'])[0-9a-f]{32}\\?\1/g;
/** How far before a quoted token, on its line, the context may be (characters). */
const TWILIO_NEAR = 256;

/**
 * Twilio auth tokens given without their SID glued on (hostile8): a quoted string of 32 lower-case hex on a
 * line that names Twilio or an account SID before it, within {@link TWILIO_NEAR} characters
 * (`require('twilio')(sid, '<token>')`, `Client(account_sid, "<token>")`). A bare md5, an etag, a checksum
 * in a Twilio package's line (not quoted) keep their text. Context places are found once and walked beside
 * the candidates.
 */
const twilioAuthToken: SecretRule = (text, out) => {
  const context: number[] = [];
  TWILIO_CONTEXT.lastIndex = 0;
  for (let m = TWILIO_CONTEXT.exec(text); m !== null; m = TWILIO_CONTEXT.exec(text)) context.push(m.index);
  if (context.length === 0) return;
  let c = 0;
  let lineStart = 0;
  let scanned = 0;
  const re = QUOTED_HEX32;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const i = m.index;
    // the line's start: the last line break (or JSON's \n) before the token, read once over the text
    for (; scanned < i; scanned++) {
      const ch = text.charCodeAt(scanned);
      if (ch === 0x0a || (ch === 0x5c && text.charCodeAt(scanned + 1) === 0x6e)) lineStart = scanned + 1;
    }
    const from = Math.max(lineStart, i - TWILIO_NEAR);
    while (c < context.length && (context[c] as number) < from) c++;
    if (c < context.length && (context[c] as number) < i) out.push(i + 1, i + 33);
  }
};

/** The rules for service credentials without a prefix of their own. */
export const SERVICE_RULES: readonly SecretRule[] = [telegramBotToken, discordBotToken, azureSasSignature, urlUserToken, netrcPassword, twilioAuthToken];
