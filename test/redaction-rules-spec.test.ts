/**
 * The hand-written secret rules find what plain regular expressions of the same shapes find (the
 * expressions are the specification; on long runs they cost the square of the run, or overflow their
 * stack, which is why the rules are written by hand). Short random texts made of the shapes' parts
 * (hostile7's prefixes among them: a random `SK` before the 32-hex part is a key to the rule).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SecretRule } from '../src/text/secret-scan.js';
import { TOKEN_RULES } from '../src/text/secret-tokens.js';
import { KEY_ID_NEAR, looksLikeKey, looksRandom, secretWordBefore } from '../src/text/secret-aws.js';
import { VALUE_RULES } from '../src/text/secret-values.js';

const [privateKeyBlock, prefixedKey, googleKey, webToken, awsSecretKey] = TOKEN_RULES as [SecretRule, SecretRule, SecretRule, SecretRule, SecretRule];
const [authScheme, urlPassword] = VALUE_RULES as [SecretRule, SecretRule];

/**
 * Spans of every match (or of its group `secret`, when the expression has one) of a global expression
 * (with the `d` flag when it has the group), kept when `keep` says so.
 */
function specSpans(re: RegExp, text: string, keep: (m: RegExpExecArray, text: string) => boolean = () => true): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (!keep(m, text)) continue;
    const group = m.indices?.groups?.['secret'];
    if (group === undefined) out.push(m.index, m.index + m[0].length);
    else out.push(group[0], group[1]);
  }
  return out;
}

/** Where a token may start: the text's start, after anything but a letter, or after an escape or `%3D`. */
const TOKEN_START = String.raw`(?:(?<![A-Za-z])|(?<=\\[A-Za-z]|%[0-9A-Fa-f]{2}|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}))`;
/** An escape that begins just before a run of base64 (taken whole, as the rule takes the first that fits). */
const ESCAPE = String.raw`(?:(?<=\\)(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|[A-Za-z])|(?<=%)[0-9A-Fa-f]{2})`;

/** An auth scheme's credential counts with a digit, `+`, `/` or `=`, or after `Authorization:` (any case, quotes around). */
function authCredential(m: RegExpExecArray, text: string): boolean {
  return /[0-9+/=]/.test(m.groups?.['secret'] as string) || /authorization[ \t"'\\]{0,8}[:=][ \t"'\\]{0,8}$/i.test(text.slice(0, m.index));
}

/** The AWS rule's judgement of the 40 characters of `m`'s group: like a key, and in context or random. */
function awsKey(m: RegExpExecArray, text: string): boolean {
  const [k, e] = m.indices?.groups?.['secret'] as [number, number];
  if (!looksLikeKey(text, k)) return false;
  const ids = [...text.matchAll(/A[KS]IA[0-9A-Z]{16}/g)].map((x) => x.index);
  const idNear = ids.some((i) => i + 20 >= k - KEY_ID_NEAR && i <= e + KEY_ID_NEAR);
  return secretWordBefore(text, k) || idNear || looksRandom(text, k);
}

const SPECS: readonly [string, SecretRule, RegExp, ((m: RegExpExecArray, text: string) => boolean)?][] = [
  ['private key blocks', privateKeyBlock, /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g],
  [
    'prefixed keys',
    prefixedKey,
    // every prefix but the webhook URLs' (whose span starts after the prefix; the corpus tests hold them)
    new RegExp(
      `${TOKEN_START}(?:[spr]k-[A-Za-z0-9_-]{16,}|[spr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=_-]{24,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\\w{20,}` +
        `|xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])|GOCSPX-[A-Za-z0-9_-]{20,}|ya29\\.[A-Za-z0-9._-]{20,}` +
        `|hf_[A-Za-z0-9]{30,}|gl(?:pat|rt|dt|ptt)-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{30,}|(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{30,}` +
        `|(?:do[opr]_v1_|shp(?:at|ss|ca|pa)_|sbp_)[A-Za-z0-9]{32,}|sntrys_[A-Za-z0-9+/=_-]{32,}|ntn_[A-Za-z0-9]{30,}|ATATT[A-Za-z0-9_-]{40,}|hvs\\.[A-Za-z0-9_-]{24,}` +
        `|dp\\.(?:pt|st|sa)\\.[A-Za-z0-9]{30,}|PMAK-[A-Za-z0-9-]{40,}|dapi[0-9a-f]{32}(?![0-9A-Za-z])|AGE-SECRET-KEY-1[A-Za-z0-9]{40,}` +
        `|SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,}` +
        // hostile7's prefixes
        `|(?<!-)key-[0-9a-f]{32}(?![0-9A-Za-z])|SK[0-9a-f]{32}(?![0-9A-Za-z])|AC[0-9a-f]{32}:[0-9a-f]{32}(?![0-9A-Za-z])|lsv2_(?:pt|sk)_\\w{32,}` +
        `|tvly-[A-Za-z0-9-]{24,}|pcsk_\\w{40,}|lin_api_[A-Za-z0-9]{32,}|HRKU-[A-Za-z0-9_-]{30,}|tskey-[A-Za-z0-9-]{24,}|gl(?:c|sa)_[A-Za-z0-9_-]{32,}` +
        `|NRAK-[A-Z0-9]{27}(?![0-9A-Za-z])|pscale_(?:tkn|pw)_[A-Za-z0-9_-]{32,}|figd_[A-Za-z0-9_-]{32,}|sk\\.eyJ[A-Za-z0-9._-]{40,})`,
      'g',
    ),
  ],
  ['Google keys', googleKey, new RegExp(`${TOKEN_START}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g')],
  ['JSON Web Tokens', webToken, new RegExp(`${TOKEN_START}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, 'g')],
  [
    'AWS secret keys',
    awsSecretKey,
    new RegExp(`(?<![A-Za-z0-9/+])(?:(?=(${ESCAPE}))\\1|(?!${ESCAPE}))(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'dg'),
    awsKey,
  ],
  ['auth schemes', authScheme, /\b(?:bearer|basic|token)\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})/dgi, authCredential],
  ['URL passwords', urlPassword, /(?<=[A-Za-z0-9+.-]):\/\/[^:\s/@]*:(?<secret>[^@\s/]+)@/dg],
];

const part = fc.oneof(
  fc.constantFrom('-----BEGIN ', 'RSA ', 'PRIVATE KEY-----', '-----END ', 'sk-', 'sk_live_', 'rk_test_', 'ghp_', 'github_pat_', 'xoxb-', 'AKIA', 'ASIA', 'AIza', 'hf_', 'glpat-', 'npm_', 'SG.', 'eyJ', 'Bearer', 'token', 'basic', '://', 'x://', 'u:', '@', '.', '-', '_', '/', '+', '=', ' ', '\n', 'A', 'a', '9'),
  // the prefixes of 2026 (hostile6)
  fc.constantFrom('whsec_', 'xoxe-', 'xapp-', 'GOCSPX-', 'ya29.', 'glrt-', 'gldt-', 'glptt-', 'pypi-AgEIcHlwaS5vcmc', 'gsk_', 'xai-', 'pplx-', 'r8_', 'dop_v1_', 'shpat_', 'sbp_', 'sntrys_', 'ntn_', 'ATATT', 'hvs.', 'dp.pt.', 'PMAK-', 'dapi', 'AGE-SECRET-KEY-1', '0123456789abcdef0123456789abcdef'),
  // hostile7's prefixes, and what their bodies are made of
  fc.constantFrom('key-', '-key-', 'SK', 'AC', ':', 'lsv2_pt_', 'tvly-', 'pcsk_', 'lin_api_', 'HRKU-', 'tskey-', 'glc_', 'glsa_', 'NRAK-', 'pscale_tkn_', 'figd_', 'sk.eyJ', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0'),
  fc.constantFrom('SK0123456789abcdef0123456789abcdef', 'AC0123456789abcdef0123456789abcdef:0123456789abcdef0123456789abcdef', 'key-0123456789abcdef0123456789abcdef', 'NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  fc.stringMatching(/^[A-Z0-9]{14,18}$/),
  fc.constantFrom(...[8, 16, 20, 30, 35, 39, 40].map((n) => 'aB3/'.repeat(12).slice(0, n))),
  // whole shapes and their parts, so that every rule finds something often
  fc.constantFrom(
    '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----',
    'eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIx', '.eyJzdWIiOiIxMjM0', '.SflKxwRJSMeK', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx.SflKxwRJSMeK',
    'postgres://admin:s3cr3t@db', 'x://u:p', 'x://u:pass@', '@h', 'https://', 'user:', 'pa:ss', 'redis://:', 'x://:p@',
    'Authorization: ', '"authorization": "', 'Authorization=', 'basic functionality', 'Token generated', 'Basic dXNlcjpwYXNz',
    'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW-', 'Sy-9tSrke72PouQMnMX-a7eZSW0jkFMBW', 'Bearer abcdefgh12', 'token  a.b~c+d/e=f', 'Basic dXNlcjpw',
  ),
  // where a token starts: escapes, percent-encoded bytes, letters and digits before a prefix
  fc.constantFrom('\\', '\\n', '\\t', '%3D', '%2f', '%', '\\x1b', '\\x', '\\u001b', '\\u00', 'x', 'u', 'n', '1'),
  // AWS keys and what is not one: random runs, paths and names of 40, their context
  fc.stringMatching(/^[A-Za-z0-9/+]{38,42}$/),
  fc.constantFrom('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', '/Users/jdoe/Projects/github/dotfiles/zsh', 'AbstractSingletonProxyFactoryBeanImpl2xy', 'dGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVy', 'secret ', 'AWS ', 'AKIAIOSFODNN7EXAMPLE ', ' '.repeat(90)),
);

describe('hand-written secret rules', () => {
  for (const [name, rule, spec, keep] of SPECS) {
    it(`should find the ${name} their expression finds`, () => {
      fc.assert(
        fc.property(fc.array(part, { maxLength: 14 }), (parts) => {
          const text = parts.join('');
          const found: number[] = [];
          rule(text, found, false);
          expect(found).toEqual(specSpans(spec, text, keep));
        }),
        { numRuns: 4000 },
      );
    });
  }
});
