/**
 * The hand-written secret rules find what plain regular expressions of the same shapes find (the
 * expressions are the specification; on long runs they cost the square of the run, or overflow their
 * stack, which is why the rules are written by hand). Short random texts made of the shapes' parts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SecretRule } from '../src/text/secret-scan.js';
import { TOKEN_RULES } from '../src/text/secret-tokens.js';
import { VALUE_RULES } from '../src/text/secret-values.js';

const [privateKeyBlock, prefixedKey, googleKey, webToken, awsSecretKey] = TOKEN_RULES as [SecretRule, SecretRule, SecretRule, SecretRule, SecretRule];
const [authScheme, urlPassword] = VALUE_RULES as [SecretRule, SecretRule];

/** Spans of every match (or of its group 1) of a global expression, kept when `keep` says so. */
function specSpans(re: RegExp, text: string, keep: (m: RegExpExecArray) => boolean = () => true): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (!keep(m)) continue;
    if (m[1] === undefined) out.push(m.index, m.index + m[0].length);
    else {
      const at = m.index + m[0].lastIndexOf(m[1]);
      out.push(at, at + m[1].length);
    }
  }
  return out;
}

const mixed = (m: RegExpExecArray): boolean => /[A-Z]/.test(m[0]) && /[a-z]/.test(m[0]) && /[0-9/+]/.test(m[0]);

const SPECS: readonly [string, SecretRule, RegExp, ((m: RegExpExecArray) => boolean)?][] = [
  ['private key blocks', privateKeyBlock, /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g],
  [
    'prefixed keys',
    prefixedKey,
    /\b(?:[spr]k-[A-Za-z0-9_-]{16,}|[spr]k_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}\b|hf_[A-Za-z0-9]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,})/g,
  ],
  ['Google keys', googleKey, /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g],
  ['JSON Web Tokens', webToken, /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
  ['AWS secret keys', awsSecretKey, /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g, mixed],
  ['auth schemes', authScheme, /\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{8,})/gi],
  ['URL passwords', urlPassword, /(?<=[A-Za-z0-9+.-]):\/\/[^:\s/@]+:([^@\s/]+)@/g],
];

const part = fc.oneof(
  fc.constantFrom('-----BEGIN ', 'RSA ', 'PRIVATE KEY-----', '-----END ', 'sk-', 'sk_live_', 'rk_test_', 'ghp_', 'github_pat_', 'xoxb-', 'AKIA', 'ASIA', 'AIza', 'hf_', 'glpat-', 'npm_', 'SG.', 'eyJ', 'Bearer', 'token', 'basic', '://', 'x://', 'u:', '@', '.', '-', '_', '/', '+', '=', ' ', '\n', 'A', 'a', '9'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  fc.stringMatching(/^[A-Z0-9]{14,18}$/),
  fc.constantFrom(...[8, 16, 20, 30, 35, 39, 40].map((n) => 'aB3/'.repeat(12).slice(0, n))),
  // whole shapes and their parts, so that every rule finds something often
  fc.constantFrom(
    '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----',
    'eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIx', '.eyJzdWIiOiIxMjM0', '.SflKxwRJSMeK', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx.SflKxwRJSMeK',
    'postgres://admin:s3cr3t@db', 'x://u:p', 'x://u:pass@', '@h', 'https://', 'user:', 'pa:ss',
    'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW-', 'Sy-9tSrke72PouQMnMX-a7eZSW0jkFMBW', 'Bearer abcdefgh12', 'token  a.b~c+d/e=f', 'Basic dXNlcjpw',
  ),
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
