/**
 * The header Codex CLI's unified exec (`exec_command` / `write_stdin`, Codex 0.4x+) puts before a
 * command's output, and which of its lines are compared: the one definition, read by the rollout reader
 * (codex.ts) and the hook (src/hooks/codex.ts) alike through codex-output.ts (the pattern of
 * volatile-output.ts, for Codex's exec outputs).
 *
 * ```
 * Chunk ID: 3f2a1c                              volatile: new per answer
 * Wall time: 1.0021 seconds                     volatile: timing
 * Process running with session ID 48213         the process has not ended: kept (see below)
 *   or Process exited with code 1               the outcome: 0 a known success, else a known failure
 * Original token count: 17                      the output's size before truncation: left out
 * Output:
 * <the output>
 * ```
 *
 * An exited process's result is the output alone (codex-output.ts). A running one's (a call answered
 * before its command ended, or a poll of it) has no outcome yet (`unknown`); its result is its
 * `Process running with session ID N` line, `Output:` and the output, so two polls that got the same
 * output compare equal whatever their chunk id and wall time, and never equal to the same output of a
 * finished command. The session id is kept: it names the process, the same in every poll of it (and in
 * `write_stdin`'s args), new for each run. Two runs of one command (`yarn build`, an edit between them)
 * both answered while still running print the same first lines whatever their outcome; masking the id
 * made them equal, a state repeat every edit-build cycle (holdout3: 3 interactive sessions broken).
 */

/** Up to four header lines, then the line saying the process is still running. */
const RUNNING = /^(?:[^\n]*\n){0,4}Process running with session ID (\d+)\n/;
const BODY = '\nOutput:\n';

/** What a still-running process `session`'s result starts with, in place of its header. */
export const runningHead = (session: number | string): string => `Process running with session ID ${session}\nOutput:\n`;

/**
 * The result of a unified exec answer `s` (its command echo set aside) whose process is still running:
 * its {@link runningHead} then the output after `Output:`; undefined when `head` (the first characters
 * of `s`) has no such header.
 */
export function runningResult(s: string, head: string): string | undefined {
  const m = RUNNING.exec(head);
  if (m === null) return undefined;
  const at = head.indexOf(BODY, m[0].length - 1);
  return at === -1 ? undefined : runningHead(m[1]!) + s.slice(at + BODY.length);
}
