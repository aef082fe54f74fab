/**
 * Recognises a shell command that only waits (`sleep 30`, PowerShell's `Start-Sleep -s 30`, Windows'
 * `timeout /t 30`): the agent pacing a poll with a call of its own, as `sleep 30 && gh run list` does in
 * one. The poll that follows such a wait is paced by the agent, however it is split into calls.
 */

/** A command that sleeps for a while and does nothing else (a trailing `;` or comment allowed). */
const ONLY_WAITS = /^\s*(?:sleep\s+\d+(?:\.\d+)?[smh]?|start-sleep(?:\s+-(?:s|seconds|milliseconds|ms))?\s+\d+(?:\.\d+)?|timeout(?:\.exe)?\s+(?:\/t\s+)?\d+(?:\s+\/nobreak)?(?:\s*>\s*nul)?)\s*;?\s*(?:#.*)?$/i;

/**
 * Longest command that may only wait, in characters; a longer one is not tested (ONLY_WAITS takes time
 * quadratic in a run of white space: 0.2 ms at this length).
 */
export const WAIT_LOOK = 200;

/** Whether a shell command only waits. */
export function onlyWaits(command: string): boolean {
  return command.length <= WAIT_LOOK && ONLY_WAITS.test(command);
}
