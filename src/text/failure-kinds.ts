/**
 * Failures that are not the agent's wall: the person declined or interrupted the call (Claude Code's "The
 * user doesn't want to proceed with this tool use", "Permission for this tool use was denied", Gemini
 * CLI's "[Operation Cancelled]", an interrupted request) or the agent cancelled it unrun (Claude Code's
 * "Sibling tool call errored": a call sent beside it failed or was declined), the call failed for want of a person (not
 * authorized, login required, denied by the person's policy or permission settings, or needing an approval those
 * settings did not give: only a person can grant access), or it failed without a word (a search that
 * found nothing: `rg` exits 1 and prints nothing, which the readers give as an error with no text or with
 * the exit code alone; a glob or `ls` that matched nothing says only that; Codex's word that the process was
 * killed by a signal, its program silent: signal-kill.ts), whatever a shell's startup printed before it.
 *
 * Different calls failing in these ways are no dead end: a person deciding, or searches finding nothing,
 * say nothing about the agent repeating itself. Each recogniser reads the first {@link KIND_LOOK}
 * characters of the error text.
 */

import { anyPattern } from './any-pattern.js';
import { withoutShellNoise } from './shell-noise.js';
import { saysOnlyKilled } from './signal-kill.js';

/** Characters of an error text read. */
export const KIND_LOOK = 512;

/** What a person's decline or interruption says (and the agent's own cancelling of a call, unrun, when a call beside it failed). */
export const DECLINE_PATTERNS: readonly RegExp[] = Object.freeze([
  /\bthe user doesn't want to (?:proceed|take this action)\b/i,
  /\bpermission for this tool use was denied\b/i,
  /\b(?:tool use|request|operation) (?:was )?(?:rejected|interrupted|cancell?ed) by (?:the )?user\b/i,
  /^\s*\[(?:operation cancell?ed|request interrupted)[^\]]*\]/i,
  /\buser (?:denied|rejected|declined|cancell?ed)(?: the)? (?:execution|tool|call|request|this)\b/i,
  /^\s*user_rejected\b/i,
  // Codex CLI: the person refused the command or patch when asked, or interrupted the turn ("aborted by user after 3.2s")
  /^\s*(?:exec command|patch) rejected by (?:the )?user\b/i,
  /^\s*aborted(?: by (?:the )?user\b|\s*$)/i,
  // Claude Code cancelled the call before it ran, a call sent beside it having failed or been declined:
  // "<tool_use_error>Sibling tool call errored</tool_use_error>", "Cancelled: parallel tool call Read(…) errored"
  /^\s*(?:<tool_use_error>\s*)?(?:sibling tool call errored\b|cancell?ed: parallel tool call\b)/i,
]);

/** What a failure for want of a person says (access only a person can grant). */
export const NEEDS_PERSON_PATTERNS: readonly RegExp[] = Object.freeze([
  /\bnot (?:authori[sz]ed|authenticated|logged in)\b/i,
  /\b(?:unauthori[sz]ed|unauthenticated)\b/i,
  /\b(?:login|sign[ -]in|authentication|re-?authentication) (?:is )?required\b/i,
  /\bplease (?:log ?in|sign ?in|authenticate|re-?authenticate)\b/i,
  // the person's settings forbid the call (Gemini CLI's policy engine: "Tool execution denied by policy.")
  /\b(?:tool )?execution (?:was )?denied by (?:the )?policy\b/i,
  // Claude Code's permission settings: "Permission to use Bash has been denied because Claude Code is running in
  // don't ask mode.", "Permission to use Bash with command rm -rf x has been denied.", "... has been auto-denied
  // (prompts unavailable)": a deny rule or a mode the person set, not a prompt they answered
  /^\s*(?:error:\s*)?permission to use [\w.:-]+ (?:with command [^]*? )?has been (?:auto-)?denied\b/i,
  // Claude Code asking for a permission its settings did not give and no prompt could grant: "Claude requested
  // permissions to write to /a/b.md, but you haven't granted it yet.", "... to use WebSearch, but ..."
  /^\s*(?:error:\s*)?claude requested permissions? to [^\n]{1,300}?, but you haven['’]t granted it yet\b/i,
  // Claude Code's checks of a shell command that needs the person's approval, refused without it: "This command
  // requires approval", "This command uses shell operators that require approval for safety", "sed command
  // requires approval (contains potentially dangerous operations)"
  /^\s*(?:error:\s*)?(?:this|[\w.-]+) command (?:uses shell operators that require|requires) approval\b/i,
  // "Commands that change directories and perform write operations require explicit approval to ensure paths
  // are evaluated correctly."
  /^\s*(?:error:\s*)?commands that change directories and perform write operations require explicit approval\b/i,
]);

/**
 * An exit status and a note of no output (`(no output)`; Gemini CLI's `Output: (empty)`, its shell's answer
 * when a command printed nothing, the exit code beside it), which are all a silent failure says. White space and dashes
 * between them are taken one character at a time, and each run of white space a part may hold is taken
 * whole (`(?=(\s*))\1`: a lookahead's capture never gives characters back), so a text that does not match
 * fails in time linear in its length. Written as `\s*(?:...\s*|[\s—–-]+)*`, the same language took time
 * exponential in a run of spaces ("exit 1" and 30 spaces before an "x" did not finish).
 */
const EXIT_ONLY = /^(?=(\s*))\1(?:error(?=(:?\s*))\2)?(?:\[?(?:exit(?: code| status)?|exited with(?: code)?|process exited with code)(?=(\s*))\3:?(?=(\s*))\4\d+\]?\.?|\((?:no output|completed with no output)\)|output: ?\(empty\)|[\s—–-])*$/i;

/**
 * A line in which a probe says it found nothing: a glob without a match (zsh "zsh:1: no matches found:
 * .eslintrc*", Claude Code's "(eval):1: no matches found: ...", fish "No matches for wildcard"), `ls` of
 * a path that is not there ("ls: cannot access 'Dockerfile': No such file or directory", BSD "ls:
 * Dockerfile: No such file or directory"). Another program's "No such file or directory" (`rg`, `cat`)
 * is a real failure.
 */
const NOTHING_MATCHED_LINE = /^(?:(?:zsh|bash|sh|\(eval\))(?::\d+)?: no matches? found: [^\n]*|fish: No matches for wildcard [^\n]*|ls: (?:cannot access )?[^\n]*: No such file or directory)\r?$/gim;

const head = (text: string): string => (text.length > KIND_LOOK ? text.slice(0, KIND_LOOK) : text);

/** What a failure's text says beyond a shell's startup lines and a probe's "found nothing" lines. */
function saysBeyondNothingFound(text: string): string {
  return withoutShellNoise(head(text)).replace(NOTHING_MATCHED_LINE, '');
}

/** DECLINE_PATTERNS asked as one (any-pattern.ts). */
const declined = anyPattern(DECLINE_PATTERNS);

/** NEEDS_PERSON_PATTERNS asked as one (any-pattern.ts). */
const personNeeded = anyPattern(NEEDS_PERSON_PATTERNS);

/** Whether an error says the person declined or interrupted the call. */
export function isDeclined(error: string): boolean {
  const t = head(error);
  return declined(t);
}

/** Whether an error says the call needs a person to grant access. */
export function needsPerson(error: string): boolean {
  const t = head(error);
  return personNeeded(t);
}

/**
 * Whether a failure says nothing but that it failed or found nothing (no text, an exit status alone, a
 * glob or `ls` finding nothing, the harness's word that the process was killed by a signal: signal-kill.ts),
 * once the lines a shell's startup prints are set aside (shell-noise.ts).
 */
export function failedSilently(error: string, result: string | undefined): boolean {
  return saysOnlyExit(error) && (result === undefined || saysOnlyExit(result));
}

/** Whether a text says nothing but that a call failed or found nothing (each half of {@link failedSilently}). */
export function saysOnlyExit(text: string): boolean {
  const rest = saysBeyondNothingFound(text);
  return EXIT_ONLY.test(rest) || saysOnlyKilled(rest);
}
