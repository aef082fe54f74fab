/**
 * Recognises results that acknowledge a change rather than answer a question: "The file <path> has been
 * updated successfully.", "Todos have been modified successfully. Ensure that you continue to use the todo
 * list...", "Success. Updated the following files: M <path>", "Plan updated", "Task #3 created
 * successfully". Every edit of a session gets the same one, so two different edits acknowledged alike are
 * no evidence that the agent keeps getting the same answer: an acknowledgement is not an answer.
 *
 * A text result is an acknowledgement when, its volatile parts (paths, ids, numbers, quoted parts) masked,
 * it is at most {@link ACK_BYTES} bytes (a long path does not make it an answer; a listing or a page is
 * never one) and says a change was made in one of the ways of {@link ACK_PATTERNS}: "has been <done>",
 * "<done> successfully", "successfully <done>", a text that starts with "Success", "OK", "Done" or with
 * what was done ("Updated task #1"), a short "<thing> <done>" ("Plan updated"), or a command that completed
 * without output. A page that merely uses such a word ("a song written in Marathi") is not one.
 */
import { anyPattern } from './any-pattern.js';
import { encodeUtf8, utf8Scratch } from '../fingerprint/canonical-hash.js';
import { maskScanned } from '../wasm/module-report-scan.js';
import { MASK_LIMIT, maskBytes } from './mask-volatile.js';

/** What {@link weighsAcknowledgement} reads of a session's resolved options. */
export interface AckReaders {
  readonly detectors: { readonly resultRepeat: unknown; readonly semantic: unknown; readonly similarArgs: unknown };
  readonly custom: readonly unknown[];
}

/**
 * Whether a session with these detectors weighs an acknowledgement (CallFact.ACK): the evidence screen reads
 * it of result repeat's signals and of fuzzy ones (semantic, similar args; a custom detector's may be fuzzy too).
 */
export function weighsAcknowledgement(o: AckReaders): boolean {
  const d = o.detectors;
  return d.resultRepeat !== null || d.semantic !== null || d.similarArgs !== null || o.custom.length !== 0;
}

/** Characters of a result read at most; a longer result is never an acknowledgement. */
export const ACK_LOOK = 1024;
/** Bytes of the masked result at most. */
export const ACK_BYTES = 256;

/** What a call may have done, as an acknowledgement says it. */
const DONE = 'updated|modified|created|written|saved|applied|deleted|removed|added|changed|edited|moved|renamed|sent|scheduled|cancell?ed|committed|approved|stored|uploaded|recorded|reverted|replaced|inserted|appended|set';

/** The ways an acknowledgement says a change was made (tried on the masked text). */
export const ACK_PATTERNS: readonly RegExp[] = Object.freeze([
  new RegExp(`\\b(?:has|have) (?:been )?(?:successfully )?(?:${DONE})\\b`, 'i'),
  new RegExp(`\\b(?:${DONE}|completed|done) successfully\\b`, 'i'),
  new RegExp(`\\bsuccessfully (?:${DONE}|completed)\\b`, 'i'),
  new RegExp(`^\\W*(?:success|succeeded|ok|okay|done|${DONE})\\b`, 'i'),
  new RegExp(`^\\W*(?:\\w+ ){1,2}(?:${DONE})\\W*$`, 'i'),
  /\bcompleted with (?:no output|exit code <n>)/i,
]);

/** {@link ACK_PATTERNS} asked as one (any-pattern.ts): one pass over the masked text instead of six. */
const ackSays = anyPattern(ACK_PATTERNS);

/** The words of the quick test but `ok` (a word of its own there): an acknowledgement holds one. */
const ANY_WORDS: readonly string[] = ['success', 'succeeded', 'okay', 'done', 'completed', ...DONE.split('|')];

/** `words` as one alternation, grouped by first letter (`s(?:uccess|aved|...)|d(?:one|eleted)|...`): the same words. */
function byFirstLetter(words: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const w of words) {
    const rest = groups.get(w.charAt(0));
    if (rest === undefined) groups.set(w.charAt(0), [w.slice(1)]);
    else rest.push(w.slice(1));
  }
  return [...groups].map(([first, rest]) => `${first}(?:${rest.join('|')})`).join('|');
}

/**
 * A quick test on the text as given: an acknowledgement holds one of these words. Grouped by first letter, so
 * a place in the text whose letter begins none is passed at one test: over the traces' results of at most
 * ACK_LOOK characters 646 against 912 ns a text for the words side by side (a scratch loop, 11 rounds).
 */
const ANY = new RegExp(`\\bok\\b|${byFirstLetter(ANY_WORDS)}`, 'i');

/** The quick test {@link isAcknowledgement} asks first, of the text as given (for tests that read it step by step). */
export const ACK_QUICK: RegExp = ANY;

const decoder = new TextDecoder();

/** Whether a text result acknowledges a change (see the module comment). */
export function isAcknowledgement(text: string): boolean {
  // most results hold none of the words: looked for in the text first, then in its masked form
  if (text.length > ACK_LOOK || !ANY.test(text)) return false;
  const n = encodeUtf8(text);
  // masked only until it is longer than ACK_BYTES: a longer text is no acknowledgement, however long
  const masked = maskBytes(utf8Scratch(), n, MASK_LIMIT, ACK_BYTES);
  if (masked.length > ACK_BYTES) return false;
  const shown = decoder.decode(masked);
  return ackSays(shown);
}

/**
 * {@link isAcknowledgement} of the text reportScan read last (module-report-scan.ts), masked by the module
 * from the bytes it holds (the same masked bytes; it masks them whole rather than stop past ACK_BYTES);
 * a text it does not hold is masked here.
 */
export function acknowledgesScanned(text: string): boolean {
  if (text.length > ACK_LOOK || !ANY.test(text)) return false;
  const masked = maskScanned(text, MASK_LIMIT);
  if (masked === null) return isAcknowledgement(text);
  if (masked.length > ACK_BYTES) return false;
  const shown = decoder.decode(masked);
  return ackSays(shown);
}
