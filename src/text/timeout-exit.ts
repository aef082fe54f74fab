/**
 * A command stopped at its time limit, said only by its exit status: 124, the status coreutils' `timeout N`
 * exits with when it killed the command, and the one Codex CLI answers a command it killed at its
 * `timeout_ms` (10 s when none is given) with. Codex from 0.7x also writes `command timed out after N
 * milliseconds` (read as a timeout by infra-failure.ts's words); 0.6x writes nothing, and a command run
 * under `timeout N` by the agent says nothing either: `Exit code 124` then its output (Claude Code's Bash).
 * The time limit is the environment's (a build cut at 120 s and run again goes on where it stopped), not the
 * agent repeating a failed idea. Read on the text's first line only, where each harness puts the status:
 * Claude Code's `Exit code 124`, Codex's `Exit code: 124` (kept by codex-output.ts for this status), Zed's ACP
 * adapter's `Exited with code 124.`, a normalised trace's `[exit 124]`.
 */

/** An exit status of 124 as the first line (or head) of an error text. */
const EXIT_124 = /^(?:Exit code:? 124(?!\d)|Exited with code 124\.|\[exit 124\])/;

/** Whether an error text says, on its first line, that the command exited with status 124 (stopped at its time limit). */
export function exitedOnTimeout(text: string): boolean {
  return text.charCodeAt(0) <= 0x5b && EXIT_124.test(text.length > 40 ? text.slice(0, 40) : text);
}
