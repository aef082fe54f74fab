/**
 * A read of a file that is not there: `cat x`, `sed -n '1,200p' x`, `head x`, `nl x` (a command that only
 * prints files: file-read.ts's printsFiles) failing with one "<printer>: x: No such file or directory" line
 * (GNU sed: "sed: can't read x: No such file or directory") for each missing path. A probe that found nothing
 * (the agent guessing where a file lives while it explores: `sed -n '1,260p' AGENTS.md`, then `README.md`):
 * the missing path is an answer, as a glob that matched nothing or an `ls` of a missing path is
 * (failure-kinds.ts, partial-listing.ts), not the agent's wall. Different such reads are no dead end; the
 * same read failing again is left to the detectors of repeated calls. A printer saying anything else
 * (permission denied, is a directory) is a real failure. Reads at most {@link MISSING_LOOK} characters.
 *
 * On Windows the same reads (windows-file-read.ts's `Get-Content`, `gc`, `type`) say it PowerShell's way,
 * "Cannot find path '<path>' because it does not exist." (windows-missing-path.ts): read alike.
 */
import { EXIT_STATUS_LINE } from './exit-status-line.js';
import { printsFiles } from './file-read.js';
import { withoutShellNoise } from './shell-noise.js';
import { printsFilesOnWindows } from './windows-file-read.js';
import { saysPathsMissingOnWindows } from './windows-missing-path.js';

/** Characters of a failure's text read at most. */
export const MISSING_LOOK = 2048;

/** A printer's line saying a path is not there. */
const NOT_THERE = /^(?:cat|head|nl|sed): (?:can't read )?[^\n]*: No such file or directory\r?$/;

/**
 * Whether a failed shell `command` only prints files and its failure `text` says only that some of them are
 * not there (at least one such line; blank lines, an exit status and shell start-up noise aside), on a POSIX
 * shell or the Windows way.
 */
export function readMissingFile(command: string, text: string): boolean {
  if (!printsFiles(command)) return printsFilesOnWindows(command.trim()) && saysPathsMissingOnWindows(text);
  const t = withoutShellNoise(text.length > MISSING_LOOK ? text.slice(0, MISSING_LOOK) : text);
  let missing = 0;
  for (const line of t.split('\n')) {
    if (NOT_THERE.test(line)) missing++;
    else if (line.trim() !== '' && !EXIT_STATUS_LINE.test(line)) return false;
  }
  return missing > 0;
}
