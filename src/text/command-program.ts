/**
 * The program a shell command runs: what a dead end's wall (src/live/dead-end-wall.ts) compares, since every
 * shell call is one tool (`Bash`, `exec_command`, `run_shell_command`) whatever it does. `git log` and
 * `git status` failing with "not a git repository" are one wall; `ls -la .claude/` after them is another
 * program, the agent leaving the wall.
 *
 * The program is the first word of the command that is not a wrapper, as a path's last part:
 * ```
 *   bash -lc 'cd /repo && FOO=1 sudo /usr/bin/git status'   ->  git
 *   npx tsc --noEmit                                          ->  npx tsc   (a runner names its program)
 * ```
 * Wrappers passed over: a shell's `-c`, `cd DIR &&` (or `;`), variable assignments, `sudo`, `env`, `time`,
 * `nice`, `timeout N`, `command`, `exec`, `nohup`. Reads at most {@link PROGRAM_LOOK} characters.
 *
 * {@link programKey} is the program as a number, what a failed call's facts keep (src/policy/outcome-facts.ts)
 * and the wall compares.
 */
import { nameKey } from '../policy/name-keys.js';
import { commandText } from '../policy/workspace-changes.js';

/** Characters of a command read at most (a program is named near its start). */
export const PROGRAM_LOOK = 512;

/**
 * A shell running the rest as its command (`bash -lc`, `sh -c`, `zsh -c`, `pwsh -Command`). Wider than
 * outcome-facts.ts's SHELL_PREFIX (`bash|sh|zsh -c` or `-lc` only), which decides which commands read as waits.
 */
const SHELL_C = /^(?:\S*\/)?(?:bash|sh|zsh|dash|pwsh|powershell(?:\.exe)?)\s+(?:-[a-zA-Z]+\s+)*-(?:[a-zA-Z]*c|Command)\s+/;

/** A change of directory before the command (`cd /repo &&`, `cd src;`, `pushd x &&`). */
const CD_FIRST = /^(?:cd|pushd)\s+(?:"[^"]*"|'[^']*'|\S+)\s*(?:&&|;)\s*/;

/** A variable assignment before the command (`FOO=1`, `PATH="$PATH:x"`). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+/;

/** Commands that run the next word as the program (their flags and a `timeout`'s duration passed over). */
const WRAPPER = /^(?:sudo|env|time|nice|nohup|command|exec|timeout\s+(?:-\S+\s+)*\d+(?:\.\d+)?[smhd]?)(?:\s+-\S+)*\s+/;

/** Runners whose next word is the program they run (`npx tsc`, `uv run pytest`). */
const RUNNER = /^(?:npx|bunx|pnpx|uvx|pnpm\s+(?:exec|dlx)|yarn\s+(?:exec|dlx)|uv\s+run|poetry\s+run|pipx\s+run)(?:\s+-\S+)*\s+(\S+)/;

/** Quotes and grouping around the start of a command. */
const OPENING = /^[\s('"{]+/;

/** The program `command` runs (see the file's comment); undefined when it names none. */
export function commandProgram(command: string): string | undefined {
  let c = command.length > PROGRAM_LOOK ? command.slice(0, PROGRAM_LOOK) : command;
  // each pass removes one wrapper; a command has few, so a few passes suffice
  for (let pass = 0; pass < 8; pass++) {
    c = c.replace(OPENING, '');
    const next = c.replace(SHELL_C, '').replace(CD_FIRST, '').replace(ASSIGNMENT, '').replace(WRAPPER, '');
    if (next === c) break;
    c = next;
  }
  const runner = RUNNER.exec(c);
  if (runner !== null) return `${runner[0].split(/\s+/)[0] as string} ${baseName(runner[1] as string)}`;
  const word = /^[^\s;&|)'"]+/.exec(c)?.[0];
  return word === undefined ? undefined : baseName(word);
}

/** A program's name without its folder (`/usr/bin/git` -> `git`). */
function baseName(word: string): string {
  const cut = word.lastIndexOf('/');
  return cut >= 0 && cut < word.length - 1 ? word.slice(cut + 1) : word;
}

/**
 * The key of the program a call's shell command runs ({@link commandProgram}), 0 when its args hold no shell
 * command naming one (any other tool's call). Never throws: args that cannot be read give 0.
 */
export function programKey(args: unknown): number {
  try {
    const command = commandText(args);
    return command === undefined ? 0 : commandProgramKey(command);
  } catch {
    return 0;
  }
}

/** The key of the program `command` runs ({@link commandProgram}), 0 when it names none: a function of its text alone. */
export function commandProgramKey(command: string): number {
  const program = commandProgram(command);
  return program === undefined ? 0 : nameKey(program);
}
