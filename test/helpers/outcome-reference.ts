/**
 * The definitions of a result's outcome facts as they were before the fast paths (the specification the
 * fast paths answer exactly as): the failure and pass readings of failure-report.ts as plain expressions,
 * the acknowledgement read from the whole masked text, and the shell writes tested one by one.
 */
import { encodeUtf8, utf8Scratch } from '../../src/fingerprint/canonical-hash.js';
import { commandText, EDIT_TOOLS, EDITOR_TOOLS, MCP_CHANGE_WORDS, SHELL_WRITES } from '../../src/policy/workspace-changes.js';
import { ACK_BYTES, ACK_LOOK, ACK_PATTERNS } from '../../src/text/acknowledgement.js';
import { FAILURE_LOOK, FAILURE_WORDS, PASS_LOOK, PASS_PATTERNS, REPORTS_FAILURE, REPORTS_PASS } from '../../src/text/failure-report.js';
import { maskBytes } from '../../src/text/mask-volatile.js';
import { saysStillWaiting } from '../../src/text/still-waiting.js';

const REPORT = new RegExp(`(?:^|[^\\p{L}\\p{N}_.-])(?<!(?:^|\\s)(?:0|no|zero) )(?:${FAILURE_WORDS.join('|')})(?![\\p{L}\\p{N}_])|[❌✗✘]`, 'iu');
const NOTES = /\[(?:the command completed with exit code \d+\.?|current working directory:[^\]]*|python interpreter:[^\]]*|command finished with exit code \d+)\]|\((?:bash |powershell )?completed with no output\)/giu;

/** Whether an output reports a failure: the full expression over the first FAILURE_LOOK characters. */
export const plainFailure = (t: string): boolean => REPORT.test(t.slice(0, FAILURE_LOOK));

/** Whether an output says a check passed: notes taken out, blank, or a pass of PASS_PATTERNS and no failure. */
export const plainPass = (t: string): boolean => {
  const head = t.slice(0, PASS_LOOK).replace(NOTES, '');
  return head.trim() === '' || (!plainFailure(head) && PASS_PATTERNS.some((p) => p.test(head)));
};

/** reportOf's bits from the plain definitions. */
export const plainReport = (t: string): number => (plainPass(t) ? REPORTS_PASS : 0) | (plainFailure(t) ? REPORTS_FAILURE : 0);

/**
 * `t` without the lines of tests that passed, plainly (passed-test-lines.ts): from each line start (the text's
 * start, or after \n, \r, U+2028 or U+2029, as a multiline `^` has it), white space but \n and colour codes
 * in any order, then a check mark: that line goes, up to and with its \n.
 */
export function plainWithoutPassedTests(t: string): string {
  const passed = /(?:[^\S\n]|\u001b\[[0-9;]*m)*[✓✔√]/uy;
  let out = '';
  let i = 0;
  while (i < t.length) {
    passed.lastIndex = i;
    if ((i === 0 || '\n\r\u2028\u2029'.includes(t[i - 1] as string)) && passed.test(t)) {
      const end = t.indexOf('\n', i);
      i = end < 0 ? t.length : end + 1;
      continue;
    }
    out += t[i];
    i++;
  }
  return out;
}

/** readHead's report of a head (its first PASS_LOOK characters): a failure read where only passed tests' lines say one is read again without them. */
export function plainHeadReport(head: string): number {
  const report = plainReport(head);
  const look = head.slice(0, PASS_LOOK);
  if ((report & REPORTS_FAILURE) === 0 || !/[✓✔√]/u.test(look)) return report;
  const rest = plainWithoutPassedTests(look);
  return rest === look ? report : plainReport(rest);
}

const decoder = new TextDecoder();
const DONE = 'updated|modified|created|written|saved|applied|deleted|removed|added|changed|edited|moved|renamed|sent|scheduled|cancell?ed|committed|approved|stored|uploaded|recorded|reverted|replaced|inserted|appended|set';
const ANY = new RegExp(`(?:success|succeeded|\\bok\\b|okay|done|completed|${DONE})`, 'i');

/** Whether a text acknowledges a change: the whole text masked, then its length and the patterns. */
export function plainAcknowledgement(text: string): boolean {
  if (text.length > ACK_LOOK || !ANY.test(text)) return false;
  const masked = maskBytes(utf8Scratch(), encodeUtf8(text));
  if (masked.length > ACK_BYTES) return false;
  const shown = decoder.decode(masked);
  return ACK_PATTERNS.some((p) => p.test(shown));
}

/** Whether a call changes the workspace, each of SHELL_WRITES tested in turn. */
export function plainChangesWorkspace(tool: string, args: unknown): boolean {
  if (EDIT_TOOLS.has(tool)) return true;
  // an MCP tool `mcp__<server>__<tool>` with a word of MCP_CHANGE_WORDS in its tool's part
  const parts = tool.split('__');
  if (parts[0] === 'mcp' && parts.length >= 3 && parts[1] !== '') {
    const name = parts.slice(2).join('__').replace(/([a-z0-9])([A-Z])/g, '$1 $2');
    if (name !== '' && name.split(/[_\-.\s]+/).some((w) => MCP_CHANGE_WORDS.has(w.toLowerCase()))) return true;
  }
  const editor = EDITOR_TOOLS.get(tool);
  if (editor !== undefined) {
    const c = typeof args === 'object' && args !== null ? (args as Record<string, unknown>).command : undefined;
    return typeof c === 'string' && editor.has(c);
  }
  const command = commandText(args);
  return command !== undefined && SHELL_WRITES.some((p) => p.test(command));
}

/** What a text result's head says, as ResultReading bits (see result-reading.ts), from the plain definitions. */
export function plainReading(head: string): { ack: boolean; waiting: boolean; report: number } {
  const short = head.length <= ACK_LOOK;
  return { ack: short && plainAcknowledgement(head), waiting: short && saysStillWaiting(head), report: plainHeadReport(head) };
}
