/**
 * Secrets known by their own shape, wherever they stand: private key blocks, keys with a vendor prefix,
 * JSON Web Tokens, and AWS secret access keys (`secret-aws.ts`). Linear in the text (see `secret-scan.ts`).
 */
import { awsSecretKey } from './secret-aws.js';
import { RUN, type SecretRule, matchesAt, runEnd, startsToken } from './secret-scan.js';

const LABEL = /[A-Z ]*/y;

/**
 * Where a `-----BEGIN ... PRIVATE KEY-----` (or END) marker whose label starts at `at` ends, or -1. The label
 * is a run of capitals and spaces; `PRIVATE KEY-----` can only close it at the run's end (a `-` ends the run).
 */
function markerEnd(text: string, at: number): number {
  const e = runEnd(text, at, LABEL);
  if (!text.startsWith('-----', e)) return -1;
  // OpenPGP's secret key is a `PGP PRIVATE KEY BLOCK`
  return (e - at >= 11 && text.startsWith('PRIVATE KEY', e - 11)) || (e - at >= 17 && text.startsWith('PRIVATE KEY BLOCK', e - 17)) ? e + 5 : -1;
}

/** A private key block (PEM, OpenSSH, OpenPGP): from its BEGIN marker to its END marker, or to the end of the text. */
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

/** Where a key's body that starts at `from` ends, or -1. */
type KeyBody = (text: string, from: number) => number;

/** A body of `n` or more characters of `run`. */
const atLeast = (run: RegExp, n: number): KeyBody => (text, from) => {
  const e = runEnd(text, from, run);
  return e - from >= n ? e : -1;
};

/** A body matched by the sticky `re` (bounded), then the rest of its base64url run. */
const shaped = (re: RegExp, extend: boolean): KeyBody => (text, from) => {
  if (!matchesAt(re, text, from)) return -1;
  return extend ? runEnd(text, re.lastIndex, RUN.base64url) : re.lastIndex;
};

/** A webhook URL's path after its host: ids and the secret, joined by `/` (`T0/B0/XXXX`). */
const WEBHOOK_PATH = /[A-Za-z0-9/_-]*/y;
/** Base64 or base64url, padded or not (Stripe's webhook signing secrets, Sentry's auth tokens). */
const BASE64 = /[A-Za-z0-9+/=_-]*/y;
/** Base64url and `.` (Google's OAuth access tokens). */
const DOTTED = /[A-Za-z0-9._-]*/y;

const HEX32 = /[0-9a-f]{32}(?![0-9A-Za-z])/y;
/** Mailgun's `key-` and 32 hex digits, unless `-` stands before it (`npm-cache-key-<md5>` is a cache key). */
const mailgunKey: KeyBody = (text, from) => (text.charCodeAt(from - 5) === 0x2d || !matchesAt(HEX32, text, from) ? -1 : HEX32.lastIndex);

/** Keys by prefix, and what follows the prefix. */
const KEY_BODIES: ReadonlyMap<string, KeyBody> = new Map([
  // OpenAI, Anthropic (sk-ant-...), and the same form from others
  ...['sk-', 'pk-', 'rk-'].map((p) => [p, atLeast(RUN.base64url, 16)] as const),
  // Stripe secret, restricted and publishable keys
  ...['sk', 'rk', 'pk'].flatMap((p) => [`${p}_live_`, `${p}_test_`]).map((p) => [p, atLeast(RUN.alnum, 16)] as const),
  ['whsec_', atLeast(BASE64, 24)],
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((p) => [p, atLeast(RUN.alnum, 20)] as const),
  ['github_pat_', atLeast(RUN.word, 20)],
  // Slack: bot, user, app-level, refresh and configuration tokens
  ...['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xapp-'].map((p) => [p, atLeast(RUN.alnumDash, 10)] as const),
  // 20 characters: not followed by a letter or digit (`_`, as after any key, may follow)
  ['AKIA', shaped(/[0-9A-Z]{16}(?![0-9A-Za-z])/y, false)],
  ['ASIA', shaped(/[0-9A-Z]{16}(?![0-9A-Za-z])/y, false)],
  // Google: an OAuth client secret, an OAuth access token
  ['GOCSPX-', atLeast(RUN.base64url, 20)],
  ['ya29.', atLeast(DOTTED, 20)],
  ['hf_', atLeast(RUN.alnum, 30)],
  // GitLab: personal, runner, deploy and pipeline trigger tokens
  ...['glpat-', 'glrt-', 'gldt-', 'glptt-'].map((p) => [p, atLeast(RUN.base64url, 20)] as const),
  ['npm_', atLeast(RUN.alnum, 30)],
  ['pypi-AgEIcHlwaS5vcmc', atLeast(RUN.base64url, 30)],
  // model vendors with a prefix of their own: Groq, xAI, Perplexity, Replicate
  ['gsk_', atLeast(RUN.alnum, 30)],
  ['xai-', atLeast(RUN.alnum, 30)],
  ['pplx-', atLeast(RUN.alnum, 30)],
  ['r8_', atLeast(RUN.alnum, 30)],
  // DigitalOcean, Shopify, Supabase, Sentry, Notion, Atlassian, HashiCorp Vault, age
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].map((p) => [p, atLeast(RUN.alnum, 32)] as const),
  ...['shpat_', 'shpss_', 'shpca_', 'shppa_'].map((p) => [p, atLeast(RUN.alnum, 32)] as const),
  ['sbp_', atLeast(RUN.alnum, 32)],
  ['sntrys_', atLeast(BASE64, 32)],
  ['ntn_', atLeast(RUN.alnum, 30)],
  ['ATATT', atLeast(RUN.base64url, 40)],
  ['hvs.', atLeast(RUN.base64url, 24)],
  // Doppler, Postman, Databricks
  ...['dp.pt.', 'dp.st.', 'dp.sa.'].map((p) => [p, atLeast(RUN.alnum, 30)] as const),
  ['PMAK-', atLeast(RUN.alnumDash, 40)],
  ['dapi', shaped(/[0-9a-f]{32}(?![0-9A-Za-z])/y, false)],
  ['AGE-SECRET-KEY-1', atLeast(RUN.alnum, 40)],
  // hostile7: Mailgun, Twilio API keys and account SID:auth token pairs
  ['key-', mailgunKey],
  ['SK', shaped(/[0-9a-f]{32}(?![0-9A-Za-z])/y, false)],
  ['AC', shaped(/[0-9a-f]{32}:[0-9a-f]{32}(?![0-9A-Za-z])/y, false)],
  // LangSmith, Tavily, Pinecone, Linear, Heroku, Tailscale, Grafana, New Relic, PlanetScale, Figma, Mapbox secret tokens
  ...['lsv2_pt_', 'lsv2_sk_'].map((p) => [p, atLeast(RUN.word, 32)] as const),
  ['tvly-', atLeast(RUN.alnumDash, 24)],
  ['pcsk_', atLeast(RUN.word, 40)],
  ['lin_api_', atLeast(RUN.alnum, 32)],
  ['HRKU-', atLeast(RUN.base64url, 30)],
  ['tskey-', atLeast(RUN.alnumDash, 24)],
  ...['glc_', 'glsa_'].map((p) => [p, atLeast(RUN.base64url, 32)] as const),
  ['NRAK-', shaped(/[A-Z0-9]{27}(?![0-9A-Za-z])/y, false)],
  ...['pscale_tkn_', 'pscale_pw_'].map((p) => [p, atLeast(RUN.base64url, 32)] as const),
  ['figd_', atLeast(RUN.base64url, 32)],
  ['sk.eyJ', atLeast(DOTTED, 40)],
  // SendGrid: SG.<id>.<secret>
  ['SG.', shaped(/[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16}/y, true)],
  // webhook URLs whose path is the credential
  ['hooks.slack.com/services/', atLeast(WEBHOOK_PATH, 20)],
  ['discord.com/api/webhooks/', atLeast(WEBHOOK_PATH, 20)],
  ['discordapp.com/api/webhooks/', atLeast(WEBHOOK_PATH, 20)],
]);
const KEY_PREFIX =
  /(?:[spr]k-|[spr]k_(?:live|test)_|whsec_|gh[pousr]_|github_pat_|xox[abposre]-|xapp-|AKIA|ASIA|GOCSPX-|ya29\.|hf_|gl(?:pat|rt|dt|ptt)-|npm_|pypi-AgEIcHlwaS5vcmc|gsk_|xai-|pplx-|r8_|do[opr]_v1_|shp(?:at|ss|ca|pa)_|sbp_|sntrys_|ntn_|ATATT|hvs\.|dp\.(?:pt|st|sa)\.|PMAK-|dapi|AGE-SECRET-KEY-1|key-|SK|AC|lsv2_(?:pt|sk)_|tvly-|pcsk_|lin_api_|HRKU-|tskey-|gl(?:c|sa)_|NRAK-|pscale_(?:tkn|pw)_|figd_|sk\.eyJ|SG\.|hooks\.slack\.com\/services\/|discord(?:app)?\.com\/api\/webhooks\/)/g;

/** Keys and tokens known by their prefix (see {@link KEY_BODIES}) where a token starts (`startsToken`). */
const prefixedKey: SecretRule = (text, out) => {
  const re = KEY_PREFIX;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = startsToken(text, m.index) ? (KEY_BODIES.get(m[0]) as KeyBody)(text, m.index + m[0].length) : -1;
    if (end >= 0) {
      // a webhook URL keeps its host and path (the prefix, ending in `/`): what follows is the secret
      out.push(m[0].endsWith('/') ? m.index + m[0].length : m.index, end);
      re.lastIndex = end;
    } else re.lastIndex = m.index + 1;
  }
};

/**
 * Google API keys: `AIza` where a token starts (`startsToken`) and exactly 35 base64url characters (the last may be `-`, so
 * the key ends where the run does, not at a word boundary). Every `AIza` of one run ends where the run
 * does: only the one 39 characters before the run's end can be a key, so the run is read once.
 */
const googleKey: SecretRule = (text, out) => {
  let runEndAt = -1;
  for (let i = text.indexOf('AIza'); i >= 0; ) {
    if (!startsToken(text, i)) {
      i = text.indexOf('AIza', i + 1);
      continue;
    }
    // a later `AIza` of the same run shares its end
    if (i >= runEndAt) runEndAt = runEnd(text, i + 4, RUN.base64url);
    const left = runEndAt - i - 4;
    if (left === 35) {
      out.push(i, runEndAt);
      i = text.indexOf('AIza', runEndAt);
    } else i = text.indexOf('AIza', left > 35 ? Math.max(i + 1, runEndAt - 39) : runEndAt);
  }
};

/**
 * JSON Web Tokens: `eyJ` where a token starts (`startsToken`), then three base64url segments of 8 or more characters joined
 * by dots. A segment runs to the end of its base64url run, so every `eyJ` of one run shares the run's
 * answer: a run that fails is skipped whole. With `openEnd`, a token whose segments reach the end counts.
 */
const webToken: SecretRule = (text, out, openEnd) => {
  const n = text.length;
  for (let i = text.indexOf('eyJ'); i >= 0; ) {
    if (!startsToken(text, i)) {
      i = text.indexOf('eyJ', i + 1);
      continue;
    }
    const e1 = runEnd(text, i, RUN.base64url);
    let end = -1;
    if (openEnd && e1 === n) end = n;
    else if (e1 - i >= 11 && text.charCodeAt(e1) === 0x2e) {
      const e2 = runEnd(text, e1 + 1, RUN.base64url);
      if (openEnd && e2 === n) end = n;
      else if (e2 - e1 - 1 >= 8 && text.charCodeAt(e2) === 0x2e) {
        const e3 = runEnd(text, e2 + 1, RUN.base64url);
        if (e3 - e2 - 1 >= 8 || (openEnd && e3 === n)) end = e3;
      }
    }
    if (end >= 0) out.push(i, end);
    // a later `eyJ` of the same run has less room before the same dot: it fails too
    i = text.indexOf('eyJ', end >= 0 ? end : e1);
  }
};

/** The rules for secrets known by their shape. */
export const TOKEN_RULES: readonly SecretRule[] = [privateKeyBlock, prefixedKey, googleKey, webToken, awsSecretKey];
