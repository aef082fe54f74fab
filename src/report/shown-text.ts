/**
 * Text from the input as the reports show it: cut to a maximum length first (so the redaction's regexes
 * only ever see bounded text; never inside a secret, see `cutText`), then with secret-shaped substrings
 * replaced by `[REDACTED]`, and control characters, bidirectional controls and line separators written
 * as escapes (`\x1b`, `\u202e`: `terminal-text.ts`), so no id can reorder or hide what the page shows.
 */
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';
import { terminalSafe } from '../text/terminal-text.js';

/** `s` cut to `max` characters (with `…`), then redacted, its controls as escapes. */
export function shown(s: string, max: number): string {
  return terminalSafe(redactSecrets(cutText(s, max)));
}
