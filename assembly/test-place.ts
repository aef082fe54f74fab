// Where a failing test run failed: the twin of src/text/test-place.ts (the ids of the tests a runner names as
// failed, in the last PLACE_LOOK bytes of an error, folded in order): pytest's `FAILED tests/a.py::test_x`,
// vitest's ` FAIL  file > suite > test`, jest's `  ● suite › test` (or, below a `FAIL file`, `  ● test`
// but for its own headings) of its last `FAIL file`, go test's `--- FAIL: TestX` and the `FAIL\tpkg` after
// them, libtest's list after `failures:` (`    a::b`), rspec's `rspec ./spec/x_spec.rb:12 # desc` without
// the line number, mocha's `  1) Suite` ... `test:` after its `  <n> failing`, phpunit's `1) A::testB` after
// its `There was 1 failure:`, and its testdox's ` ✘ test` of its last class heading, unless it erred.
import { PLACE_LOOK } from './abi';
import { TAG_TEST_PLACE, close, fold } from './combine';
import { xxh64 } from './xxh64';

const LF: u32 = 0x0a;
const CR: u32 = 0x0d;
const SPACE: u32 = 0x20;
const TAB: u32 = 0x09;
const COLON: u32 = 0x3a;
const ZERO: u32 = 0x30;
const NINE: u32 = 0x39;
const CLOSE: u32 = 0x29;
const BACKSLASH: u32 = 0x5c;
const BOX: u32 = 0xe2; // box drawing, U+2500..U+257F: 0xe2 then 0x94 or 0x95

// the runners' marks, as bytes (their lengths beside them)
const PYTEST: usize = memory.data<u8>([0x46, 0x41, 0x49, 0x4c, 0x45, 0x44, 0x20]); // `FAILED `
const PYTEST_N: usize = 7;
const VITEST: usize = memory.data<u8>([0x20, 0x46, 0x41, 0x49, 0x4c, 0x20, 0x20]); // ` FAIL  `
const VITEST_N: usize = 7;
const JEST: usize = memory.data<u8>([0x20, 0x20, 0xe2, 0x97, 0x8f, 0x20]); // `  ● `
const JEST_N: usize = 6;
const JEST_FILE: usize = memory.data<u8>([0x46, 0x41, 0x49, 0x4c, 0x20]); // `FAIL ` (jest's file header)
const JEST_FILE_N: usize = 5;
const JEST_SUITE_FAILED: usize = memory.data<u8>([0x54, 0x65, 0x73, 0x74, 0x20, 0x73, 0x75, 0x69, 0x74, 0x65, 0x20, 0x66, 0x61, 0x69, 0x6c, 0x65, 0x64, 0x20, 0x74, 0x6f, 0x20, 0x72, 0x75, 0x6e]); // `Test suite failed to run`
const JEST_SUITE_FAILED_N: usize = 24;
const JEST_CONSOLE: usize = memory.data<u8>([0x43, 0x6f, 0x6e, 0x73, 0x6f, 0x6c, 0x65]); // `Console`
const JEST_CONSOLE_N: usize = 7;
const GO: usize = memory.data<u8>([0x2d, 0x2d, 0x2d, 0x20, 0x46, 0x41, 0x49, 0x4c, 0x3a, 0x20]); // `--- FAIL: `
const GO_N: usize = 10;
const GO_PACKAGE: usize = memory.data<u8>([0x46, 0x41, 0x49, 0x4c, 0x09]); // `FAIL\t` (go test's failed package, after its tests)
const GO_PACKAGE_N: usize = 5;
const TESTDOX: usize = memory.data<u8>([0x20, 0xe2, 0x9c, 0x98, 0x20]); // ` ✘ ` (phpunit --testdox's failed test)
const TESTDOX_N: usize = 5;
const TESTDOX_CLASS: usize = memory.data<u8>([0x20, 0x28]); // ` (` (testdox's class heading, `Orders (Shop\Tests\Orders)`)
const TESTDOX_CLASS_N: usize = 2;
const PHP_ERROR: usize = memory.data<u8>([0x45, 0x72, 0x72, 0x6f, 0x72]); // `Error`
const PHP_ERROR_N: usize = 5;
const PHP_EXCEPTION: usize = memory.data<u8>([0x45, 0x78, 0x63, 0x65, 0x70, 0x74, 0x69, 0x6f, 0x6e]); // `Exception`
const PHP_EXCEPTION_N: usize = 9;
const CARGO_LIST: usize = memory.data<u8>([0x66, 0x61, 0x69, 0x6c, 0x75, 0x72, 0x65, 0x73, 0x3a]); // `failures:` (libtest's list of the failed tests' names)
const CARGO_LIST_N: usize = 9;
const CARGO_INDENT: usize = memory.data<u8>([0x20, 0x20, 0x20, 0x20]); // four spaces (a name's indent in that list)
const CARGO_INDENT_N: usize = 4;
const RSPEC: usize = memory.data<u8>([0x72, 0x73, 0x70, 0x65, 0x63, 0x20, 0x2e, 0x2f]); // `rspec ./`
const RSPEC_N: usize = 8;
const RSPEC_DESC: usize = memory.data<u8>([0x20, 0x23, 0x20]); // ` # ` (rspec's location, then description)
const RSPEC_DESC_N: usize = 3;
const MOCHA_COUNT: usize = memory.data<u8>([0x20, 0x66, 0x61, 0x69, 0x6c, 0x69, 0x6e, 0x67]); // ` failing` (mocha's `  <n> failing`)
const MOCHA_COUNT_N: usize = 8;
const MOCHA_INDENT: usize = memory.data<u8>([0x20, 0x20]); // two spaces (mocha's `  1) `)
const MOCHA_INDENT_N: usize = 2;
const MOCHA_MORE: usize = memory.data<u8>([0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]); // seven spaces (the further lines of mocha's title)
const MOCHA_MORE_N: usize = 7;
const PHPUNIT_THERE: usize = memory.data<u8>([0x54, 0x68, 0x65, 0x72, 0x65, 0x20, 0x77]); // `There w` (phpunit's section headings)
const PHPUNIT_THERE_N: usize = 7;
const PHPUNIT_FAILURE: usize = memory.data<u8>([0x20, 0x66, 0x61, 0x69, 0x6c, 0x75, 0x72, 0x65, 0x3a]); // ` failure:`
const PHPUNIT_FAILURE_N: usize = 9;
const PHPUNIT_FAILURES: usize = memory.data<u8>([0x20, 0x66, 0x61, 0x69, 0x6c, 0x75, 0x72, 0x65, 0x73, 0x3a]); // ` failures:`
const PHPUNIT_FAILURES_N: usize = 10;
const NUMBERED: usize = memory.data<u8>([0x29, 0x20]); // `) ` (after a failure's number)
const NUMBERED_N: usize = 2;
const GT: usize = memory.data<u8>([0x20, 0x3e, 0x20]); // ` > `
const GT_N: usize = 3;
const ANGLE: usize = memory.data<u8>([0x20, 0xe2, 0x80, 0xba, 0x20]); // ` › `
const ANGLE_N: usize = 5;

// the section of a runner's output the lines read are in (the twin's Section)
const NONE: i32 = 0;
const MOCHA: i32 = 1;
const PHPUNIT: i32 = 2;
const CARGO: i32 = 3;

// what a scan holds from line to line (the twin's Scan): the id a line names, [idFrom, idTo), hashed with
// seed; the section; jest's file's hash and whether one was read; testdox's class heading's; go's ids since
// its last package line
let idFrom: usize = 0;
let idTo: usize = 0;
let section: i32 = NONE;
let seed: u64 = TAG_TEST_PLACE;
let jestFile: u64 = TAG_TEST_PLACE;
let jestFileSeen: bool = false;
let testdoxClassFrom: usize = 0; // 0 before a heading (no line starts at address 0)
let testdoxClassTo: usize = 0;
let testdoxClassHashed: usize = 0;
let testdoxClass: u64 = TAG_TEST_PLACE;
let goIds: i32 = 0;

// @ts-ignore: decorator
@inline function endsId(b: u32): bool {
  return b == SPACE || b == TAB || b == CR || b == LF;
}

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b >= ZERO && b <= NINE;
}

/** Whether [p, end) begins with the n bytes at pat. */
function at(p: usize, end: usize, pat: usize, n: usize): bool {
  if (end < p || end - p < n) return false;
  for (let k: usize = 0; k < n; k++) if (load<u8>(p + k) != load<u8>(pat + k)) return false;
  return true;
}

/** Where the n bytes at pat first begin in [from, to), or 0 (no id starts at address 0). */
function find(from: usize, to: usize, pat: usize, n: usize): usize {
  for (let k = from; k + n <= to; k++) if (at(k, to, pat, n)) return k;
  return 0;
}

/** Whether [from, to) holds `::`. */
function holdsPair(from: usize, to: usize): bool {
  for (let k = from; k + 1 < to; k++) if (<u32>load<u8>(k) == COLON && <u32>load<u8>(k + 1) == COLON) return true;
  return false;
}

/** The end of the word at from (the first white space byte, or end). */
function wordEnd(from: usize, end: usize): usize {
  let j = from;
  while (j < end && !endsId(<u32>load<u8>(j))) j++;
  return j;
}

/** The end of the spaces at from (a go subtest's indent). */
function indentEnd(from: usize, end: usize): usize {
  let j = from;
  while (j < end && <u32>load<u8>(j) == SPACE) j++;
  return j;
}

/** The end of the digits at from. */
function digitsEnd(from: usize, end: usize): usize {
  let j = from;
  while (j < end && isDigit(<u32>load<u8>(j))) j++;
  return j;
}

/** The end of the line at from without its CR (the first CR or LF, or end). */
function textEnd(from: usize, end: usize): usize {
  let j = from;
  while (j < end && <u32>load<u8>(j) != LF && <u32>load<u8>(j) != CR) j++;
  return j;
}

/** The start of the line after the one at from (end past the last). */
function nextLine(from: usize, end: usize): usize {
  let j = from;
  while (j < end && <u32>load<u8>(j) != LF) j++;
  return j < end ? j + 1 : end;
}

/** Whether [i, to) is `<n>) ` and more: the start of what follows, or 0. */
function numbered(i: usize, to: usize): usize {
  const d = digitsEnd(i, to);
  return d > i && at(d, to, NUMBERED, NUMBERED_N) ? d + NUMBERED_N : 0;
}

/** The end (its colon) of mocha's failure title from `from` on the line ending at `to`, or 0 (the twin's mochaTitleEnd). */
function mochaTitleEnd(from: usize, to: usize, end: usize): usize {
  let lineEnd = to;
  while (true) {
    if (lineEnd > from && <u32>load<u8>(lineEnd - 1) == COLON) return lineEnd - 1;
    const next = nextLine(lineEnd, end);
    if (next >= end || !at(next, end, MOCHA_MORE, MOCHA_MORE_N)) return 0;
    lineEnd = textEnd(next, end);
  }
  return 0;
}

/** Sets the section a heading line [i, to) opens (or jest's file); false when the line is none. */
function heading(i: usize, to: usize): bool {
  const n = to - i;
  if (n == CARGO_LIST_N && at(i, to, CARGO_LIST, CARGO_LIST_N)) {
    section = CARGO;
    return true;
  }
  if (at(i, to, MOCHA_INDENT, MOCHA_INDENT_N)) {
    const d = digitsEnd(i + MOCHA_INDENT_N, to);
    if (d > i + MOCHA_INDENT_N && d + MOCHA_COUNT_N == to && at(d, to, MOCHA_COUNT, MOCHA_COUNT_N)) {
      section = MOCHA;
      return true;
    }
    return false;
  }
  if (at(i, to, PHPUNIT_THERE, PHPUNIT_THERE_N)) {
    const failures = (n >= PHPUNIT_FAILURE_N && at(to - PHPUNIT_FAILURE_N, to, PHPUNIT_FAILURE, PHPUNIT_FAILURE_N)) || (n >= PHPUNIT_FAILURES_N && at(to - PHPUNIT_FAILURES_N, to, PHPUNIT_FAILURES, PHPUNIT_FAILURES_N));
    section = failures ? PHPUNIT : NONE;
    return true;
  }
  if (at(i, to, JEST_FILE, JEST_FILE_N)) {
    jestFile = xxh64(i + JEST_FILE_N, wordEnd(i + JEST_FILE_N, to) - (i + JEST_FILE_N), TAG_TEST_PLACE);
    jestFileSeen = true;
    return true;
  }
  return false;
}

/** The id a line [i, to) in a runner's section names, in [idFrom, idTo); false when it names none. */
function sectionId(i: usize, to: usize, end: usize): bool {
  if (section == CARGO) {
    if (!at(i, to, CARGO_INDENT, CARGO_INDENT_N) || to == i + CARGO_INDENT_N || <u32>load<u8>(i + CARGO_INDENT_N) == SPACE) {
      section = NONE;
      return false;
    }
    idFrom = i + CARGO_INDENT_N;
    idTo = to;
    return true;
  }
  if (section == MOCHA) {
    if (!at(i, to, MOCHA_INDENT, MOCHA_INDENT_N)) return false;
    const from = numbered(i + MOCHA_INDENT_N, to);
    if (from == 0) return false;
    const titleEnd = mochaTitleEnd(from, to, end);
    if (titleEnd <= from) return false;
    idFrom = from;
    idTo = titleEnd;
    return true;
  }
  if (section == PHPUNIT) {
    const from = numbered(i, to);
    if (from == 0 || !holdsPair(from, to)) return false;
    idFrom = from;
    idTo = to;
    return true;
  }
  return false;
}

/** Whether [from, to) is exactly the n bytes at pat. */
function isText(from: usize, to: usize, pat: usize, n: usize): bool {
  return to - from == n && at(from, to, pat, n);
}

/** Whether jest's title [from, to) with no ` › ` names a test: not one of jest's own headings (the twin's jestTopLevel). */
function jestTopLevel(from: usize, to: usize): bool {
  return <u32>load<u8>(from) != SPACE && !isText(from, to, JEST_SUITE_FAILED, JEST_SUITE_FAILED_N) && !isText(from, to, JEST_CONSOLE, JEST_CONSOLE_N);
}

/** Whether [i, to) is go test's `FAIL\t<package>` after ids of its tests: the package's id in [idFrom, idTo). */
function goPackage(i: usize, to: usize): bool {
  if (goIds == 0 || !at(i, to, GO_PACKAGE, GO_PACKAGE_N)) return false;
  goIds = 0;
  idFrom = i + GO_PACKAGE_N;
  idTo = wordEnd(idFrom, to);
  return idTo > idFrom;
}

/** Reads [i, to) as testdox's class heading (`Orders (Shop\Tests\Orders)`) when it is one. */
function readTestdoxClass(i: usize, to: usize): void {
  if (to == i || endsId(<u32>load<u8>(i)) || <u32>load<u8>(to - 1) != CLOSE || find(i, to, TESTDOX_CLASS, TESTDOX_CLASS_N) == 0) return;
  testdoxClassFrom = i;
  testdoxClassTo = to;
}

/** The hash of testdox's last class heading, hashed once (the twin's seedTestdoxClass). */
function testdoxClassSeed(): u64 {
  if (testdoxClassHashed != testdoxClassFrom) {
    testdoxClass = xxh64(testdoxClassFrom, testdoxClassTo - testdoxClassFrom, TAG_TEST_PLACE);
    testdoxClassHashed = testdoxClassFrom;
  }
  return testdoxClass;
}

/** The end of the spaces and box-drawing characters at from (testdox's frame, `   │ `). */
function frameEnd(from: usize, end: usize): usize {
  let j = from;
  while (true) {
    if (j < end && <u32>load<u8>(j) == SPACE) j++;
    else if (j + 2 < end && <u32>load<u8>(j) == BOX && (<u32>load<u8>(j + 1) == 0x94 || <u32>load<u8>(j + 1) == 0x95)) j += 3;
    else return j;
  }
  return j;
}

// @ts-ignore: decorator
@inline function isWordByte(b: u32): bool {
  return isDigit(b) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b == 0x5f;
}

/** Whether the testdox test whose line ends at to erred (the twin's testdoxError). */
function testdoxError(to: usize, end: usize): bool {
  let i = nextLine(to, end);
  while (i < end && <u32>load<u8>(i) == SPACE) {
    const t = textEnd(i, end);
    const c = frameEnd(i, t);
    if (c < t) {
      let k = c;
      while (k < t && (isWordByte(<u32>load<u8>(k)) || <u32>load<u8>(k) == BACKSLASH)) k++;
      if (k + 1 >= t || <u32>load<u8>(k) != COLON || <u32>load<u8>(k + 1) != SPACE) return false;
      return (k - c >= PHP_ERROR_N && at(k - PHP_ERROR_N, k, PHP_ERROR, PHP_ERROR_N)) || (k - c >= PHP_EXCEPTION_N && at(k - PHP_EXCEPTION_N, k, PHP_EXCEPTION, PHP_EXCEPTION_N));
    }
    i = nextLine(t, end);
  }
  return false;
}

/** The id a line [i, to) names as a failed test of a runner that needs no section, in [idFrom, idTo). */
function lineId(i: usize, to: usize, textEndAt: usize): bool {
  let from: usize = 0;
  let end: usize = 0;
  let go = false;
  if (at(i, to, PYTEST, PYTEST_N)) {
    from = i + PYTEST_N;
    end = wordEnd(from, to);
    if (!holdsPair(from, end)) return false;
  } else if (at(i, to, VITEST, VITEST_N)) {
    from = i + VITEST_N;
    end = to;
    if (find(from, end, GT, GT_N) == 0) return false;
  } else if (at(i, to, JEST, JEST_N)) {
    from = i + JEST_N;
    end = to;
    if (find(from, end, ANGLE, ANGLE_N) == 0 && !(jestFileSeen && from < end && jestTopLevel(from, end))) return false;
    seed = jestFile;
  } else if (at(indentEnd(i, to), to, GO, GO_N)) {
    from = indentEnd(i, to) + GO_N;
    end = wordEnd(from, to);
    go = true;
  } else if (testdoxClassFrom != 0 && at(i, to, TESTDOX, TESTDOX_N)) {
    from = i + TESTDOX_N;
    end = to;
    if (testdoxError(to, textEndAt)) return false;
    seed = testdoxClassSeed();
  } else if (at(i, to, RSPEC, RSPEC_N)) {
    // the location without its line number (an edit above the example moves it), then the description
    const loc = i + RSPEC_N;
    const desc = find(loc, to, RSPEC_DESC, RSPEC_DESC_N);
    let locTo = desc == 0 ? to : desc;
    let d = locTo;
    while (d > loc && isDigit(<u32>load<u8>(d - 1))) d--;
    if (d < locTo && d > loc && <u32>load<u8>(d - 1) == COLON) locTo = d - 1;
    if (locTo == loc) return false;
    if (desc == 0) {
      from = loc;
      end = locTo;
    } else {
      seed = xxh64(loc, locTo - loc, TAG_TEST_PLACE);
      from = desc + RSPEC_DESC_N;
      end = to;
    }
  } else {
    readTestdoxClass(i, to);
    return false;
  }
  if (end == from) return false;
  if (go) goIds++;
  idFrom = from;
  idTo = end;
  return true;
}

/** Whether the line at i names a failed test, after reading what it opens; its id in [idFrom, idTo), hashed with seed. */
function failedId(i: usize, end: usize): bool {
  const to = textEnd(i, end);
  seed = TAG_TEST_PLACE;
  if (heading(i, to)) return false;
  if (sectionId(i, to, end)) return true;
  if (goPackage(i, to)) return true;
  return lineId(i, to, end);
}

/** The place of the failure whose error text is [p, p + len): its 64-bit key, 0 when it names no test. */
export function testPlace(p: usize, len: usize): u64 {
  const end = p + len;
  let i = len > <usize>PLACE_LOOK ? end - <usize>PLACE_LOOK : p;
  // a cut inside a line: that line is not read
  if (i > p && <u32>load<u8>(i - 1) != LF) {
    while (i < end && <u32>load<u8>(i) != LF) i++;
    i++;
  }
  section = NONE;
  jestFile = TAG_TEST_PLACE;
  jestFileSeen = false;
  testdoxClassFrom = 0;
  testdoxClassTo = 0;
  testdoxClassHashed = 0;
  testdoxClass = TAG_TEST_PLACE;
  goIds = 0;
  let acc: u64 = TAG_TEST_PLACE;
  let count: u64 = 0;
  while (i < end) {
    if (failedId(i, end)) {
      acc = fold(acc, xxh64(idFrom, idTo - idFrom, seed));
      count++;
    }
    i = nextLine(i, end);
  }
  return count == 0 ? 0 : close(acc, count);
}
