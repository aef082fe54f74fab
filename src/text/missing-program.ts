/**
 * Recognises a failure that is a shell saying the program the command names is not there: the command
 * never ran. An agent new to a machine probes for its tools (`rg`, then `python`, then `pixi`) and each
 * probe fails so; those are different probes finding nothing, not one wall hit again (the evidence screen
 * treats them as it treats searches that found nothing: see failure-kinds.ts). The same missing program
 * called again and again is still a loop: the detectors of repeated calls see it.
 *
 * What the shells say, whole lines, after a shell's startup lines (shell-noise.ts) and an exit status:
 *
 * ```
 *   bash / sh / dash   /bin/bash: line 1: rg: command not found      sh: 1: rg: not found
 *                      /bin/bash: line 1: ./specify: No such file or directory     (the program's path)
 *   zsh                zsh:1: command not found: pixi                zsh: command not found: pixi
 *   fish               fish: Unknown command: rg
 *   cmd.exe            'rg' is not recognized as an internal or external command,
 *                      operable program or batch file.
 *   PowerShell         rg : The term 'rg' is not recognized as the name of a cmdlet, function, script ...
 *                      (then its "At line:1 char:1", "+ rg ..." and "Check the spelling ..." lines)
 *   uv run             error: Failed to spawn: `ruff`
 *                        Caused by: No such file or directory (os error 2)
 * ```
 *
 * Gemini CLI labels a shell's output `Output: ` on its first line (`Output: /usr/bin/bash: line 2: firebase:
 * command not found`, the exit code in a footer the reader takes off: src/formats/gemini-parts.ts): the label
 * is the CLI's, not the shell's, and is read past (quiet12).
 *
 * Any other line (a program that ran and printed, another error) makes the failure a real one. Reads the
 * first {@link MISSING_LOOK} characters only.
 */
import { type OnlyLinesReading, saysOnly } from './only-lines.js';

/** Characters of an error text read. */
export const MISSING_LOOK = 1024;

/** A line saying the program of the command is not there. */
export const MISSING_PROGRAM_LINES: readonly RegExp[] = Object.freeze([
  // bash, sh, dash: "<shell>: line N: <program>: command not found" (or its path: "No such file or directory")
  /^(?:\S*\/)?(?:ba|da|k)?sh(?:: line \d+|:\s*\d+)?: [^\s:]+: (?:command not found|not found|No such file or directory)$/,
  /^(?:\S*\/)?zsh(?::\d+)?: (?:command not found|no such file or directory): \S+$/i,
  /^fish: Unknown command:? \S+$/,
  /^'[^'\n]+' is not recognized as an internal or external command,?$/,
  /^\S+ ?: The term '[^'\n]+' is not recognized as (?:the|a) name of a cmdlet\b.*$/,
  // uv running a program its environment does not hold (`uv run ruff check .`), with the cause below (COMPANION_LINES)
  /^error: Failed to spawn: `[^`\n]+`$/,
]);

/** Lines that go with a missing program's message, or an exit status alone. */
const COMPANION_LINES: readonly RegExp[] = Object.freeze([
  /^operable program or batch file\.?$/,
  /^(?:function, )?(?:script file, )?(?:or )?(?:(?:operable|executable) )?program\b.*$/,
  /^Check the spelling of the name\b.*$/,
  /^At (?:line:\d+ char:\d+|[^\n]*:\d+ char:\d+)$/,
  /^\+ .*$/,
  // uv's cause of a failed spawn when the program is not there (another cause, "Permission denied", is a real failure)
  /^Caused by: No such file or directory \(os error 2\)$/,
  /^(?:error:?\s*)?\[?(?:exit(?: code| status)?|exited with(?: code)?|process exited with code):?\s*\d+\]?\.?$/i,
]);

/**
 * What every line of MISSING_PROGRAM_LINES holds, in any ASCII case (the zsh line's `i` flag): an error without
 * one of these says no program is missing, and is not split into lines at all. Nearly every error holds none
 * (304 of the traces' 3,645 hold one): over those errors 1,401 -> 380 ns an error.
 */
const MAY_MISS = /not found|no such file or directory|unknown command|not recognized/i;

/** The missing-program lines as a reading of only-lines.ts. */
const PROGRAM_MISSING: OnlyLinesReading = { look: MISSING_LOOK, screen: MAY_MISS, says: MISSING_PROGRAM_LINES, companions: COMPANION_LINES };

/** Whether an error says only that the program its command names is not there (see the module's notes). */
export function saysProgramMissing(error: string): boolean {
  return saysOnly(error, PROGRAM_MISSING);
}
