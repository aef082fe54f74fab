// A harness's notes taken out of an output, as src/text/failure-report.ts's NOTES takes them out with
// `replace(NOTES, '')` (the twin that defines them):
//
//   \[(?:the command completed with exit code \d+\.?|current working directory:[^\]]*|python interpreter:[^\]]*|command finished with exit code \d+)\]
//   |\((?:bash |powershell )?completed with no output\)            flags giu
//
// over UTF-8 bytes: left to right, a note taken at the first `[` or `(` where one begins, the search going on
// after it. The letters match in either case; under `iu` two more characters fold to letters of the notes:
// U+017F (ſ, C5 BF) to s and U+212A (the Kelvin sign, E2 84 AA) to k. `[^\]]*` runs to the next `]`, whatever
// the bytes between (a `]` byte is never inside a character of several bytes); `\d` is an ASCII digit. Then
// the rest is read (reportScan of it, and whether it is white space alone, as `trim()` sees it), so the host
// neither runs the expression nor scans the rest again (assembly/result-head.ts).

const LSQ: u32 = 0x5b; // [
const RSQ: u32 = 0x5d; // ]
const LPAR: u32 = 0x28; // (
const RPAR: u32 = 0x29; // )

/** The text after `[` of each note that ends in digits (then `]`), and of each that ends at the next `]`. */
const THE_COMMAND = 'the command completed with exit code ';
const COMMAND_FINISHED = 'command finished with exit code ';
const WORKING_DIRECTORY = 'current working directory:';
const PYTHON_INTERPRETER = 'python interpreter:';
/** The text after `(` of the other note, its `bash ` or `powershell ` optional. */
const BASH = 'bash ';
const POWERSHELL = 'powershell ';
const NO_OUTPUT = 'completed with no output)';

/** Where the last match of {@link word} ended. */
let after: usize = 0;

/**
 * Whether the bytes at `p` (before `end`) spell `w` (ASCII, lower case) as NOTES' flags read it: a letter in
 * either case, s also as ſ and k as the Kelvin sign; the end of the match in `after`.
 */
function word(p: usize, end: usize, w: string): bool {
  const n = w.length;
  for (let i = 0; i < n; i++) {
    if (p >= end) return false;
    const want = <u32>w.charCodeAt(i);
    const b = <u32>load<u8>(p);
    if (want >= 0x61 && want <= 0x7a) {
      if ((b | 0x20) == want) {
        p++;
        continue;
      }
      // ſ (C5 BF) folds to s, the Kelvin sign (E2 84 AA) to k
      if (want == 0x73 && b == 0xc5 && p + 2 <= end && load<u8>(p, 1) == 0xbf) {
        p += 2;
        continue;
      }
      if (want == 0x6b && b == 0xe2 && p + 3 <= end && load<u8>(p, 1) == 0x84 && load<u8>(p, 2) == 0xaa) {
        p += 3;
        continue;
      }
      return false;
    }
    if (b != want) return false;
    p++;
  }
  after = p;
  return true;
}

/** The end of a note that begins at `p` (its `[` or `(`), or 0 when none begins there. */
function noteEnd(p: usize, end: usize): usize {
  const b = <u32>load<u8>(p);
  const q = p + 1;
  if (b == LSQ) {
    const digits = word(q, end, THE_COMMAND);
    if (digits || word(q, end, COMMAND_FINISHED)) {
      let r = after;
      const first = r;
      while (r < end && <u32>load<u8>(r) - 0x30 < 10) r++;
      if (r == first) return 0;
      // `\d+\.?\]` after "the command completed", `\d+\]` after "command finished"
      if (digits && r < end && load<u8>(r) == 0x2e && r + 1 < end && load<u8>(r, 1) == RSQ) return r + 2;
      return r < end && <u32>load<u8>(r) == RSQ ? r + 1 : 0;
    }
    if (word(q, end, WORKING_DIRECTORY) || word(q, end, PYTHON_INTERPRETER)) {
      for (let r = after; r < end; r++) if (<u32>load<u8>(r) == RSQ) return r + 1;
    }
    return 0;
  }
  if (b == LPAR) {
    const from = word(q, end, BASH) || word(q, end, POWERSHELL) ? after : q;
    if (word(from, end, NO_OUTPUT)) return after;
    // `(?:bash |powershell )?` tried with the words, then without
    if (from != q && word(q, end, NO_OUTPUT)) return after;
  }
  return 0;
}

/**
 * Copies the text [p, p + n) into `dst` without its notes; the bytes written, or -1 when it holds no note (then
 * nothing is worth copying: the rest is the text).
 */
export function takeNotes(p: usize, n: u32, dst: usize): i32 {
  const end = p + <usize>n;
  let from = p;
  let w = dst;
  let found = false;
  for (let i = p; i < end; ) {
    const b = <u32>load<u8>(i);
    if (b != LSQ && b != LPAR) {
      i++;
      continue;
    }
    const e = noteEnd(i, end);
    if (e == 0) {
      i++;
      continue;
    }
    found = true;
    memory.copy(w, from, i - from);
    w += i - from;
    i = e;
    from = e;
  }
  if (!found) return -1;
  memory.copy(w, from, end - from);
  w += end - from;
  return <i32>(w - dst);
}

/**
 * Whether [p, p + n) is white space alone as String.prototype.trim() takes it off: tab, line tab, form feed,
 * space, U+00A0, U+FEFF, the line ends (LF, CR, U+2028, U+2029) and the other spaces of Unicode (U+1680,
 * U+2000-U+200A, U+202F, U+205F, U+3000).
 */
export function blankAsTrim(p: usize, n: u32): bool {
  const end = p + <usize>n;
  let i = p;
  while (i < end) {
    const b = <u32>load<u8>(i);
    if (b == 0x20 || (b >= 0x09 && b <= 0x0d)) {
      i++;
      continue;
    }
    if (b == 0xc2 && i + 2 <= end && load<u8>(i, 1) == 0xa0) {
      i += 2;
      continue;
    }
    if (i + 3 > end) return false;
    const b1 = <u32>load<u8>(i, 1);
    const b2 = <u32>load<u8>(i, 2);
    let space = false;
    if (b == 0xe1) space = b1 == 0x9a && b2 == 0x80; // U+1680
    else if (b == 0xe2) space = (b1 == 0x80 && (b2 <= 0x8a || b2 == 0xa8 || b2 == 0xa9 || b2 == 0xaf)) || (b1 == 0x81 && b2 == 0x9f); // U+2000-200A, 2028, 2029, 202F, 205F
    else if (b == 0xe3) space = b1 == 0x80 && b2 == 0x80; // U+3000
    else if (b == 0xef) space = b1 == 0xbb && b2 == 0xbf; // U+FEFF
    if (!space) return false;
    i += 3;
  }
  return true;
}
