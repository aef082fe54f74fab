/**
 * Redacts secret-shaped strings (API keys and tokens of known vendors, JSON Web Tokens, AWS secret keys,
 * bearer credentials, the values of secret-named keys, private keys, credentials in URLs) from text that
 * leaves loopwatch: verdict patterns, messages and published events, CLI output. Every rule is linear in
 * the text's length (`secret-scan.ts`), so redaction is too, whatever the text.
 */
import { SECRET_RULES } from './secret-rules.js';
import { REPLACEMENT, splitSecretSpans } from './secret-split.js';
import { mayHoldSecret as triggered } from './secret-trigger.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Whether a text may hold a secret: one pass over it for the triggers and base64 runs the rules need
 * (secret-trigger.ts), and over it without its U+FFFD when it holds some (secret-split.ts).
 */
export function mayHoldSecret(text: string): boolean {
  return triggered(text) || (text.includes(REPLACEMENT) && triggered(text.split(REPLACEMENT).join('')));
}

/** Returns `text` with every secret-shaped substring replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return mayHoldSecret(text) ? applyRules(text) : text;
}

/**
 * The spans every rule redacts in `text`, and in it without its U+FFFD (secret-split.ts), sorted and
 * merged (overlapping or touching spans become one), as start, end pairs. `openEnd`: `text` is the
 * beginning of a longer text (see `SecretRule`).
 */
export function secretSpans(text: string, openEnd = false): number[] {
  const found: number[] = [];
  for (const rule of SECRET_RULES) rule(text, found, openEnd);
  splitSecretSpans(text, found, (stripped) => secretSpans(stripped, openEnd));
  if (found.length === 0) return found;
  const order = byStart(found, text.length);
  const merged: number[] = [];
  let last = -1;
  for (let i = 0; i < order.length; i++) {
    const k = order[i] as number;
    const start = found[k] as number;
    const end = found[k + 1] as number;
    if (last >= 0 && start <= (merged[last] as number)) {
      if (end > (merged[last] as number)) merged[last] = end;
    } else {
      merged.push(start, end);
      last = merged.length - 1;
    }
  }
  return merged;
}

/**
 * The indices of `spans`' starts (start, end pairs, each start at most `length`) in the order of their
 * starts. Merging needs no other order: spans with one start merge into the longest of them whatever their
 * order. The keys `start * pairs + pair` are sorted as numbers (exact below 2^53), without a comparator.
 */
function byStart(spans: readonly number[], length: number): Int32Array {
  const pairs = spans.length / 2;
  const order = new Int32Array(pairs);
  let sorted = true;
  for (let p = 0; p < pairs; p++) {
    order[p] = 2 * p;
    if (p > 0 && (spans[2 * p] as number) < (spans[2 * p - 2] as number)) sorted = false;
  }
  if (sorted) return order;
  if ((length + 1) * pairs >= Number.MAX_SAFE_INTEGER) return order.sort((a, b) => (spans[a] as number) - (spans[b] as number));
  const keys = new Float64Array(pairs);
  for (let p = 0; p < pairs; p++) keys[p] = (spans[2 * p] as number) * pairs + p;
  keys.sort();
  for (let p = 0; p < pairs; p++) {
    const key = keys[p] as number;
    order[p] = 2 * (key - Math.floor(key / pairs) * pairs);
  }
  return order;
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
