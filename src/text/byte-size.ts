/**
 * A size in bytes as a person writes it, one reading for every flag and variable that takes one (serve's
 * `--session-memory`, `--body-limit`, `--stream-max-bytes`, mcp's `--max-line-bytes`,
 * `LOOPWATCH_DECISION_LOG_MAX_BYTES`): digits, optionally followed by `K`, `M` or `G` (KiB, MiB, GiB: powers
 * of 1024), in either case, with an optional `i` and `B` after it (`16M`, `16MiB`, `16mb`), or by `B` alone.
 * Plain digits are bytes, as every one of them took before.
 */

/** What each unit letter multiplies by. */
const UNITS: Readonly<Record<string, number>> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The spellings, for the messages that refuse a size (`N, or N with K, M or G for KiB, MiB, GiB: 64M`). */
export const BYTE_SIZE_SPELLING = 'N, or N with K, M or G for KiB, MiB, GiB: 64M';

/** A size: at most 15 digits (capped before the pattern sees the text), then an optional unit. */
const SIZE = /^([0-9]{1,15})\s*(?:([kmg])(?:ib?|b)?|b)?$/i;

/** The longest text read as a size: longer is no size (15 digits, a space and `KiB`, with room to spare). */
const MAX_SIZE_TEXT = 32;

/** `text` read as a size in bytes (surrounding blanks ignored), or null when it is not one. */
export function parseByteSize(text: string): number | null {
  const t = text.trim();
  if (t.length > MAX_SIZE_TEXT) return null;
  const m = SIZE.exec(t);
  if (m === null) return null;
  const n = Number(m[1]) * (m[2] === undefined ? 1 : (UNITS[m[2].toLowerCase()] as number));
  return Number.isSafeInteger(n) ? n : null;
}
