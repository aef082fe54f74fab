/**
 * Inputs that are zip archives (an Inspect AI `.eval` log is one): loopwatch does not open archives, so such
 * an input is skipped with one issue that says what it is and how to get a form loopwatch reads, rather than
 * with the issue of a line that is not UTF-8.
 */
import { type TraceIssue, issue } from './trace-record.js';

/** The local file header signature a zip archive starts with. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

/** Whether `head`, an input's first bytes (gunzipped), opens a zip archive. */
export function isZipHead(head: Uint8Array): boolean {
  return head.length >= ZIP_MAGIC.length && ZIP_MAGIC.every((b, i) => head[i] === b);
}

/** The issue skipping `file`, a zip archive. */
export function zipArchiveIssue(file: string): TraceIssue {
  return issue('unknown-format', file, 0, 'a zip archive (an Inspect AI .eval log is one), which loopwatch does not open; `inspect log convert FILE --to json --output-dir DIR` writes the JSON form it reads; input skipped');
}
