/**
 * Where a failing test run failed: the ids of the tests pytest names in its short summary
 * (`FAILED tests/test_orders.py::test_total[case3] - assert 17 == 19`), over UTF-8 bytes, so the WebAssembly
 * build reproduces it byte for byte (`assembly/test-place.ts`).
 *
 * An error's class (mask-volatile.ts) masks paths, numbers and quoted parts, so the same wall hit with other
 * arguments is one class: `pip install foo==1.2`, `foo==1.3`, ... failing alike. A test run's output masks
 * alike whichever test failed (`FAILED <path> - assert <n> == <n>`), so a developer fixing a suite file by
 * file (`pytest tests/test_a.py`, then `tests/test_b.py`, each failing with an AssertionError of its own) was
 * read as one wall. The tests that failed are the failure's place: the class of a failure that names them
 * is its masked text and that place together (observe-event.ts), so the same tests failing again (after edits
 * that do not help, or run with other flags) are one class, and other tests failing are another.
 *
 * Read: the last {@link PLACE_LOOK} bytes (pytest writes its summary last), from the first line that begins
 * there; a line is a place when it begins `FAILED ` and its next word (up to a space, tab, CR or LF) holds
 * `::` (a node id: the file, then the test). `ERROR` lines (a test file that does not import, a fixture
 * missing) are left out: the same collection error in every file is one wall. No id: no place (0), and the
 * class is the masked text's alone, as before.
 *
 * The place is `close(fold(...fold(TEST_PLACE, xxh64(id1, TEST_PLACE)...), count)`, in the order printed.
 */
import { Tag, close, fold } from '../fingerprint/combine.js';
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';

/** Bytes at the end of an error read for the tests that failed. */
export const PLACE_LOOK = 16384;

/** `FAILED ` as bytes. */
const FAILED = [0x46, 0x41, 0x49, 0x4c, 0x45, 0x44, 0x20];

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;

/** Whether `b` ends an id (white space). */
function endsId(b: number): boolean {
  return b === SPACE || b === TAB || b === CR || b === LF;
}

/** Whether `bytes[i, end)` begins with `FAILED `. */
function failedAt(bytes: Uint8Array, i: number, end: number): boolean {
  if (end - i < FAILED.length) return false;
  for (let k = 0; k < FAILED.length; k++) if (bytes[i + k] !== FAILED[k]) return false;
  return true;
}

/**
 * The place of the failure whose error text is `bytes[0, len)` (see the module's note): the low word of its
 * 64-bit key, the high word in `u64.hi`; both 0 when it names no test.
 */
export function testPlace(bytes: Uint8Array, len: number): number {
  let i = len > PLACE_LOOK ? len - PLACE_LOOK : 0;
  // a cut inside a line: that line is not read
  if (i > 0 && bytes[i - 1] !== LF) {
    while (i < len && bytes[i] !== LF) i++;
    i++;
  }
  let ah = 0;
  let al: number = Tag.TEST_PLACE;
  let count = 0;
  while (i < len) {
    if (failedAt(bytes, i, len)) {
      const from = i + FAILED.length;
      let j = from;
      let pair = false;
      while (j < len && !endsId(bytes[j] as number)) {
        if (bytes[j] === COLON && j + 1 < len && bytes[j + 1] === COLON) pair = true;
        j++;
      }
      if (pair) {
        const l = xxh64(bytes, from, j, 0, Tag.TEST_PLACE);
        al = fold(ah, al, u64.hi, l);
        ah = u64.hi;
        count++;
      }
      i = j;
    }
    while (i < len && bytes[i] !== LF) i++;
    i++;
  }
  if (count === 0) {
    u64.hi = 0;
    return 0;
  }
  return close(ah, al, count);
}
