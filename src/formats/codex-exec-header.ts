/**
 * The header Codex CLI's unified exec (`exec_command` / `write_stdin`, Codex 0.4x+) puts before a
 * command's output, and which of its lines are compared: the one definition, read by the rollout reader
 * (codex.ts) and the hook (src/hooks/codex.ts) alike through codex-output.ts (the pattern of
 * volatile-output.ts, for Codex's exec outputs).
 *
 * ```
 * Chunk ID: 3f2a1c                              volatile: new per answer
 * Wall time: 1.0021 seconds                     volatile: timing
 * Process running with session ID 48213         the process has not ended (its id: volatile)
 *   or Process exited with code 1               the outcome: 0 a known success, else a known failure
 * Original token count: 17                      the output's size before truncation: left out
 * Output:
 * <the output>
 * ```
 *
 * An exited process's result is the output alone (codex-output.ts). A running one's (a call answered
 * before its command ended, or a poll of it) has no outcome yet (`unknown`); its result is
 * {@link RUNNING_HEAD} then the output, so two polls that got the same output compare equal whatever
 * their chunk id, wall time and session id, and never equal to the same output of a finished command.
 */

/** Up to four header lines, then the line saying the process is still running. */
const RUNNING = /^(?:[^\n]*\n){0,4}Process running with session ID \d+\n/;
const BODY = '\nOutput:\n';

/** What a still-running process's result starts with, in place of its volatile header. */
export const RUNNING_HEAD = 'Process running\nOutput:\n';

/**
 * The result of a unified exec answer `s` (its command echo set aside) whose process is still running:
 * {@link RUNNING_HEAD} then the output after `Output:`; undefined when `head` (the first characters of
 * `s`) has no such header.
 */
export function runningResult(s: string, head: string): string | undefined {
  if (RUNNING.exec(head) === null) return undefined;
  const at = head.indexOf(BODY);
  return at === -1 ? undefined : RUNNING_HEAD + s.slice(at + BODY.length);
}
