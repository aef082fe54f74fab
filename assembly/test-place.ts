// Where a failing test run failed: the twin of src/text/test-place.ts (the ids of the tests pytest's summary
// names, `FAILED tests/a.py::test_x - ...`, in the last PLACE_LOOK bytes of an error, folded in order).
import { PLACE_LOOK } from './abi';
import { TAG_TEST_PLACE, close, fold } from './combine';
import { xxh64 } from './xxh64';

const LF: u32 = 0x0a;
const CR: u32 = 0x0d;
const SPACE: u32 = 0x20;
const TAB: u32 = 0x09;
const COLON: u32 = 0x3a;

// @ts-ignore: decorator
@inline function endsId(b: u32): bool {
  return b == SPACE || b == TAB || b == CR || b == LF;
}

/** Whether [p, end) begins with `FAILED `. */
function failedAt(p: usize, end: usize): bool {
  if (end - p < 7) return false;
  return load<u32>(p) == 0x4c494146 && load<u16>(p, 4) == 0x4445 && load<u8>(p, 6) == 0x20;
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
    if (failedAt(i, end)) {
      const from = i + 7;
      let j = from;
      let pair = false;
      while (j < end && !endsId(<u32>load<u8>(j))) {
        if (<u32>load<u8>(j) == COLON && j + 1 < end && <u32>load<u8>(j + 1) == COLON) pair = true;
        j++;
      }
      if (pair) {
        acc = fold(acc, xxh64(from, j - from, TAG_TEST_PLACE));
        count++;
      }
      i = j;
    }
    while (i < end && <u32>load<u8>(i) != LF) i++;
    i++;
  }
  return count == 0 ? 0 : close(acc, count);
}
