/**
 * Recognises a failure whose whole text is the harness saying the command's process was killed by a signal:
 * the program itself said nothing. Codex CLI writes it two ways:
 *
 * ```
 *   0.4x   failed in sandbox: sandbox error: command was killed by a signal     (the reader keeps what follows
 *                                                                              `failed in sandbox: `)
 *   0.6x   execution error: Sandbox(Signal(9))                                  (its error's Debug form)
 * ```
 *
 * Neither names the signal's cause: a sandbox that kills a program it forbids (every `pytest` killed in the
 * macOS sandbox, whatever its args, while `python3 -m pytest` runs), a program that crashed, a `pkill -f X` whose
 * pattern matched its own shell's command line. It says how the process ended, as an exit status alone does,
 * and no error of the command's own: different commands killed so are no repetition of one error (failure-kinds.ts
 * reads such a failure as silent: the evidence screen's notTheAgentsWall and fewOwnFailures). The same command
 * killed again at once, or again and again, is still weighed: by the dead end (a silent failure retried at once
 * is kept) and by the detectors of repeated calls. Reads the first {@link KILL_LOOK} characters only, one line.
 */

/** Characters of a text read: the longest form with the white space around it. */
export const KILL_LOOK = 120;

/** The whole text: either form, an `error:` label and the reader's `failed in sandbox: ` before it allowed. */
const KILLED_ONLY = /^[ \t\r\n]{0,8}(?:error:[ \t]{0,4})?(?:failed in sandbox:[ \t\r\n]{0,4})?(?:sandbox error: command was killed by a signal|execution error: Sandbox\(Signal\(\d{1,3}\)\))\.?[ \t\r\n]{0,8}$/i;

/** Whether a text says nothing but that the command's process was killed by a signal (the harness's words alone). */
export function saysOnlyKilled(text: string): boolean {
  return text.length <= KILL_LOOK && KILLED_ONLY.test(text);
}
