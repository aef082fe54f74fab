/**
 * The byte scans a line-by-line reader of UTF-8 text needs (test-place.ts reads a runner's output with them):
 * where a line, a word, an indent or digits end, whether a pattern begins at a byte, each over
 * `bytes[from, end)` and linear in what it reads. Patterns are ASCII bytes ({@link ascii}) or a few UTF-8
 * bytes written out.
 */

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;
const ZERO = 0x30;
const NINE = 0x39;

/** ASCII text as its bytes. */
export function ascii(t: string): readonly number[] {
  return Array.from(t, (c) => c.charCodeAt(0));
}

/** Whether `b` ends a word (a space, tab, CR or LF). */
export function endsId(b: number): boolean {
  return b === SPACE || b === TAB || b === CR || b === LF;
}

/** Whether `bytes[i, end)` begins with `pat`. */
export function at(bytes: Uint8Array, i: number, end: number, pat: readonly number[]): boolean {
  if (end - i < pat.length) return false;
  for (let k = 0; k < pat.length; k++) if (bytes[i + k] !== pat[k]) return false;
  return true;
}

/** Where `pat` (a few bytes long) first begins in `bytes[from, to)`, or -1. */
export function find(bytes: Uint8Array, from: number, to: number, pat: readonly number[]): number {
  for (let k = from; k + pat.length <= to; k++) if (at(bytes, k, to, pat)) return k;
  return -1;
}

/** Whether `bytes[from, to)` holds `::`. */
export function holdsPair(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k + 1 < to; k++) if (bytes[k] === COLON && bytes[k + 1] === COLON) return true;
  return false;
}

/** The end of the word at `from` (the first white space byte, or `end`). */
export function wordEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && !endsId(bytes[j] as number)) j++;
  return j;
}

/** The end of the spaces at `from` (an indent). */
export function indentEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && bytes[j] === SPACE) j++;
  return j;
}

/** The end of the digits at `from`. */
export function digitsEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && (bytes[j] as number) >= ZERO && (bytes[j] as number) <= NINE) j++;
  return j;
}

/** The end of the line at `from` without its CR (the first CR or LF, or `end`). */
export function textEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && bytes[j] !== LF && bytes[j] !== CR) j++;
  return j;
}

/** The start of the line after the one at `from` (`end` past the last). */
export function nextLine(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && bytes[j] !== LF) j++;
  return j < end ? j + 1 : end;
}

/** Whether `bytes[from, to)` is exactly `pat`. */
export function isText(bytes: Uint8Array, from: number, to: number, pat: readonly number[]): boolean {
  return to - from === pat.length && at(bytes, from, to, pat);
}

/** Whether `b` is an ASCII letter, digit or `_`. */
export function isWordByte(b: number): boolean {
  return (b >= ZERO && b <= NINE) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}
