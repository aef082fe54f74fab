/**
 * Recognises what a check's output says: that it passed ("9 passed", "All checks passed!", "ok  pkg
 * (cached)", "Finished `dev` profile", or nothing at all), or that something failed although the call
 * succeeded (a script or test run that exits 0 and prints "❌ Failed", "Error: ...", a traceback). A check
 * that passes confirms the work done before it, however often it is re-run after new work; one that keeps
 * reporting a failure, or keeps describing the same behaviour (a reproduction script printing the same
 * thing after each edit), is not confirmed by that work.
 *
 * Over the first {@link FAILURE_LOOK} characters: a word of {@link FAILURE_WORDS} as a whole word (so
 * `error_handler` or `ErrorBoundary.tsx` are not reports) not counted as none ("0 errors", "no failures"),
 * or a cross mark.
 */
import { SCAN_FAILURE, SCAN_FAILURE_UNKNOWN, SCAN_MAY_NOTE, SCAN_PASS, SCAN_PASS_UNKNOWN, reportScan } from '../wasm/module-report-scan.js';

/** Characters of an output read. */
export const FAILURE_LOOK = 4096;

/** Words that report a failure (whole words, case-insensitively). */
export const FAILURE_WORDS: readonly string[] = Object.freeze([
  'error', 'errors', 'failed', 'failure', 'failures', 'fail', 'fails', 'traceback', 'exception', 'panic', 'panicked', 'fatal',
  'assertionerror', 'typeerror', 'valueerror', 'keyerror', 'attributeerror', 'importerror', 'modulenotfounderror', 'syntaxerror', 'nameerror', 'runtimeerror',
]);

// "0 errors", "no failures" report none
const REPORT = new RegExp(`(?:^|[^\\p{L}\\p{N}_.-])(?<!(?:^|\\s)(?:0|no|zero) )(?:${FAILURE_WORDS.join('|')})(?![\\p{L}\\p{N}_])|[❌✗✘]`, 'iu');

// What every match of REPORT holds (each of FAILURE_WORDS contains one of these stems, under the same
// flags): a scan without REPORT's look-behind and Unicode classes, so most outputs cost one cheap pass.
const STEMS = /error|fail|traceback|exception|panic|fatal|[❌✗✘]/iu;

/** Whether an output reports a failure (see the module comment). */
export function reportsFailure(text: string): boolean {
  const head = text.length > FAILURE_LOOK ? text.slice(0, FAILURE_LOOK) : text;
  return STEMS.test(head) && REPORT.test(head);
}

/** Characters of an output read for a pass. */
export const PASS_LOOK = 4096;

/**
 * What a check says when it passed: test counts ("9 passed", "Tests: 37 passed, 37 total", "test result:
 * ok", `ok  pkg (cached)`), a clean lint or type check ("All checks passed!", "Success: no issues found",
 * "Found 0 errors", "0 problems"), a build that succeeded ("Finished `dev` profile", "compiled
 * successfully", "Build succeeded"), a tree with nothing to do ("up to date", "nothing to commit").
 *
 * A line-start word ("ok", "finished") follows the text's start or its last line break before it and white
 * space other than a line break (`(?:^|\n)[^\S\n]*`): the language of `(?:^|\n)\s*`, which read the rest of a
 * run of line breaks from each of them (4,096 of them took 50 ms, 90 ms with all seven patterns).
 */
export const PASS_PATTERNS: readonly RegExp[] = Object.freeze([
  /\b\d+ (?:passed|passing)\b/i,
  /\ball (?:\d+ )?(?:tests?|checks?|specs?) (?:passed|pass|ok)\b/i,
  /(?:^|\n)[^\S\n]*ok\b|\btest result: ok\b/i,
  /\b(?:no (?:issues|errors|problems|warnings)|(?:found )?0 (?:errors?|failures?|problems?|issues?))\b/i,
  /\b(?:success|succeeded|successfully)\b/i,
  /(?:^|\n)[^\S\n]*finished\b|\bbuild (?:succeeded|successful|complete)\b|\bcompiled\b/i,
  /\b(?:up[ -]to[ -]date|nothing to commit|working tree clean)\b/i,
]);

/** PASS_PATTERNS as one expression (the same flags, no state): one scan where some() would make seven. */
const ANY_PASS = new RegExp(PASS_PATTERNS.map((p) => `(?:${p.source})`).join('|'), 'i');

/** Whether a text holds a pass of PASS_PATTERNS, from its reportScan bits (`scan`) or else the expression. */
function holdsPass(text: string, scan = reportScan(text)): boolean {
  return scan < 0 || (scan & SCAN_PASS_UNKNOWN) !== 0 ? ANY_PASS.test(text) : (scan & SCAN_PASS) !== 0;
}

/**
 * The notes a harness adds to every output (OpenHands' exit code and working directory; Claude Code's
 * `(Bash completed with no output)` and its PowerShell tool's `(PowerShell completed with no output)`), not
 * the check's words.
 */
const NOTES = /\[(?:the command completed with exit code \d+\.?|current working directory:[^\]]*|python interpreter:[^\]]*|command finished with exit code \d+)\]|\((?:bash |powershell )?completed with no output\)/giu;

/** `text` with a harness's notes taken out (the definition assembly/notes.ts's takeNotes follows). */
export function withoutNotes(text: string): string {
  return text.replace(NOTES, '');
}

/** NOTES without its global flag: whether an output holds a note at all (most hold none: nothing to take out). */
const ANY_NOTE = new RegExp(NOTES.source, 'iu');

/**
 * Whether an output says a check passed: nothing but white space and a harness's notes, or a pass of
 * {@link PASS_PATTERNS}, and no failure reported.
 */
export function reportsPass(text: string): boolean {
  const head = (text.length > PASS_LOOK ? text.slice(0, PASS_LOOK) : text).replace(NOTES, '');
  if (head.trim() === '') return true;
  return !reportsFailure(head) && holdsPass(head);
}

/** {@link reportOf}'s bit: the output says the check passed ({@link reportsPass}). */
export const REPORTS_PASS = 1;
/** {@link reportOf}'s bit: the output reports a failure ({@link reportsFailure}). */
export const REPORTS_FAILURE = 2;

/**
 * Both readings of an output, {@link REPORTS_PASS} and {@link REPORTS_FAILURE} as bits: the same answers as
 * reportsPass and reportsFailure, with the failure read once when the harness's notes change nothing (as
 * {@link PASS_LOOK} and {@link FAILURE_LOOK} are equal, the two read the same characters then).
 */
export function reportOf(text: string): number {
  const look = text.length > PASS_LOOK ? text.slice(0, PASS_LOOK) : text;
  // one pass of the module says which expressions can match at all (PASS_LOOK and FAILURE_LOOK are equal)
  return reportFrom(look, PASS_LOOK === FAILURE_LOOK ? reportScan(look) : -1);
}

/** {@link reportFrom}'s `rest`: the text holds no note (what is left once they are taken out is all of it). */
export const REST_NONE = -1;
/** {@link reportFrom}'s `rest` bit: what is left once the notes are taken out is white space alone (trim()'s). */
export const REST_BLANK = 0x100;

/**
 * {@link reportOf} of a text of at most PASS_LOOK characters (`look`) whose reportScan bits the caller has
 * (`scan`; -1 for none: the expressions decide). `rest`, when the caller has it with the scan (the engine's
 * module reads it in its pass over the call, assembly/notes.ts): what taking the notes out of `look` leaves,
 * REST_NONE (no note), REST_BLANK, or its reportScan bits; the notes are then neither looked for nor taken out
 * here, unless the rest's bits leave an expression to ask of it.
 */
export function reportFrom(look: string, scan: number, rest?: number): number {
  if (PASS_LOOK !== FAILURE_LOOK) scan = -1;
  const failure = failureFrom(look, scan);
  if (rest !== undefined && scan >= 0) return (passFromRest(look, scan, failure, rest) ? REPORTS_PASS : 0) | (failure ? REPORTS_FAILURE : 0);
  const head = (scan < 0 || (scan & SCAN_MAY_NOTE) !== 0) && ANY_NOTE.test(look) ? look.replace(NOTES, '') : look;
  let pass: boolean;
  if (head === look) pass = head.trim() === '' || (!failure && holdsPass(head, scan));
  else if (head.trim() === '') pass = true;
  else {
    // the notes taken out: the rest read by a pass of its own (the failure and the pass from the same bits)
    const rest = scan < 0 ? -1 : reportScan(head);
    pass = !failureFrom(head, rest) && holdsPass(head, rest);
  }
  return (pass ? REPORTS_PASS : 0) | (failure ? REPORTS_FAILURE : 0);
}

/**
 * reportFrom's failure alone (REPORTS_FAILURE or 0), from `look`'s reportScan bits (`scan`; -1: the
 * expressions decide): for a caller that reads no pass, which then neither takes the notes out nor reads the pass.
 */
export function failureReportFrom(look: string, scan: number): number {
  return failureFrom(look, PASS_LOOK !== FAILURE_LOOK ? -1 : scan) ? REPORTS_FAILURE : 0;
}

/** reportFrom's pass, from what taking the notes out of `look` left (`rest`, as reportFrom takes it). */
function passFromRest(look: string, scan: number, failure: boolean, rest: number): boolean {
  if (rest === REST_NONE) return look.trim() === '' || (!failure && holdsPass(look, scan));
  if ((rest & REST_BLANK) !== 0) return true;
  const bits = rest & 0xff;
  // the rest as text only where its bits leave an expression to ask (a non-ASCII character beside a word)
  const text = (bits & (SCAN_PASS_UNKNOWN | SCAN_FAILURE_UNKNOWN)) !== 0 ? withoutNotes(look) : '';
  return !failureFrom(text, bits) && holdsPass(text, bits);
}

/** Whether `text` reports a failure, from its reportScan bits (`scan`; -1 for none: the expressions decide). */
function failureFrom(text: string, scan: number): boolean {
  // the module decides REPORT at each stem, but where a non-ASCII character stands beside a stem's word
  return scan < 0 ? reportsFailure(text) : (scan & SCAN_FAILURE) !== 0 || ((scan & SCAN_FAILURE_UNKNOWN) !== 0 && REPORT.test(text));
}
