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
 * - jest: `  ● [suite › test]`, the rest of the line, holding ` › `, of the file its last `FAIL <file>` names
 *   (jest's ids name no file; the same describe and test in two files are two tests); below a `FAIL <file>`, a
 *   test outside any describe too, `  ● [test]`, but for jest's own headings there, `● Test suite failed to run`
 *   (a file that does not load) and `● Console` (what its tests logged), and a title beginning with a space
 *   (`●  TCPSERVERWRAP`, an open handle);
 * - go test: `--- FAIL: [TestX] (0.00s)`, and a subtest's, indented by spaces: `    --- FAIL: [TestX/case]`;
 *   then the package they are of, `FAIL\t[github.com/a/b]\t0.004s` (printed after its tests), is read as an id
 *   as well, so `TestX` failing in two packages (`go test ./...`, a test file of one name in each) is two
 *   places; a package with no `--- FAIL:` line above it (`FAIL\t<pkg> [build failed]`) is not read;
 * - cargo test (libtest): after a line `failures:`, its list of the failed tests' names, `    [a::b]`, to the
 *   first line of another form (the list is sorted, and printed alike with and without `-q`; the `test a::b
 *   ... FAILED` lines and `---- a::b stdout ----` headings are not: the first are not in `-q`'s output, both
 *   come in the order the tests ended);
 * - rspec: `rspec ./[spec/a_spec.rb]:12 # [Suite test]`, the file without the line number (an edit above the
 *   example moves it) and the description;
 * - mocha: after its `  <n> failing`, `  1) [Suite` and the title's further lines, indented seven spaces and
 *   more, to the one ending with `:` (`       test]:`), suites and test alike;
 * - phpunit: after its `There was 1 failure:` or `There were <n> failures:`, `1) [Tests\A::testB ...]`, the rest
 *   of the line after the number, holding `::`. Its errors (`There were <n> errors:`: an exception, a class
 *   not found in every file) are not read;
 * - phpunit's `--testdox`: below a class's heading (`Orders (Shop\Tests\Orders)`: a line at the margin ending
 *   with `)`, holding ` (`), each ` ✘ [Total with discount case 3]`, the rest of the line, of that heading's
 *   class; but not an error, whose message (the first line below it with more than spaces and box-drawing
 *   characters, `   │ Error: Class "X" not found`) begins with a PHP class name ending `Error` or `Exception`
 *   and `: `, as its errors are not read without `--testdox` (PHPUnit 9 marks failures and errors alike, `✘`).
 *
 * A run that fails before any test names none, and stays one wall whichever file it ran: pytest's `ERROR
 * <file>`, vitest's failed suite (` FAIL  file [ file ]`), jest's `● Test suite failed to run` and its `FAIL
 * <file>` (printed for a file failing tests and for one that does not load alike), go's `FAIL\t<pkg> [build
 * failed]`, a crate that does not compile, rspec's `An error occurred while loading`, mocha's `Error: Cannot
 * find module` before its summary, phpunit's class not found (an error, or a runner warning). No id: no place
 * (0), and the class is the masked text's alone, as before.
 *
 * The place is `close(fold(...fold(TEST_PLACE, xxh64(id1, seed1)...), count)`, in the order printed, each
 * id's seed TEST_PLACE, or `xxh64(file, TEST_PLACE)` for jest's and rspec's, `xxh64(heading, TEST_PLACE)` for
 * testdox's; pytest's ids hash as they did.
 */
import { Tag, close, fold } from '../fingerprint/combine.js';
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';
import { ascii, at, digitsEnd, endsId, find, holdsPair, indentEnd, isText, isWordByte, nextLine, textEnd, wordEnd } from './line-bytes.js';

/** Bytes at the end of an error read for the tests that failed. */
export const PLACE_LOOK = 16384;

/** pytest's summary line: `FAILED <file>::<test> - <message>`. */
const PYTEST = ascii('FAILED ');
/** vitest's failed test: ` FAIL  <file> > <suite> > <test>`. */
const VITEST = ascii(' FAIL  ');
/** jest's failed test heading: `  ● <suite> › <test>` (U+25CF, a space). */
const JEST = [0x20, 0x20, 0xe2, 0x97, 0x8f, 0x20];
/** jest's header of a test file's results: `FAIL <file>` (no colours). */
const JEST_FILE = ascii('FAIL ');
/** jest's headings below a file's `FAIL <file>` that name no test: a file that does not load, what its tests logged. */
const JEST_SUITE_FAILED = ascii('Test suite failed to run');
const JEST_CONSOLE = ascii('Console');
/** go test's failed test: `--- FAIL: TestName (0.00s)`. */
const GO = ascii('--- FAIL: ');
/** go test's line of a package that failed, after its tests: `FAIL\t<package>\t0.004s`. */
const GO_PACKAGE = ascii('FAIL\t');
/** phpunit's `--testdox` failed (or erred) test: ` ✘ <name>` (U+2718). */
const TESTDOX = [0x20, 0xe2, 0x9c, 0x98, 0x20];
/** What parts a testdox class heading's name from its class: `Orders (Shop\Tests\Orders)`. */
const TESTDOX_CLASS = ascii(' (');
/** The endings of a PHP throwable's class name (`Error`, `TypeError`, `RuntimeException`). */
const PHP_ERROR = ascii('Error');
const PHP_EXCEPTION = ascii('Exception');
/** libtest's (cargo test's) heading of the failed tests' names: `failures:`, each name on a line of its own. */
const CARGO_LIST = ascii('failures:');
/** The indent of a name in libtest's list. */
const CARGO_INDENT = ascii('    ');
/** rspec's failed example: `rspec ./spec/x_spec.rb:12 # Orders total`. */
const RSPEC = ascii('rspec ./');
/** What parts rspec's location from the example's description. */
const RSPEC_DESC = ascii(' # ');
/** mocha's summary of the failed tests' count, `  <n> failing`: its failures follow. */
const MOCHA_COUNT = ascii(' failing');
/** The indent of mocha's numbered failure (`  1) <suite>`) and of its title's further lines (seven spaces and more). */
const MOCHA_INDENT = ascii('  ');
const MOCHA_MORE = ascii('       ');
/** phpunit's heading of a section: `There was 1 failure:`, `There were 2 errors:`. */
const PHPUNIT_THERE = ascii('There w');
/** The ends of phpunit's headings of its failures. */
const PHPUNIT_FAILURE = ascii(' failure:');
const PHPUNIT_FAILURES = ascii(' failures:');
/** The end of a numbered failure's number: `1) `. */
const NUMBERED = ascii(') ');
/** vitest's separator of file, suites and test. */
const GT = ascii(' > ');
/** jest's separator of suites and test: ` › ` (U+203A). */
const ANGLE = [0x20, 0xe2, 0x80, 0xba, 0x20];

const LF = 0x0a;
const SPACE = 0x20;
const COLON = 0x3a;
const ZERO = 0x30;
const NINE = 0x39;
const CLOSE = 0x29;
const BACKSLASH = 0x5c;
/** The lead bytes of U+2500..U+257F, box drawing (testdox's `│`, `├`, `┐`, `┴`): 0xe2 then 0x94 or 0x95. */
const BOX = 0xe2;

/** The section of a runner's output the lines read are in: where a numbered or indented line names a test. */
const enum Section {
  NONE = 0,
  /** After mocha's `  <n> failing`: `  1) <suite>` ... `<test>:`. */
  MOCHA = 1,
  /** After phpunit's `There was 1 failure:`: `1) <class>::<method>` (its errors' sections are not read). */
  PHPUNIT = 2,
  /** After libtest's `failures:`: `    <path>::<name>`, to the first other line. */
  CARGO = 3,
}

/** What a scan holds from line to line: the id a line names, the section, the seed of jest's and rspec's ids. */
interface Scan {
  from: number;
  to: number;
  section: Section;
  /** The seed of the id's hash: its file's, for jest's and rspec's; its class heading's for testdox's; else TEST_PLACE. */
  seedHi: number;
  seedLo: number;
  /** The hash of jest's file (its last `FAIL <file>`), or TEST_PLACE before one; whether one was read. */
  fileHi: number;
  fileLo: number;
  fileSeen: boolean;
  /** Where testdox's class heading (its last) is, -1 before one; the hash of the one at `classHashed`, hashed when a test of it is read. */
  classFrom: number;
  classTo: number;
  classHashed: number;
  classHi: number;
  classLo: number;
  /** go test's ids read since its last package line. */
  goIds: number;
}

/** Whether the line `bytes[i, to)` is `<n>) ` and more: the start of what follows, or -1. */
function numbered(bytes: Uint8Array, i: number, to: number): number {
  const d = digitsEnd(bytes, i, to);
  return d > i && at(bytes, d, to, NUMBERED) ? d + NUMBERED.length : -1;
}

/**
 * mocha's failure title from `from` (after `  <n>) `) on the line ending at `to`: its suites and test, one a
 * line, further lines indented seven spaces and more, the last ending with `:`. The title's end (its colon),
 * or -1 when no line of it ends so.
 */
function mochaTitleEnd(bytes: Uint8Array, from: number, to: number, end: number): number {
  let lineEnd = to;
  for (;;) {
    if (lineEnd > from && bytes[lineEnd - 1] === COLON) return lineEnd - 1;
    const next = nextLine(bytes, lineEnd, end);
    if (next >= end || !at(bytes, next, end, MOCHA_MORE)) return -1;
    lineEnd = textEnd(bytes, next, end);
  }
}

/** Sets the section a heading line `bytes[i, to)` opens; false when the line is none. */
function heading(bytes: Uint8Array, i: number, to: number, scan: Scan): boolean {
  if (to - i === CARGO_LIST.length && at(bytes, i, to, CARGO_LIST)) {
    scan.section = Section.CARGO;
  } else if (at(bytes, i, to, MOCHA_INDENT) && digitsEnd(bytes, i + 2, to) > i + 2 && digitsEnd(bytes, i + 2, to) + MOCHA_COUNT.length === to && at(bytes, digitsEnd(bytes, i + 2, to), to, MOCHA_COUNT)) {
    scan.section = Section.MOCHA;
  } else if (at(bytes, i, to, PHPUNIT_THERE)) {
    const n = to - i;
    const failures = (n >= PHPUNIT_FAILURE.length && at(bytes, to - PHPUNIT_FAILURE.length, to, PHPUNIT_FAILURE)) || (n >= PHPUNIT_FAILURES.length && at(bytes, to - PHPUNIT_FAILURES.length, to, PHPUNIT_FAILURES));
    scan.section = failures ? Section.PHPUNIT : Section.NONE;
  } else if (at(bytes, i, to, JEST_FILE)) {
    const w = wordEnd(bytes, i + JEST_FILE.length, to);
    scan.fileLo = xxh64(bytes, i + JEST_FILE.length, w, 0, Tag.TEST_PLACE);
    scan.fileHi = u64.hi;
    scan.fileSeen = true;
  } else {
    return false;
  }
  return true;
}

/** The id a line in a runner's section names, in `scan`; false when it names none. */
function sectionId(bytes: Uint8Array, i: number, to: number, end: number, scan: Scan): boolean {
  if (scan.section === Section.CARGO) {
    if (!at(bytes, i, to, CARGO_INDENT) || to === i + CARGO_INDENT.length || bytes[i + CARGO_INDENT.length] === SPACE) {
      scan.section = Section.NONE;
      return false;
    }
    scan.from = i + CARGO_INDENT.length;
    scan.to = to;
    return true;
  }
  if (scan.section === Section.MOCHA) {
    if (!at(bytes, i, to, MOCHA_INDENT)) return false;
    const from = numbered(bytes, i + MOCHA_INDENT.length, to);
    if (from < 0) return false;
    const titleEnd = mochaTitleEnd(bytes, from, to, end);
    if (titleEnd <= from) return false;
    scan.from = from;
    scan.to = titleEnd;
    return true;
  }
  if (scan.section === Section.PHPUNIT) {
    const from = numbered(bytes, i, to);
    if (from < 0 || !holdsPair(bytes, from, to)) return false;
    scan.from = from;
    scan.to = to;
    return true;
  }
  return false;
}

/** Whether jest's title `bytes[from, to)` with no ` › ` names a test: not one of jest's own headings. */
function jestTopLevel(bytes: Uint8Array, from: number, to: number): boolean {
  return bytes[from] !== SPACE && !isText(bytes, from, to, JEST_SUITE_FAILED) && !isText(bytes, from, to, JEST_CONSOLE);
}

/** Whether the line `bytes[i, to)` is go test's `FAIL\t<package>` after ids of its tests: the package's id, in `scan`. */
function goPackage(bytes: Uint8Array, i: number, to: number, scan: Scan): boolean {
  if (scan.goIds === 0 || !at(bytes, i, to, GO_PACKAGE)) return false;
  scan.goIds = 0;
  scan.from = i + GO_PACKAGE.length;
  scan.to = wordEnd(bytes, scan.from, to);
  return scan.to > scan.from;
}

/** Reads the line `bytes[i, to)` as testdox's class heading (`Orders (Shop\Tests\Orders)`) when it is one. */
function testdoxClass(bytes: Uint8Array, i: number, to: number, scan: Scan): void {
  if (to === i || endsId(bytes[i] as number) || bytes[to - 1] !== CLOSE || find(bytes, i, to, TESTDOX_CLASS) < 0) return;
  scan.classFrom = i;
  scan.classTo = to;
}

/** Seeds the id with the hash of testdox's last class heading, hashed once (a line of that shape is common, a test under it not). */
function seedTestdoxClass(bytes: Uint8Array, scan: Scan): void {
  if (scan.classHashed !== scan.classFrom) {
    scan.classLo = xxh64(bytes, scan.classFrom, scan.classTo, 0, Tag.TEST_PLACE);
    scan.classHi = u64.hi;
    scan.classHashed = scan.classFrom;
  }
  scan.seedHi = scan.classHi;
  scan.seedLo = scan.classLo;
}

/** The end of the spaces and box-drawing characters at `from` (testdox's frame, `   │ `). */
function frameEnd(bytes: Uint8Array, from: number, end: number): number {
  let j = from;
  for (;;) {
    if (j < end && bytes[j] === SPACE) j++;
    else if (j + 2 < end && bytes[j] === BOX && (bytes[j + 1] === 0x94 || bytes[j + 1] === 0x95)) j += 3;
    else return j;
  }
}

/**
 * Whether the testdox test whose line ends at `to` erred: the first line below it with more than its frame,
 * while lines begin with a space, begins with a PHP class name ending `Error` or `Exception`, then `: `.
 */
function testdoxError(bytes: Uint8Array, to: number, end: number): boolean {
  let i = nextLine(bytes, to, end);
  while (i < end && bytes[i] === SPACE) {
    const t = textEnd(bytes, i, end);
    const c = frameEnd(bytes, i, t);
    if (c < t) {
      let k = c;
      while (k < t && (isWordByte(bytes[k] as number) || bytes[k] === BACKSLASH)) k++;
      if (k + 1 >= t || bytes[k] !== COLON || bytes[k + 1] !== SPACE) return false;
      return (k - c >= PHP_ERROR.length && at(bytes, k - PHP_ERROR.length, k, PHP_ERROR)) || (k - c >= PHP_EXCEPTION.length && at(bytes, k - PHP_EXCEPTION.length, k, PHP_EXCEPTION));
    }
    i = nextLine(bytes, t, end);
  }
  return false;
}

/** The id a line `bytes[i, to)` names as a failed test of a runner that needs no section, in `scan`. */
function lineId(bytes: Uint8Array, i: number, to: number, end: number, scan: Scan): boolean {
  let from = -1;
  let idTo = -1;
  let go = false;
  if (at(bytes, i, to, PYTEST)) {
    from = i + PYTEST.length;
    idTo = wordEnd(bytes, from, to);
    if (!holdsPair(bytes, from, idTo)) return false;
  } else if (at(bytes, i, to, VITEST)) {
    from = i + VITEST.length;
    idTo = to;
    if (find(bytes, from, idTo, GT) < 0) return false;
  } else if (at(bytes, i, to, JEST)) {
    from = i + JEST.length;
    idTo = to;
    if (find(bytes, from, idTo, ANGLE) < 0 && !(scan.fileSeen && from < idTo && jestTopLevel(bytes, from, idTo))) return false;
    scan.seedHi = scan.fileHi;
    scan.seedLo = scan.fileLo;
  } else if (at(bytes, indentEnd(bytes, i, to), to, GO)) {
    from = indentEnd(bytes, i, to) + GO.length;
    idTo = wordEnd(bytes, from, to);
    go = true;
  } else if (scan.classFrom >= 0 && at(bytes, i, to, TESTDOX)) {
    from = i + TESTDOX.length;
    idTo = to;
    if (testdoxError(bytes, to, end)) return false;
    seedTestdoxClass(bytes, scan);
  } else if (at(bytes, i, to, RSPEC)) {
    // the location without its line number (an edit above the example moves it), then the description
    const loc = i + RSPEC.length;
    const desc = find(bytes, loc, to, RSPEC_DESC);
    let locTo = desc < 0 ? to : desc;
    let d = locTo;
    while (d > loc && (bytes[d - 1] as number) >= ZERO && (bytes[d - 1] as number) <= NINE) d--;
    if (d < locTo && d > loc && bytes[d - 1] === COLON) locTo = d - 1;
    if (locTo === loc) return false;
    if (desc < 0) {
      from = loc;
      idTo = locTo;
    } else {
      scan.seedLo = xxh64(bytes, loc, locTo, 0, Tag.TEST_PLACE);
      scan.seedHi = u64.hi;
      from = desc + RSPEC_DESC.length;
      idTo = to;
    }
  } else {
    testdoxClass(bytes, i, to, scan);
    return false;
  }
  if (idTo === from) return false;
  if (go) scan.goIds++;
  scan.from = from;
  scan.to = idTo;
  return true;
}

/** The id the line at `i` names as a failed test, in `scan`, after reading what the line opens. */
function failedId(bytes: Uint8Array, i: number, end: number, scan: Scan): boolean {
  const to = textEnd(bytes, i, end);
  scan.seedHi = 0;
  scan.seedLo = Tag.TEST_PLACE;
  if (heading(bytes, i, to, scan)) return false;
  if (sectionId(bytes, i, to, end, scan)) return true;
  if (goPackage(bytes, i, to, scan)) return true;
  return lineId(bytes, i, to, end, scan);
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
  const scan: Scan = { from: 0, to: 0, section: Section.NONE, seedHi: 0, seedLo: Tag.TEST_PLACE, fileHi: 0, fileLo: Tag.TEST_PLACE, fileSeen: false, classFrom: -1, classTo: -1, classHashed: -1, classHi: 0, classLo: Tag.TEST_PLACE, goIds: 0 };
  while (i < len) {
    if (failedId(bytes, i, len, scan)) {
      const l = xxh64(bytes, scan.from, scan.to, scan.seedHi, scan.seedLo);
      al = fold(ah, al, u64.hi, l);
      ah = u64.hi;
      count++;
    }
    i = nextLine(bytes, i, len);
  }
  if (count === 0) {
    u64.hi = 0;
    return 0;
  }
  return close(ah, al, count);
}
