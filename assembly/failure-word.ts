// Whether an output reports a failure as src/text/failure-report.ts's REPORT reads it, decided at each stem
// the scan finds (assembly/report-scan.ts): REPORT matches a word of FAILURE_WORDS (any case) that is a
// whole run of word characters (nothing of \p{L}, \p{N} or `_` after it, nor \p{L}, \p{N}, `_`, `.` or `-`
// before it) and is not right after "0 ", "no " or "zero " standing at the start or after white space
// ("0 errors", "no failures"), or a cross mark. Every such word holds a stem (error, fail, traceback,
// exception, panic, fatal), so the word holding a stem is found by walking its run of ASCII letters, digits
// and `_` both ways. Where a non-ASCII character stands beside that run or before "0 "/"no "/"zero ", the
// expression's Unicode classes (an é is a letter, U+00A0 a space, ſ and the Kelvin sign fold to s and k) may
// answer either way: the scan says "unknown" and the host asks the expression.

const FAILURE_WORDS: StaticArray<string> = [
  'error', 'errors', 'failed', 'failure', 'failures', 'fail', 'fails', 'traceback', 'exception', 'panic', 'panicked', 'fatal',
  'assertionerror', 'typeerror', 'valueerror', 'keyerror', 'attributeerror', 'importerror', 'modulenotfounderror', 'syntaxerror', 'nameerror', 'runtimeerror',
];
/** The look-behind's words: "0 errors", "no failures", "zero fails" report none. */
const NONE_WORDS: StaticArray<string> = ['0', 'no', 'zero'];

/** failureAt's answers. */
export const FAILURE_NONE: u32 = 0;
export const FAILURE_REPORTED: u32 = 1;
export const FAILURE_UNKNOWN: u32 = 2;

// @ts-ignore: decorator
@inline function wordByte(b: u32): bool {
  return b - 0x30 < 10 || (b | 0x20) - 0x61 < 26 || b == 0x5f;
}

// @ts-ignore: decorator
@inline function space(b: u32): bool {
  return b == 0x20 || b - 0x09 < 5;
}

/** Whether [p, p + s.length) is `s` (lower-case ASCII), letters in either case. */
function same(p: usize, s: string): bool {
  for (let k = 0; k < s.length; k++) {
    const b = <u32>load<u8>(p + <usize>k);
    if ((b - 0x41 < 26 ? b + 32 : b) != <u32>s.charCodeAt(k)) return false;
  }
  return true;
}

/** Whether [w, r) is a word of FAILURE_WORDS, any case. */
function failureWord(w: usize, r: usize): bool {
  const n = <i32>(r - w);
  for (let k = 0; k < FAILURE_WORDS.length; k++) {
    const s = unchecked(FAILURE_WORDS[k]);
    if (s.length == n && same(w, s)) return true;
  }
  return false;
}

/**
 * What REPORT makes of the word holding the stem at `q` in [ptr, end): FAILURE_REPORTED, FAILURE_NONE, or
 * FAILURE_UNKNOWN (a non-ASCII character where the expression's Unicode classes decide).
 */
export function failureAt(ptr: usize, q: usize, end: usize): u32 {
  // a cross mark (stemAt's E2 9C 97/98, E2 9D 8C) is reported wherever it is
  if (load<u8>(q) == 0xe2) return FAILURE_REPORTED;
  let w = q;
  while (w > ptr && wordByte(<u32>load<u8>(w - 1))) w--;
  let r = q;
  while (r < end && wordByte(<u32>load<u8>(r))) r++;
  if (r < end && <u32>load<u8>(r) >= 0x80) return FAILURE_UNKNOWN;
  if (w > ptr) {
    const b = <u32>load<u8>(w - 1);
    if (b >= 0x80) return FAILURE_UNKNOWN;
    if (b == 0x2e || b == 0x2d) return FAILURE_NONE;
  }
  if (!failureWord(w, r)) return FAILURE_NONE;
  // the look-behind: "(?:^|\s)(?:0|no|zero) " just before the word
  if (w == ptr || load<u8>(w - 1) != 0x20) return FAILURE_REPORTED;
  let unknown = false;
  for (let k = 0; k < NONE_WORDS.length; k++) {
    const s = unchecked(NONE_WORDS[k]);
    const t = w - 1 - <usize>s.length;
    if (t < ptr || t > w || !same(t, s)) continue;
    if (t == ptr) return FAILURE_NONE;
    const b = <u32>load<u8>(t - 1);
    if (space(b)) return FAILURE_NONE;
    if (b >= 0x80) unknown = true;
  }
  return unknown ? FAILURE_UNKNOWN : FAILURE_REPORTED;
}
