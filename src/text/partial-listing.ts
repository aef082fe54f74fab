/**
 * An `ls` of several paths of which some are not there: `ls` lists the ones it finds and exits 2, one
 * "ls: cannot access 'x': No such file or directory" line for each missing one (Claude Code gives it as
 * "Exit code 2" then the lines, in any order). A probe that found part of what it looked for: the missing
 * paths are an answer, as a glob that matched nothing is (failure-kinds.ts), not the agent's wall. An `ls`
 * saying anything else on its error lines (permission denied, an invalid option) is a real failure, and so
 * is another program's "No such file or directory"; so are `ls` commands chained (`ls a; ls -d b`, `cd x && ls
 * a b`), each an `ls` or a `cd`, alike. Reads at most {@link LISTING_LOOK} characters.
 */
import { commandProgram } from './command-program.js';
import { withoutShellNoise } from './shell-noise.js';

/** Characters of a failure's text read at most. */
export const LISTING_LOOK = 2048;

/** An `ls` line saying a path is not there (GNU and BSD wordings). */
const NOT_THERE = /^ls: (?:cannot access )?[^\n]*: No such file or directory\r?$/;

/** Commands run one after another (each must be an `ls`: another's failure may be the one seen). */
const CHAINED = /&&|\|\||;/;

/** A pipe: the output read is another program's. */
const PIPED = /(?<!\|)\|(?!\|)/;

/** A program's message ("bash: ...", "error: ..."): a word, a colon and a space opening the line. */
const PROGRAM_SAYS = /^[^\s/:]+: /;

/** An exit status alone on its line ("Exit code 2", "exit status 2"). */
const EXIT_LINE = /^\s*(?:error:\s*)?(?:exit(?: code| status)?|exited with(?: code)?)\s*:?\s*\d+\s*$/i;

/** Whether one of a chain's commands is an `ls`, or a `cd` before it. */
function listsOrMoves(part: string): boolean {
  const program = commandProgram(part);
  return program === 'ls' || program === 'cd';
}

/**
 * Whether a failed shell `command` is an `ls` whose failure `text` says only that some of its paths are not
 * there (at least one such line, every other `ls:` line alike; the rest is its listing).
 */
export function listedSomeMissing(command: string, text: string): boolean {
  if (PIPED.test(command) || !command.split(CHAINED).every(listsOrMoves)) return false;
  const t = withoutShellNoise(text.length > LISTING_LOOK ? text.slice(0, LISTING_LOOK) : text);
  let missing = 0;
  for (const line of t.split('\n')) {
    if (NOT_THERE.test(line)) missing++;
    // another complaint of ls's, or another program's message ("bash: ...", "error: ..."), is a real failure
    else if (line.startsWith('ls:') || (PROGRAM_SAYS.test(line) && !EXIT_LINE.test(line))) return false;
  }
  return missing > 0;
}
