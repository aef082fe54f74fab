/**
 * Inputs that are zip archives (an Inspect AI `.eval` log is one). A file is read in place
 * (inspect-eval-archive.ts); an archive on standard input or a pipe cannot be (its directory is at its end,
 * and it is not held whole), so it is skipped with one issue that says so, rather than with the issue of a
 * line that is not UTF-8.
 */
import { type TraceIssue, issue } from './trace-record.js';

/** The local file header signature a zip archive starts with. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

/** Whether `head`, an input's first bytes (gunzipped), opens a zip archive. */
export function isZipHead(head: Uint8Array): boolean {
  return head.length >= ZIP_MAGIC.length && ZIP_MAGIC.every((b, i) => head[i] === b);
}

/** The issue skipping `file`, a zip archive read from a stream. */
export function zipArchiveIssue(file: string): TraceIssue {
  return issue('unknown-format', file, 0, 'a zip archive (an Inspect AI .eval log is one) read from a stream; archives are read from files (give its path), or `inspect log convert FILE --to json --output-dir DIR` writes the JSON form; input skipped');
}
