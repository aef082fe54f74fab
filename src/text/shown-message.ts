/**
 * A message as loopwatch prints it on stderr: usage errors, internal errors, and the lines of `serve`
 * (its NATS worker's warnings too) that quote what a client sent (a session id, a problem naming it). Cut first (never inside a
 * secret), then redacted, then its control characters written as escapes, so no secret and no terminal
 * control sequence reaches the user's terminal, whatever the input held.
 */
import { redactSecrets } from './redact.js';
import { cutText } from './shown-text.js';
import { terminalSafe } from './terminal-text.js';

/** Characters of an error message printed. */
const MESSAGE_LENGTH = 4096;

/**
 * An error's message as printed: cut (to `max` characters, 4,096 unless told), redacted (a usage error may
 * quote a flag's value: `--nats nats://user:password@host`), its control characters as escapes (it may
 * quote input: a session id).
 */
export function shownMessage(message: string, max = MESSAGE_LENGTH): string {
  return terminalSafe(redactSecrets(cutText(message, max)));
}
