/**
 * Redacts secret-shaped strings (API keys, bearer tokens, passwords, private keys, credentials in URLs)
 * from text that leaves loopwatch: verdict patterns, messages and published events.
 */

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

const RULES: readonly (readonly [RegExp, string])[] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  [/\b(?:sk|pk|rk)-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${REDACTED}`],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^:\s/@]+:)[^@\s/]+(@)/gi, `$1${REDACTED}$2`],
  [
    /((?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|refresh[_-]?token|token|password|passwd|pwd|access[_-]?key|client[_-]?secret|private[_-]?key)\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&}]{3,})/gi,
    `$1${REDACTED}`,
  ],
];

/**
 * A literal every rule's match contains (case aside): text without any of them cannot hold a secret, and
 * most text that leaves loopwatch has none, so one scan replaces a dozen.
 */
const ANY_TRIGGER = /[spr]k-|gh[pousr]_|github_pat_|xox|akia|asia|aiza|eyj|bearer|basic|token|:\/\/|key|secret|passw|pwd/i;

/** Returns `text` with every secret-shaped substring replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return ANY_TRIGGER.test(text) ? applyRules(text) : text;
}

/** Every rule, without the trigger pre-check (what redactSecrets must equal; exported for its tests). */
export function applyRules(text: string): string {
  let out = text;
  for (const [re, replacement] of RULES) out = out.replace(re, replacement);
  return out;
}
