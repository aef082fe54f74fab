// Phrases of "nothing found" that, where they stand, report no empty search: the twin of
// src/text/not-a-finding.ts (the notice and the kinds must match it). npm's "The following package was not
// found and will be installed" (`not found` then INSTALL_NOTICE), a shell's `command not found` (PROGRAM_WORD,
// spaces, then `not found`), a wrong name's `column "email" does not exist` / `operator does not exist` (a
// kind, spaces, a name, spaces; or `operator` and spaces; or the phrase followed by ` on type ` / ` in type `),
// Solidity's `Member "decrypt" not found or not visible ...` (MEMBER_WORD, spaces, a name, spaces, then
// `not found`), and pytest's "collected 0 items / 6 errors".

const INSTALL_NOTICE = ' and will be installed';
const NAME_KINDS: StaticArray<string> = [
  'column', 'relation', 'table', 'schema', 'function', 'type', 'role', 'database', 'constraint', 'sequence',
  'extension', 'property',
];
const BARE_KIND = 'operator';
const PROGRAM_WORD = 'command';
const MEMBER_WORD = 'member';
const ON_TYPE = ' on type ';
const IN_TYPE = ' in type ';
const COLLECTION_ERRORS = ' / ';
const ERROR_WORD = ' error';

// @ts-ignore: decorator
@inline function lower(b: u32): u32 {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

// @ts-ignore: decorator
@inline function isSpace(b: u32): bool {
  return b == 0x20 || (b >= 0x09 && b <= 0x0d);
}

// @ts-ignore: decorator
@inline function isAlnum(b: u32): bool {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a);
}

/** Whether the whole word `w` (lowercase) ends at `end` of the text at `ptr`. */
function wordEndsAt(ptr: usize, end: u32, w: string): bool {
  const n = <u32>w.length;
  if (end < n) return false;
  const start = end - n;
  if (start > 0 && isAlnum(lower(<u32>load<u8>(ptr + start - 1)))) return false;
  for (let k: u32 = 0; k < n; k++) {
    if (lower(<u32>load<u8>(ptr + start + k)) != <u32>w.charCodeAt(k)) return false;
  }
  return true;
}

/** Where the run of spaces ending at `end` begins (`end` itself when there is none). */
function spacesBefore(ptr: usize, end: u32): u32 {
  let j = end;
  while (j > 0 && load<u8>(ptr + j - 1) == 0x20) j--;
  return j;
}

/** Whether `w` (lowercase) stands at `from` of text [ptr, ptr + len). */
function startsAt(ptr: usize, len: u32, from: u32, w: string): bool {
  const n = <u32>w.length;
  if (from + n > len) return false;
  for (let k: u32 = 0; k < n; k++) {
    if (lower(<u32>load<u8>(ptr + from + k)) != <u32>w.charCodeAt(k)) return false;
  }
  return true;
}

/** Whether `not found`, ending at `end` of text [ptr, ptr + len), is followed by INSTALL_NOTICE. */
export function installNoticeAt(ptr: usize, len: u32, end: u32): bool {
  return startsAt(ptr, len, end, INSTALL_NOTICE);
}

/** Whether `not found`, starting at `at` of the text at `ptr`, follows the word PROGRAM_WORD and spaces (a shell's missing program). */
export function programMissingAt(ptr: usize, at: u32): bool {
  const j = spacesBefore(ptr, at);
  return j < at && wordEndsAt(ptr, j, PROGRAM_WORD);
}

/** Whether `not found`, starting at `at` of the text at `ptr`, follows MEMBER_WORD, spaces, a name and spaces (a compiler's wrong member). */
export function memberMissingAt(ptr: usize, at: u32): bool {
  let j = spacesBefore(ptr, at);
  if (j == at) return false;
  const nameEnd = j;
  while (j > 0 && !isSpace(<u32>load<u8>(ptr + j - 1))) j--;
  if (j == nameEnd) return false;
  const kindEnd = spacesBefore(ptr, j);
  return kindEnd < j && wordEndsAt(ptr, kindEnd, MEMBER_WORD);
}

/**
 * Whether `0 items`, ending at `end` of text [ptr, ptr + len), is followed by ` / `, digits and ` error`; the
 * digits read within [ptr, ptr + held) (a long section's head: a run of them past it reads as ended there).
 */
export function collectionErrorsAt(ptr: usize, len: u32, end: u32, held: u32): bool {
  if (!startsAt(ptr, len, end, COLLECTION_ERRORS)) return false;
  let j = end + <u32>COLLECTION_ERRORS.length;
  const digits = j;
  while (j < len && j < held && <u32>load<u8>(ptr + j) - 0x30 < 10) j++;
  return j > digits && startsAt(ptr, len, j, ERROR_WORD);
}

/** Whether `does not exist` (or `doesn't exist`) from `at` to `end` of text [ptr, ptr + len) reports a wrong name. */
export function wrongNameAt(ptr: usize, len: u32, at: u32, end: u32): bool {
  if (startsAt(ptr, len, end, ON_TYPE) || startsAt(ptr, len, end, IN_TYPE)) return true;
  let j = spacesBefore(ptr, at);
  if (j == at) return false;
  if (wordEndsAt(ptr, j, BARE_KIND)) return true;
  const nameEnd = j;
  while (j > 0 && !isSpace(<u32>load<u8>(ptr + j - 1))) j--;
  if (j == nameEnd) return false;
  const kindEnd = spacesBefore(ptr, j);
  if (kindEnd == j) return false;
  for (let k = 0; k < NAME_KINDS.length; k++) {
    if (wordEndsAt(ptr, kindEnd, unchecked(NAME_KINDS[k]))) return true;
  }
  return false;
}
