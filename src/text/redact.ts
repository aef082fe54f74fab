/**
 * Redacts secret-shaped strings (API keys, bearer tokens, passwords, private keys, credentials in URLs)
 * from text that leaves loopwatch: verdict patterns, messages and published events. Every rule is linear in
 * the text's length (`secret-rules.ts`), so redaction is too, whatever the text.
 */
import { SECRET_RULES } from './secret-rules.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * A literal every rule's match contains (case aside): text without any of them cannot hold a secret, and
 * most text that leaves loopwatch has none, so one scan replaces a dozen.
 */
const ANY_TRIGGER = /[spr]k-|gh[pousr]_|github_pat_|xox|akia|asia|aiza|eyj|bearer|basic|token|:\/\/|key|secret|passw|pwd/i;

/** Returns `text` with every secret-shaped substring replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return ANY_TRIGGER.test(text) ? applyRules(text) : text;
}

/**
 * The spans every rule redacts in `text`, sorted and merged (overlapping or touching spans become one), as
 * start, end pairs.
 */
export function secretSpans(text: string): number[] {
  const found: number[] = [];
  for (const rule of SECRET_RULES) rule(text, found);
  if (found.length === 0) return found;
  const order: number[] = [];
  for (let k = 0; k < found.length; k += 2) order.push(k);
  order.sort((a, b) => (found[a] as number) - (found[b] as number) || (found[b + 1] as number) - (found[a + 1] as number));
  const merged: number[] = [];
  for (const k of order) {
    const start = found[k] as number;
    const end = found[k + 1] as number;
    const n = merged.length;
    if (n > 0 && start <= (merged[n - 1] as number)) merged[n - 1] = Math.max(merged[n - 1] as number, end);
    else merged.push(start, end);
  }
  return merged;
}

/** Every rule, without the trigger pre-check (what redactSecrets must equal; exported for its tests). */
export function applyRules(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (let k = 0; k < spans.length; k += 2) {
    out += text.slice(at, spans[k]) + REDACTED;
    at = spans[k + 1] as number;
  }
  return out + text.slice(at);
}
