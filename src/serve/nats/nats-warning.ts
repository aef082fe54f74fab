/**
 * The NATS worker's warnings (process warnings of type `LoopwatchNatsWarning`, printed on stderr by Node):
 * they quote error messages and subjects that may hold what a publisher sent (a session id, a reply
 * subject), so each is cut, redacted and has its control characters written as escapes (shownMessage).
 */
import { shownMessage } from '../../text/shown-message.js';

/** The type of every warning the NATS worker emits. */
export const NATS_WARNING = 'LoopwatchNatsWarning';

/** Emits `text` (prefixed `loopwatch serve --nats: `) as a process warning, cut, redacted and escaped. */
export function warnNats(text: string): void {
  process.emitWarning(shownMessage(`loopwatch serve --nats: ${text}`), NATS_WARNING);
}
