/**
 * Whether a text may hold a secret, in one pass over its characters for the literals: the answer of
 * `TRIGGER_EXPRESSION.test(text) || FORTY_IN_A_ROW.test(text)` (both kept below as the specification,
 * held to this by test/secret-trigger.test.ts), then the two shape expressions no literal stands for, without the expressions' cost: the case-insensitive
 * alternation of some sixty literals read ~8 ns a character and the run of forty ~3.5 ns on verdict
 * patterns (docs/speed.md, "lazyverdict"); every verdict's pattern, kind, tool names and signal patterns,
 * every preview's cut and every text the CLI prints pass here.
 *
 * Case: the expression is `/i` without `u`, where an ASCII letter matches only its two cases (a character
 * past ASCII never canonicalises to one below 128), so lower-casing A-Z alone is the same reading.
 */

/**
 * A literal every rule's match contains (case aside): text without any of them cannot hold a secret.
 * The specification of {@link TRIGGERS}, which spells it out.
 */
export const TRIGGER_EXPRESSION =
  /[spr]k[-_]|gh[pousr]_|github_pat_|xox|xapp-|akia|asia|aiza|eyj|bearer|basic|token|:\/\/|key|secret|passw|pwd|hf_|gl(?:pat|rt|dt|ptt)-|npm_|sg\.|whsec_|gocspx-|ya29\.|pypi-|gsk_|xai-|pplx-|r8_|_v1_|shp(?:at|ss|ca|pa)_|sbp_|sntrys_|ntn_|atatt|hvs\.|dp\.(?:pt|st|sa)\.|pmak-|dapi|hooks\.slack|webhooks|_auth|credential|sig=|lsv2_|tvly-|pcsk_|lin_api_|hrku-|tskey-|gl(?:c|sa)_|nrak-|pscale_|figd_|twilio|account_sid|accountsid/i;

/**
 * What AWS secret keys, which have no literal, need: 40 base64 characters in a row, looked for only where a
 * run begins (from every character, a run of 39 would be read 39 times).
 */
export const FORTY_IN_A_ROW = /(?:^|[^A-Za-z0-9/+])[A-Za-z0-9/+]{40}/;

/** {@link TRIGGER_EXPRESSION}'s alternatives, classes and groups spelled out, lower case (each 3 characters or more). */
export const TRIGGERS: readonly string[] = Object.freeze([
  'sk-', 'sk_', 'pk-', 'pk_', 'rk-', 'rk_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'xox', 'xapp-', 'akia', 'asia',
  'aiza', 'eyj', 'bearer', 'basic', 'token', '://', 'key', 'secret', 'passw', 'pwd', 'hf_', 'glpat-', 'glrt-', 'gldt-', 'glptt-',
  'npm_', 'sg.', 'whsec_', 'gocspx-', 'ya29.', 'pypi-', 'gsk_', 'xai-', 'pplx-', 'r8_', '_v1_', 'shpat_', 'shpss_', 'shpca_',
  'shppa_', 'sbp_', 'sntrys_', 'ntn_', 'atatt', 'hvs.', 'dp.pt.', 'dp.st.', 'dp.sa.', 'pmak-', 'dapi', 'hooks.slack', 'webhooks',
  '_auth', 'credential', 'sig=', 'lsv2_', 'tvly-', 'pcsk_', 'lin_api_', 'hrku-', 'tskey-', 'glc_', 'glsa_', 'nrak-',
  'pscale_', 'figd_', 'twilio', 'account_sid', 'accountsid',
]);

/**
 * The triggers that are shapes, not literals (hostile7): Twilio's `SK`/`AC` + 32 hex, a Telegram bot token's
 * `<digits>:AA`. Read by their own expression after the one pass.
 */
export const SHAPE_EXPRESSION = /(?:sk|ac)[0-9a-f]{32}|[0-9]:aa/i;

/**
 * What Discord bot tokens, which have no literal either, need: a user id's base64 (from `M`, `N` or `O`) and a
 * 6-character part between dots (bounded: each start reads at most 35 characters).
 */
export const DISCORD_SHAPE = /[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\./;

/** Per ASCII code: 1 for the characters of a base64 run (A-Z, a-z, 0-9, `/`, `+`). */
const BASE64 = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 47 || c === 43) BASE64[c] = 1;
}

/**
 * Per pair of lower-cased ASCII codes (`a * 128 + b`): 1 + the index in {@link BY_PAIR} of the triggers that
 * begin with those two characters, 0 for none.
 */
const PAIRS = new Uint8Array(128 * 128);
/** The triggers by their first two characters (see PAIRS). */
const BY_PAIR: string[][] = [];
for (const t of TRIGGERS) {
  const key = t.charCodeAt(0) * 128 + t.charCodeAt(1);
  if (PAIRS[key] === 0) {
    BY_PAIR.push([]);
    PAIRS[key] = BY_PAIR.length;
  }
  (BY_PAIR[(PAIRS[key] as number) - 1] as string[]).push(t);
}

/** `c` with A-Z lower-cased; 128 for any code past ASCII (it matches no trigger's character). */
function lower(c: number): number {
  if (c >= 128) return 128;
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/** Whether `text` may hold a secret (when not, no rule would find one): a trigger in it, forty base64 characters in a row, or a shape. */
export function mayHoldSecret(text: string): boolean {
  return literalOrRun(text) || SHAPE_EXPRESSION.test(text) || DISCORD_SHAPE.test(text);
}

/** The one pass: a trigger literal in `text`, case aside, or forty base64 characters in a row. */
function literalOrRun(text: string): boolean {
  const n = text.length;
  let run = 0;
  // the previous character lower-cased (128: none, or past ASCII); each character is read once
  let a = 128;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && BASE64[c] === 1) {
      if (++run >= 40) return true;
    } else run = 0;
    const b = lower(c);
    if (a !== 128 && b !== 128) {
      const found = PAIRS[a * 128 + b] as number;
      if (found !== 0 && triggerAt(text, i - 1, BY_PAIR[found - 1] as string[])) return true;
    }
    a = b;
  }
  return false;
}

/** Whether one of `triggers` (lower case, their first two characters already matched) is in `text` at `at`, case aside. */
function triggerAt(text: string, at: number, triggers: readonly string[]): boolean {
  for (let j = 0; j < triggers.length; j++) {
    const t = triggers[j] as string;
    if (at + t.length > text.length) continue;
    let k = 2;
    while (k < t.length && lower(text.charCodeAt(at + k)) === t.charCodeAt(k)) k++;
    if (k === t.length) return true;
  }
  return false;
}
