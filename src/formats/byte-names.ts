/**
 * Folder entries whose names are not valid UTF-8 (a name is any bytes but `/` and NUL on Linux). Node reads
 * names as UTF-8 text, each bad byte becoming U+FFFD, and a path made of that text names no file: such an
 * entry was a `read-error` saying "no such file or directory" beside a name that was not its own (two such
 * names looked the same). {@link undecodedEntries} finds them, so the walk can say what they are, with each
 * byte that is not UTF-8 shown as `\xNN` ({@link shownName}), instead of opening a path that does not exist.
 */
import { isUtf8 } from 'node:buffer';
import type { Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';

/** A folder entry whose name is not valid UTF-8: the name as shown, and whether it is a folder. */
export interface UndecodedEntry {
  /** The name with each byte that is not part of a UTF-8 sequence written as `\xNN` (`bad\xffname.jsonl`). */
  readonly shown: string;
  readonly isDirectory: boolean;
}

/** Bytes of the UTF-8 sequence a lead byte starts (0: no lead byte). */
const sequenceLength = (c: number): number => (c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0);

/** `name`'s bytes as text: UTF-8 sequences as their characters, every other byte as `\xNN`. */
export function shownName(name: Uint8Array): string {
  const b = Buffer.from(name.buffer, name.byteOffset, name.byteLength);
  let out = '';
  let i = 0;
  while (i < b.length) {
    const c = b[i] ?? 0;
    const n = sequenceLength(c);
    if (n > 0 && i + n <= b.length && isUtf8(b.subarray(i, i + n))) {
      out += b.toString('utf8', i, i + n);
      i += n;
    } else {
      out += `\\x${c.toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

/**
 * Of `entries` (read from `dir` as text), those whose names are their own, and the entries of `dir` whose
 * names are not valid UTF-8 (sorted by their shown names; at most `max` of them, the first met). The folder
 * is read again as bytes, one entry at a time, only when a name holds U+FFFD (what a bad byte becomes), so
 * an ordinary walk costs nothing more.
 */
export async function undecodedEntries(dir: string, entries: readonly Dirent[], max = Infinity): Promise<{ readonly kept: Dirent[]; readonly undecoded: UndecodedEntry[] }> {
  if (!entries.some((e) => e.name.includes('\ufffd'))) return { kept: [...entries], undecoded: [] };
  // the names holding U+FFFD that are truly so named (valid UTF-8 holding the character itself)
  const own = new Set<string>();
  const undecoded: UndecodedEntry[] = [];
  try {
    const d = await opendir(dir, { encoding: 'buffer' as BufferEncoding, bufferSize: 1024 });
    try {
      for (let r = await d.read(); r !== null; r = await d.read()) {
        const name = r.name as unknown as Buffer;
        if (isUtf8(name)) {
          const text = name.toString('utf8');
          if (text.includes('\ufffd')) own.add(text);
        } else if (undecoded.length < max) undecoded.push({ shown: shownName(name), isDirectory: r.isDirectory() });
      }
    } finally {
      await d.close().catch(() => undefined);
    }
  } catch {
    return { kept: [...entries], undecoded: [] }; // gone meanwhile: the entries fail as they did
  }
  undecoded.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return { kept: entries.filter((e) => !e.name.includes('\ufffd') || own.has(e.name)), undecoded };
}
