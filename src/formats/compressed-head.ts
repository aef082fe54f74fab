/**
 * Inputs compressed in a way loopwatch does not read, told by their first bytes: Zstandard (`.zst`, magic
 * 28 b5 2f fd) and xz (`.xz`, fd 37 7a 58 5a 00). Such an input is skipped with one issue saying how to
 * decompress it, rather than read as lines that are not UTF-8 (one issue per line, none of them saying why).
 * gzip is read (byte-source.ts); Zstandard is read only inside Inspect's `.eval` zip entries (zstd-inflate.ts).
 */

/** The compressions told, each with its magic bytes. */
const MAGICS = [
  ['Zstandard', [0x28, 0xb5, 0x2f, 0xfd]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
] as const;

/** A compression loopwatch does not read. */
export type UnreadCompression = (typeof MAGICS)[number][0];

/** The compression `head` (an input's first bytes, gunzipped) opens with, when loopwatch does not read it; else null. */
export function unreadCompression(head: Uint8Array): UnreadCompression | null {
  for (const [name, magic] of MAGICS) if (head.length >= magic.length && magic.every((b, i) => head[i] === b)) return name;
  return null;
}
