/**
 * Inputs that are zip archives (an Inspect AI `.eval` log is one), told by their first bytes. A file is read
 * in place (inspect-eval-archive.ts); an archive on standard input or a pipe is held whole, bounded, then
 * read the same way (streamed-archive.ts), rather than read as lines that are not UTF-8.
 */

/** The local file header signature a zip archive starts with. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

/** Whether `head`, an input's first bytes (gunzipped), opens a zip archive. */
export function isZipHead(head: Uint8Array): boolean {
  return head.length >= ZIP_MAGIC.length && ZIP_MAGIC.every((b, i) => head[i] === b);
}
