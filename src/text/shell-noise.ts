/**
 * Lines a shell prints ahead of every command's own output, from the person's startup files rather than
 * the command: a profile script whose `ps` a sandbox forbids (Homebrew's `shellenv.sh` under Codex CLI on
 * macOS: "/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted"),
 * nvm switching versions ("Now using node v18.20.5 (npm v10.8.2)"). They say nothing about the command:
 * a search that found nothing, after them, still said nothing.
 *
 * Only leading lines are dropped (at most {@link MAX_NOISE_LINES}), each matched whole; a line like them
 * further down is the command's own.
 */

/** Leading lines dropped at most. */
export const MAX_NOISE_LINES = 4;

/** Whole lines a shell's startup prints before each command's output. */
export const SHELL_NOISE_PATTERNS: readonly RegExp[] = Object.freeze([
  /^\S+: line \d+: \/bin\/ps: Operation not permitted\r?$/,
  /^Now using node v\d+(?:\.\d+)* \(npm v\d+(?:\.\d+)*\)\r?$/,
]);

/** `text` without the shell-startup lines it begins with. */
export function withoutShellNoise(text: string): string {
  let at = 0;
  for (let n = 0; n < MAX_NOISE_LINES; n++) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    if (!SHELL_NOISE_PATTERNS.some((p) => p.test(line))) break;
    at = end === -1 ? text.length : end + 1;
  }
  return at === 0 ? text : text.slice(at);
}
