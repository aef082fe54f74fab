/**
 * Recognises a status report whose status field says the work is still under way: a listing of CI runs
 * (`gh run list --json status,...`: `"status": "in_progress"`), a job described as `state: running`. Such a
 * report is often longer than the short answers saysStillWaiting reads (two runs with their names and
 * links are some 600 characters), yet it answers a poll as "not yet" does: the same answer again is the
 * world's work not done, not the agent stuck. Only a field named as a status (`status`, `state`, `phase`)
 * counts, never the word alone (a log line "running tests"), and only in a whole text of at most
 * {@link STATUS_LOOK} characters (a status report, not a log or a listing that holds one), or in the first
 * record of a longer listing of records (a JSON array of flat objects, newest first: `gh run list --json`
 * of ten runs, the one just pushed in progress at its head).
 */
import { WAITING_WORDS } from './still-waiting.js';

/** Longest text read, in characters: a longer one (its head as given) is no status report. */
export const STATUS_LOOK = 2048;

// `"status": "in_progress"`, `state: running`, `phase=Pending` (the value a whole word: not `running_total`)
const FIELD = new RegExp(`(?:^|[^a-z0-9_])(?:status|state|phase)["']?\\s*[:=]\\s*["']?(?:${WAITING_WORDS.map((w) => w.replace(/[-_ ]/g, '[-_ ]')).join('|')})(?![a-z0-9_-])`, 'i');

/**
 * The first record of a listing of records: a JSON array of flat objects (after a short label such as
 * gemini-cli's `Output: `), the record's fields at most STATUS_LOOK characters. Nested records are not read.
 */
const FIRST_RECORD = new RegExp(`^\\s*(?:[A-Za-z][A-Za-z ]{0,19}:\\s*)?\\[\\s*\\{([^{}]{0,${STATUS_LOOK}})\\}`);

/**
 * Whether a text (a whole result, or its head when the result is longer) has a status field saying the
 * work is still under way: anywhere in a text of at most STATUS_LOOK characters, else in the first record
 * of a listing of records (a log or a longer text of another shape is read as no report).
 */
export function reportsStatusUnderWay(text: string): boolean {
  if (text.length <= STATUS_LOOK) return FIELD.test(text);
  const first = FIRST_RECORD.exec(text.length > 2 * STATUS_LOOK ? text.slice(0, 2 * STATUS_LOOK) : text);
  return first !== null && FIELD.test(first[1] as string);
}
