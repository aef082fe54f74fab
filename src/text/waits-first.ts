/**
 * A shell command that waits before it looks (`sleep 30 && gh run list`, `timeout 60 kubectl wait ...`) or
 * only waits (`sleep 30`: bare-wait.ts): the agent pacing a poll. A function of the command's text alone
 * (outcome-facts.ts's waitsFirst reads it of a call's args).
 */
import { onlyWaits } from './bare-wait.js';

/** A shell command that waits before it looks: it polls the world. */
const WAITS_FIRST = /^\s*(?:sleep\s+\d+(?:\.\d+)?[smh]?\s*(?:&&|;)|timeout\s+\d+\s+\S*(?:wait|watch))/;

/**
 * A shell run around the command (`bash -lc "..."`), taken off before it is read. Narrower than
 * command-program.ts's SHELL_C (which also takes a path, dash, pwsh, and flag groups such as `-ec`): that one
 * would read more commands as waits (`pwsh -Command Start-Sleep 30`), a change of answers, not a tidy.
 */
const SHELL_PREFIX = /^(?:bash|sh|zsh)\s+-l?c\s+/;

/** Character codes of b, s, t, z (a command beginning with none of b, s, z has no SHELL_PREFIX). */
const B = 0x62;
const S = 0x73;
const T = 0x74;
const Z = 0x7a;

/**
 * Whether a command may be one WAITS_FIRST or onlyWaits reads: both begin with white space (`\s`, the set
 * trimStart takes off) then sleep, start-sleep or timeout (onlyWaits' ASCII letters in either case: a
 * non-ASCII letter never folds to one without the u flag). Most commands begin otherwise: they skip the
 * three expressions (~5% of exact repeat alone's time on the traces).
 */
function mayWait(command: string): boolean {
  const c = command.trimStart().charCodeAt(0) | 0x20;
  return c === S || c === T;
}

/** Whether a shell command waits before it looks, or only waits (`sleep 30`). */
export function commandWaitsFirst(command: string): boolean {
  const first = command.charCodeAt(0);
  const c = first === B || first === S || first === Z ? command.replace(SHELL_PREFIX, '') : command;
  return mayWait(c) && (WAITS_FIRST.test(c) || onlyWaits(c));
}
