/**
 * The module's reading of the tests a failure names (assembly/test-place.ts) against its TypeScript twin
 * (src/text/test-place.ts): the same 64-bit place for any text, `FAILED` lines and node ids placed at every
 * offset, around the PLACE_LOOK cut and past it; and the two PLACE_LOOKs are one number.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { u64 } from '../src/fingerprint/u64.js';
import { PLACE_LOOK as ABI_PLACE_LOOK } from '../src/wasm/generated/abi.js';
import { PLACE_LOOK, testPlace } from '../src/text/test-place.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();

/** The module's place of `bytes`. */
function wasmPlace(bytes: Uint8Array): bigint {
  const inst = sharedInstance();
  const at = inst.exports.reserveScratch(bytes.length + 16);
  inst.views().u8.set(bytes, at);
  return BigInt.asUintN(64, inst.exports.testPlace(at, bytes.length));
}

/** The twin's place of `bytes`. */
function tsPlace(bytes: Uint8Array): bigint {
  const lo = testPlace(bytes, bytes.length);
  return (BigInt(u64.hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

const piece = fc.oneof(
  fc.constantFrom('FAILED ', 'FAILED', 'FAILED tests/a.py::test_x', 'FAILED t.py::T::t[1-2] - assert 1 == 2', 'ERROR tests/b.py', 'FAILED (failures=1)', '::', ':', 'tests/test_a.py', ' - ', '\n', '\r\n', ' ', '\t', 'E   AssertionError', 'x', 'é', '🙂',
    ' FAIL  ', ' FAIL  src/a.test.ts > a > b', ' > ', '>', '  ● ', '  ● a › b', ' › ', '●', '›', '--- FAIL: ', '--- FAIL: TestA (0.00s)', '---- ', ' stdout ----', '---- a::b stdout ----', 'test ', ' ... FAILED', 'test a::b ... FAILED', ' ... ', 'rspec ./', 'rspec ./spec/a_spec.rb:12 # A b',
    'failures:', 'failures:\n', '    ', '    a::b\n', 'FAIL ', 'FAIL src/a.test.ts\n', ' # ', ':12', 'rspec ./spec/a_spec.rb', '  1 failing', '  1 failing\n', '  ', '       ', '  1) ', '1) ',
    '  1) A\n       b:', '  1) a:', ':\n', 'There was 1 failure:\n', 'There were 2 failures:', 'There were 2 errors:\n', 'There w', '1) A\\B::testC\n', ') ',
    '  ● Console', '  ● Test suite failed to run', '  ●  ', '  ● a\n', 'Console', 'FAIL\t', 'FAIL\tgithub.com/a/b\t0.01s\n', 'FAIL\ta [build failed]\n', '--- FAIL: TestA\n',
    ' ✘ ', ' ✘ Total\n', '✘', 'Orders (A\\B)\n', 'A (B)', ' (', ')', '   │', '   │ ', '│', '├', '┐', '┴', '\u2500', 'Error: ', 'Error:', 'Exception: ', 'TypeError: x', 'A\\BException: ', ': '),
  fc.string({ unit: fc.constantFrom('F', 'A', 'I', 'L', 'E', 'D', ' ', ':', '\n', 'a', '/', '-', '>', '.', '\r', 't', 's', '›', '●', '1', '2', ')', '#', '✘', '│', '(', '\t'), maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
/** A failed test's line of each runner read. */
const LINES = [
  'FAILED tests/test_orders.py::test_total[case3] - AssertionError: assert 1 == 2\n',
  ' FAIL  src/orders.test.ts > orders > total with discount case3\n',
  '  ● orders › total with discount case3\r\n',
  '--- FAIL: TestOrdersTotal (0.00s)\n',
  'failures:\n    orders::tests::total_case3\n    orders::tests::total_case4\n',
  'rspec ./spec/orders_spec.rb:41 # Orders total with discount case3\n',
  'FAIL src/orders.test.ts\n  ● orders › total with discount case3\n',
  '  1 failing\n\n  1) total\n       with coupons\n         applies discount case3:\n',
  'There was 1 failure:\n\n1) Shop\\Tests\\OrdersTest::testTotal with data set "case3" (17, 19)\n',
  'FAIL src/orders.test.js\n  ● Console\n\n  ● applies discount case3\n',
  '--- FAIL: TestTotal (0.00s)\nFAIL\ngithub.com/dev/shop/orders\nFAIL\tgithub.com/dev/shop/orders\t0.031s\n',
  'Orders (Shop\\Tests\\Orders)\n ✔ Sums lines\n ✘ Total with discount case 3\n   │\n   │ Failed asserting that 17 is identical to 19.\n',
  'Orders (Shop\\Tests\\Orders)\n ✘ Total\n   ┐\n   ├ Error: Class "X" not found\n ✘ Total with discount case 3\n\n',
  'Carts (A)\n ✘ Total\nOrders (Shop\\Tests\\Orders)\nx (y)\n ✘ Total\n',
];
const text = fc.array(piece, { maxLength: 80 }).map((ps) => ps.join(''));

describe('WebAssembly test place = TypeScript twin', () => {
  it('should read the same PLACE_LOOK', () => {
    expect(ABI_PLACE_LOOK).toBe(PLACE_LOOK);
  });

  it('should give the same place for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const bytes = utf8.encode(t);
        expect(wasmPlace(bytes)).toBe(tsPlace(bytes));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should give the same place with a summary line of each runner at every offset around the cut', () => {
    for (const line of LINES) {
      expect(tsPlace(utf8.encode(line)), line).not.toBe(0n);
      for (const at of [0, 1, 2, 7, 8, 30, line.length - 1]) {
        for (const fill of ['x', '\n']) {
          for (const extra of [-9, -8, -1, 0, 1, 7, 8, 80]) {
            const before = fill.repeat(Math.max(0, PLACE_LOOK + extra - at));
            const bytes = utf8.encode(`${before}${line.slice(at)}${line}`);
            expect(wasmPlace(bytes), `${JSON.stringify(line)} ${JSON.stringify(fill)} ${at} ${extra}`).toBe(tsPlace(bytes));
          }
        }
      }
    }
  });
});
