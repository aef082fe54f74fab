/**
 * A build that ended by building its last target: CMake's Makefile generator prints its progress
 * (`[ 59%] Building CUDA object ...`, `[ 61%] Linking CXX executable kangaroo`) and ends with
 * `[100%] Built target kangaroo` when every target built. Nothing in it is a pass of failure-report.ts's
 * PASS_PATTERNS ("Build succeeded", "compiled successfully"), so a `cmake --build .` re-run after each new
 * patch read as a check that neither passed nor failed (a behaviour described again: a state repeat,
 * stalled), though each run built the patched file anew (holdout7, quiet12). A build that failed prints
 * `make[2]: *** ... Error 1` and never reaches `[100%]`; one whose output holds a failure word is read as a
 * failure before this is asked. Reads the last line that says anything, of at most {@link BUILD_LOOK}
 * characters (a longer output's head is cut before its end: never read as done).
 */

/** Characters of an output read at most. */
export const BUILD_LOOK = 4096;

/** CMake's last line when every target built: `[100%] Built target <name>`. */
const DONE_LINE = /^\[100%\] Built target \S+$/;

/** What every such line holds (one indexOf rules out most outputs). */
const MARK = '[100%] Built target ';

/** Whether `c` is an ASCII character `\s` matches (tab, line feed, vertical tab, form feed, carriage return, space). */
const asciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/**
 * Whether the text may end as a done build does: read back from its end over ASCII white space, then over the
 * last word's characters, and MARK right before them. False only when the text cannot be one (most outputs:
 * a look at their last word, where `lastIndexOf(MARK)` read back through the whole text: 665 -> 284 ns a head
 * over the traces' 28,505 results in a loop of this alone, most of what is left reaching each text's end in
 * memory); true when it may be one, or when a character past ASCII is met on the way (white space of other
 * scripts: left to the full reading).
 */
function mayEndDone(text: string): boolean {
  let i = text.length;
  while (i > 0 && asciiSpace(text.charCodeAt(i - 1))) i--;
  let j = i;
  for (; j > 0; j--) {
    const c = text.charCodeAt(j - 1);
    if (c >= 0x80) return true;
    if (asciiSpace(c)) break;
  }
  return j < i && j >= MARK.length && text.startsWith(MARK, j - MARK.length);
}

/** Whether the output's last line that says anything is CMake's `[100%] Built target <name>`. */
export function reportsBuildDone(text: string): boolean {
  if (text.length > BUILD_LOOK || !mayEndDone(text)) return false;
  const at = text.lastIndexOf(MARK);
  if (at < 0) return false;
  const start = text.lastIndexOf('\n', at) + 1;
  if (text.slice(start, at).trim() !== '') return false;
  return DONE_LINE.test(text.slice(start).trim());
}
