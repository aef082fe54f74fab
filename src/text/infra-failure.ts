/**
 * Recognises infrastructure failures: rate limits, HTTP 429 and 5xx, timeouts, connection resets, and a
 * command stopped at its time limit said only by its exit status (124: timeout-exit.ts), and a
 * harness's sandbox that could not start (Codex CLI's Linux sandbox without the capabilities it needs or
 * panicking, its Windows sandbox failing to create the process, its binary replaced under a running session;
 * Claude Code's Bash tool unable to make its own temporary folder):
 * every command fails alike there, whatever the agent runs, until a person mends the setup.
 * They say nothing about the agent's behaviour, so they never count toward a dead end and a call that
 * failed this way is never evidence of no progress.
 */

import { exitedOnTimeout } from './timeout-exit.js';

const WORDS =
  /\b(?:rate[ _-]?limit(?:ed|s)?|too many requests|quota exceeded|overloaded|temporarily unavailable|service unavailable|bad gateway|gateway time-?out|internal server error|timed? ?out|timeout|ETIMEDOUT|ESOCKETTIMEDOUT|ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|EAI_AGAIN|socket hang up|connection (?:reset|refused|aborted|closed)|network (?:error|is unreachable))\b/i;
const STATUS = /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?: code)?|error(?: code)?|code)\s*[:=#]?\s*(?:429|5\d\d)\b|\b(?:429|5\d\d)\s+(?:too many requests|internal server error|bad gateway|service unavailable|gateway time-?out)/i;

/** A sandbox that could not start (Codex CLI's words), not the command run in it. */
const SANDBOX = /\bcannot set (?:privileged )?capabilities: Operation not permitted\b|\bpanicked at linux-sandbox\/|\bwindows sandbox: \w+ failed\b|\bFailed to execvp \S*codex\S* \(deleted\)/;

/**
 * Claude Code's shell that could not start: its Bash tool makes a folder of its own (`/tmp/claude-<n>`) before
 * each command, and where it may not (a Termux or locked-down /tmp) every command fails with Node's words for
 * that folder, the whole error, whatever the agent runs: `EACCES: permission denied, mkdir '/tmp/claude-10603'`.
 * A command that ran and failed so speaks through its program (`mkdir: cannot create directory ...`), never
 * Node's `EACCES: ..., mkdir '...'` alone.
 */
const HARNESS_TMP = /^\s*(?:error:\s*)?EACCES: permission denied, mkdir '[^'\n]*\/claude-[\w-]+'\s*$/i;

/** Characters of an error text read. */
export const INFRA_LOOK = 1000;
const LOOK = INFRA_LOOK;

/**
 * The words of an error that quotes the agent's own input after them: a patch's lines that were not found
 * (Codex's `apply_patch`, either form: `Failed to find expected lines in <path>:` then the lines; `invalid
 * hunk at line N, <the line>`), an edit's old text (Claude Code's `String to replace not found in file.` then
 * `String: <old_string>`; Gemini CLI's `0 occurrences found for old_string (<old_string>)`). What follows is
 * the agent's text, not the error's message: a patch to a line holding `timeout` failed on the patch.
 */
const QUOTES = /Failed to find expected lines in [^\n]*|invalid hunk at line \d+|String to replace not found in file\.|\d+ occurrences? found for old_string/;

/** An error text as far as its own message goes: up to a quote of the agent's input ({@link QUOTES}), if any. */
function ownMessage(text: string): string {
  const m = QUOTES.exec(text);
  return m === null ? text : text.slice(0, m.index + m[0].length);
}

/** Whether an error text is an infrastructure failure rather than the agent's doing (read in its own message: {@link ownMessage}). */
export function isInfraFailure(text: string): boolean {
  const t = ownMessage(text.length > LOOK ? text.slice(0, LOOK) : text);
  return WORDS.test(t) || STATUS.test(t) || SANDBOX.test(t) || HARNESS_TMP.test(t) || exitedOnTimeout(t);
}
