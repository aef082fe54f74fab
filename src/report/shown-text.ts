/**
 * Text from the input as the reports show it: cut to a maximum length first (so the redaction's regexes
 * only ever see bounded text), then with secret-shaped substrings replaced by `[REDACTED]`.
 */
import { redactSecrets } from '../text/redact.js';

/** `s` cut to `max` characters (with `…`), then redacted. */
export function shown(s: string, max: number): string {
  return redactSecrets(s.length > max ? `${s.slice(0, max - 1)}…` : s);
}
