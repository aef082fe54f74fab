/**
 * Recognises a status report whose status field says the work is still under way: a listing of CI runs
 * (`gh run list --json status,...`: `"status": "in_progress"`), a job described as `state: running`. Such a
 * report is often longer than the short answers saysStillWaiting reads (two runs with their names and
 * links are some 600 characters), yet it answers a poll as "not yet" does: the same answer again is the
 * world's work not done, not the agent stuck. Only a field named as a status (`status`, `state`, `phase`)
 * counts, never the word alone (a log line "running tests"), and only in a whole text of at most
 * {@link STATUS_LOOK} characters (a status report, not a log or a listing that holds one).
 */
import { WAITING_WORDS } from './still-waiting.js';

/** Longest text read, in characters: a longer one (its head as given) is no status report. */
export const STATUS_LOOK = 2048;

// `"status": "in_progress"`, `state: running`, `phase=Pending` (the value a whole word: not `running_total`)
const FIELD = new RegExp(`(?:^|[^a-z0-9_])(?:status|state|phase)["']?\\s*[:=]\\s*["']?(?:${WAITING_WORDS.map((w) => w.replace(/[-_ ]/g, '[-_ ]')).join('|')})(?![a-z0-9_-])`, 'i');

/**
 * Whether a text (a whole result, or its head when the result is longer: then it is longer than
 * STATUS_LOOK and read as no report) has a status field saying the work is still under way.
 */
export function reportsStatusUnderWay(text: string): boolean {
  return text.length <= STATUS_LOOK && FIELD.test(text);
}
