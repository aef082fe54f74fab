// Where a failing test run failed: the twin of src/text/test-place.ts (the ids of the tests a runner names as
// failed, in the last PLACE_LOOK bytes of an error, folded in order): pytest's `FAILED tests/a.py::test_x`,
// vitest's ` FAIL  file > suite > test`, jest's `  ● suite › test`, go test's `--- FAIL: TestX`, cargo
// test's `test a::b ... FAILED` and `---- a::b stdout ----`, rspec's `rspec ./spec/x_spec.rb:12`.
import { PLACE_LOOK } from './abi';
import { TAG_TEST_PLACE, close, fold } from './combine';
import { xxh64 } from './xxh64';

const LF: u32 = 0x0a;
const CR: u32 = 0x0d;
const SPACE: u32 = 0x20;
const TAB: u32 = 0x09;
const COLON: u32 = 0x3a;

// the runners' marks, as bytes (their lengths beside them)
const PYTEST: usize = memory.data<u8>([0x46, 0x41, 0x49, 0x4c, 0x45, 0x44, 0x20]); // `FAILED `
const PYTEST_N: usize = 7;
const VITEST: usize = memory.data<u8>([0x20, 0x46, 0x41, 0x49, 0x4c, 0x20, 0x20]); // ` FAIL  `
const VITEST_N: usize = 7;
const JEST: usize = memory.data<u8>([0x20, 0x20, 0xe2, 0x97, 0x8f, 0x20]); // `  ● `
const JEST_N: usize = 6;
const GO: usize = memory.data<u8>([0x2d, 0x2d, 0x2d, 0x20, 0x46, 0x41, 0x49, 0x4c, 0x3a, 0x20]); // `--- FAIL: `
const GO_N: usize = 10;
const CARGO: usize = memory.data<u8>([0x74, 0x65, 0x73, 0x74, 0x20]); // `test `
const CARGO_N: usize = 5;
const CARGO_TAIL: usize = memory.data<u8>([0x20, 0x2e, 0x2e, 0x2e, 0x20, 0x46, 0x41, 0x49, 0x4c, 0x45, 0x44]); // ` ... FAILED`
const CARGO_TAIL_N: usize = 11;
const CARGO_OUT: usize = memory.data<u8>([0x2d, 0x2d, 0x2d, 0x2d, 0x20]); // `---- `
const CARGO_OUT_N: usize = 5;
const CARGO_OUT_TAIL: usize = memory.data<u8>([0x20, 0x73, 0x74, 0x64, 0x6f, 0x75, 0x74, 0x20, 0x2d, 0x2d, 0x2d, 0x2d]); // ` stdout ----`
const CARGO_OUT_TAIL_N: usize = 12;
const RSPEC: usize = memory.data<u8>([0x72, 0x73, 0x70, 0x65, 0x63, 0x20, 0x2e, 0x2f]); // `rspec ./`
const RSPEC_N: usize = 8;
const GT: usize = memory.data<u8>([0x20, 0x3e, 0x20]); // ` > `
const GT_N: usize = 3;
const ANGLE: usize = memory.data<u8>([0x20, 0xe2, 0x80, 0xba, 0x20]); // ` › `
const ANGLE_N: usize = 5;

// the id a line names, [idFrom, idTo), set by failedId
let idFrom: usize = 0;
let idTo: usize = 0;

// @ts-ignore: decorator
@inline function endsId(b: u32): bool {
  return b == SPACE || b == TAB || b == CR || b == LF;
}

/** Whether [p, end) begins with the n bytes at pat. */
function at(p: usize, end: usize, pat: usize, n: usize): bool {
  if (end - p < n) return false;
  for (let k: usize = 0; k < n; k++) if (load<u8>(p + k) != load<u8>(pat + k)) return false;
  return true;
}

/** Whether [from, to) holds the n bytes at pat. */
function holds(from: usize, to: usize, pat: usize, n: usize): bool {
  for (let k = from; k + n <= to; k++) if (at(k, to, pat, n)) return true;
  return false;
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

/** The end of the line at from without its CR (the first CR or LF, or end). */
function textEnd(from: usize, end: usize): usize {
  let j = from;
  while (j < end && <u32>load<u8>(j) != LF && <u32>load<u8>(j) != CR) j++;
  return j;
}

/** Whether the line at i names a failed test; its id in [idFrom, idTo). */
function failedId(i: usize, end: usize): bool {
  let from: usize = 0;
  let to: usize = 0;
  if (at(i, end, PYTEST, PYTEST_N)) {
    from = i + PYTEST_N;
    to = wordEnd(from, end);
    if (!holdsPair(from, to)) return false;
  } else if (at(i, end, VITEST, VITEST_N)) {
    from = i + VITEST_N;
    to = textEnd(from, end);
    if (!holds(from, to, GT, GT_N)) return false;
  } else if (at(i, end, JEST, JEST_N)) {
    from = i + JEST_N;
    to = textEnd(from, end);
    if (!holds(from, to, ANGLE, ANGLE_N)) return false;
  } else if (at(indentEnd(i, end), end, GO, GO_N)) {
    from = indentEnd(i, end) + GO_N;
    to = wordEnd(from, end);
  } else if (at(i, end, CARGO, CARGO_N)) {
    from = i + CARGO_N;
    to = wordEnd(from, end);
    if (!at(to, end, CARGO_TAIL, CARGO_TAIL_N)) return false;
  } else if (at(i, end, CARGO_OUT, CARGO_OUT_N)) {
    from = i + CARGO_OUT_N;
    to = wordEnd(from, end);
    if (!at(to, end, CARGO_OUT_TAIL, CARGO_OUT_TAIL_N)) return false;
  } else if (at(i, end, RSPEC, RSPEC_N)) {
    from = i + RSPEC_N;
    to = textEnd(from, end);
  } else {
    return false;
  }
  if (to == from) return false;
  idFrom = from;
  idTo = to;
  return true;
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
  let acc: u64 = TAG_TEST_PLACE;
  let count: u64 = 0;
  while (i < end) {
    if (failedId(i, end)) {
      acc = fold(acc, xxh64(idFrom, idTo - idFrom, TAG_TEST_PLACE));
      count++;
    }
    while (i < end && <u32>load<u8>(i) != LF) i++;
    i++;
  }
  return count == 0 ? 0 : close(acc, count);
}
