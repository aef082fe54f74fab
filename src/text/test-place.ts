/**
 * Where a failing test run failed: the ids of the tests a test runner names as failed, over UTF-8 bytes, so
 * the WebAssembly build reproduces it byte for byte (`assembly/test-place.ts`).
 *
 * An error's class (mask-volatile.ts) masks paths, numbers and quoted parts, so the same wall hit with other
 * arguments is one class: `pip install foo==1.2`, `foo==1.3`, ... failing alike. A test run's output masks
 * alike whichever test failed (`FAILED <path> - assert <n> == <n>`), so a developer fixing a suite file by
 * file (`pytest tests/test_a.py`, then `tests/test_b.py`, each failing with an AssertionError of its own) was
 * read as one wall. The tests that failed are the failure's place: the class of a failure that names them
 * is its masked text and that place together (observe-event.ts), so the same tests failing again (after edits
 * that do not help, or run with other flags) are one class, and other tests failing are another.
 *
 * Read: the last {@link PLACE_LOOK} bytes (the runners write their summaries last), from the first line that
 * begins there; a line names a failed test when it begins (the id in brackets):
 * - pytest: `FAILED [tests/a.py::test_x] - ...`, the word holding `::` (a node id);
 * - vitest: ` FAIL  [src/a.test.ts > suite > test]`, the rest of the line, holding ` > `;
 * - jest: `  ● [suite › test]`, the rest of the line, holding ` › `;
 * - go test: `--- FAIL: [TestX] (0.00s)`, and a subtest's, indented by spaces: `    --- FAIL: [TestX/case]`;
 * - cargo test (libtest): `test [a::b] ... FAILED` and `---- [a::b] stdout ----`;
 * - rspec: `rspec ./[spec/a_spec.rb:12 # Suite test]`, the rest of the line.
 *
 * A run that fails before any test names none, and stays one wall whichever file it ran: pytest's `ERROR
 * <file>`, vitest's failed suite (` FAIL  file [ file ]`), jest's `● Test suite failed to run` and its `FAIL
 * <file>` (printed for a file failing tests and for one that does not load alike), go's `FAIL\t<pkg> [build
 * failed]`, a crate that does not compile, rspec's `An error occurred while loading`. mocha's numbered
 * failures (`  1) Suite` then the test on the next line) and phpunit's are not read. No id: no place (0),
 * and the class is the masked text's alone, as before.
 *
 * The place is `close(fold(...fold(TEST_PLACE, xxh64(id1, TEST_PLACE)...), count)`, in the order printed;
 * pytest's ids hash as they did.
 */
import { Tag, close, fold } from '../fingerprint/combine.js';
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';

/** Bytes at the end of an error read for the tests that failed. */
export const PLACE_LOOK = 16384;

/** ASCII text as its bytes. */
function ascii(t: string): readonly number[] {
  return Array.from(t, (c) => c.charCodeAt(0));
}

/** pytest's summary line: `FAILED <file>::<test> - <message>`. */
const PYTEST = ascii('FAILED ');
/** vitest's failed test: ` FAIL  <file> > <suite> > <test>`. */
const VITEST = ascii(' FAIL  ');
/** jest's failed test heading: `  ● <suite> › <test>` (U+25CF, a space). */
const JEST = [0x20, 0x20, 0xe2, 0x97, 0x8f, 0x20];
/** go test's failed test: `--- FAIL: TestName (0.00s)`. */
const GO = ascii('--- FAIL: ');
/** cargo test's (libtest's) failed test: `test <path>::<name> ... FAILED`. */
const CARGO = ascii('test ');
/** What follows the test's path on cargo test's line. */
const CARGO_TAIL = ascii(' ... FAILED');
/** libtest's heading of a failed test's output: `---- <path>::<name> stdout ----`. */
const CARGO_OUT = ascii('---- ');
/** What follows the test's path in libtest's heading. */
const CARGO_OUT_TAIL = ascii(' stdout ----');
/** rspec's failed example: `rspec ./spec/x_spec.rb:12 # Orders total`. */
const RSPEC = ascii('rspec ./');
/** vitest's separator of file, suites and test. */
const GT = ascii(' > ');
/** jest's separator of suites and test: ` › ` (U+203A). */
const ANGLE = [0x20, 0xe2, 0x80, 0xba, 0x20];

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;

/** Whether `b` ends an id (white space). */
function endsId(b: number): boolean {
  return b === SPACE || b === TAB || b === CR || b === LF;
}

/** Whether `bytes[i, end)` begins with `pat`. */
function at(bytes: Uint8Array, i: number, end: number, pat: readonly number[]): boolean {
  if (end - i < pat.length) return false;
  for (let k = 0; k < pat.length; k++) if (bytes[i + k] !== pat[k]) return false;
  return true;
}

/** Whether `bytes[from, to)` holds `pat` (a few bytes long). */
function holds(bytes: Uint8Array, from: number, to: number, pat: readonly number[]): boolean {
  for (let k = from; k + pat.length <= to; k++) if (at(bytes, k, to, pat)) return true;
  return false;
}

/** Whether `bytes[from, to)` holds `::`. */
function holdsPair(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k + 1 < to; k++) if (bytes[k] === COLON && bytes[k + 1] === COLON) return true;
  return false;
}

/** The end of the word at `from` (the first white space byte, or `end`). */
function wordEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && !endsId(bytes[j] as number)) j++;
  return j;
}

/** The end of the spaces at `from` (a go subtest's indent). */
function indentEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && bytes[j] === SPACE) j++;
  return j;
}

/** The end of the line at `from` without its CR (the first CR or LF, or `end`). */
function textEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  while (j < end && bytes[j] !== LF && bytes[j] !== CR) j++;
  return j;
}

/** The id a line at `i` names as a failed test, as `[from, to)` in `span`; false when it names none. */
function failedId(bytes: Uint8Array, i: number, end: number, span: number[]): boolean {
  let from = -1;
  let to = -1;
  if (at(bytes, i, end, PYTEST)) {
    from = i + PYTEST.length;
    to = wordEnd(bytes, from, end);
    if (!holdsPair(bytes, from, to)) return false;
  } else if (at(bytes, i, end, VITEST)) {
    from = i + VITEST.length;
    to = textEnd(bytes, from, end);
    if (!holds(bytes, from, to, GT)) return false;
  } else if (at(bytes, i, end, JEST)) {
    from = i + JEST.length;
    to = textEnd(bytes, from, end);
    if (!holds(bytes, from, to, ANGLE)) return false;
  } else if (at(bytes, indentEnd(bytes, i, end), end, GO)) {
    from = indentEnd(bytes, i, end) + GO.length;
    to = wordEnd(bytes, from, end);
  } else if (at(bytes, i, end, CARGO)) {
    from = i + CARGO.length;
    to = wordEnd(bytes, from, end);
    if (!at(bytes, to, end, CARGO_TAIL)) return false;
  } else if (at(bytes, i, end, CARGO_OUT)) {
    from = i + CARGO_OUT.length;
    to = wordEnd(bytes, from, end);
    if (!at(bytes, to, end, CARGO_OUT_TAIL)) return false;
  } else if (at(bytes, i, end, RSPEC)) {
    from = i + RSPEC.length;
    to = textEnd(bytes, from, end);
  } else {
    return false;
  }
  if (to === from) return false;
  span[0] = from;
  span[1] = to;
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
  const span = [0, 0];
  while (i < len) {
    if (failedId(bytes, i, len, span)) {
      const l = xxh64(bytes, span[0] as number, span[1] as number, 0, Tag.TEST_PLACE);
      al = fold(ah, al, u64.hi, l);
      ah = u64.hi;
      count++;
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
