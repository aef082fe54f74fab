/**
 * Recognises outcomes that say the work is still under way ("pending", "in progress", "queued", "running"):
 * a call repeated with such an answer is waiting on the world (polling), so identical answers are not, by
 * themselves, evidence that the agent is stuck. Only short outcomes are read (a status, not a log or a
 * listing that happens to contain the word).
 */
import { withoutColour } from './colour-codes.js';

/** Longest outcome text read, in characters; longer outcomes never say "still waiting". */
export const WAITING_LOOK = 300;

/** Words of a status still under way (matched as whole words, case-insensitively). */
export const WAITING_WORDS: readonly string[] = Object.freeze([
  'pending', 'in progress', 'in_progress', 'in-progress', 'queued', 'processing', 'running', 'waiting',
  'not ready', 'not yet ready', 'scheduled', 'starting', 'provisioning', 'initializing', 'initialising',
]);

// a whole word: not part of a name such as `dependency-pending.txt` or `ci/running`
const PATTERN = new RegExp(`(?:^|[^a-z0-9_./-])(?:${WAITING_WORDS.map((w) => w.replace(/[-_ ]/g, '[-_ ]')).join('|')})(?![a-z0-9_-]|[./][a-z0-9])`, 'i');

/**
 * Whether a call's outcome (a result as given: text, or a small JSON value) says the work is still under way.
 * A status in colour (`\x1b[1;33mWaiting for tests to start...\x1b[0m`) is read without its codes: the code's
 * last letter glued to the word hid it.
 */
export function saysStillWaiting(result: unknown): boolean {
  let text: string;
  if (typeof result === 'string') text = result;
  else if (typeof result === 'object' && result !== null) {
    try {
      text = JSON.stringify(result) ?? '';
    } catch {
      return false;
    }
  } else return false;
  if (text.length > WAITING_LOOK) return false;
  return PATTERN.test(withoutColour(text));
}

/**
 * The line Codex's unified exec puts first in the answer of a command that has not ended (its header's
 * chunk id, wall time and token count left out by the readers: src/formats/codex-exec-header.ts).
 */
const PROCESS_RUNNING = /^Process running with session ID \d+\n/;

/**
 * Whether a result's head (its first characters) says the process it answers for is still running: the
 * tool's own line before the output, so read whatever the output's length (a long build log polled is still
 * a wait, where saysStillWaiting reads only short outcomes).
 */
export function saysProcessRunning(head: string): boolean {
  return head.charCodeAt(0) === 0x50 && PROCESS_RUNNING.test(head);
}
