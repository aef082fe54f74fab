/**
 * The place of a failure (src/text/test-place.ts): the tests pytest's short summary names as failed, in the
 * last PLACE_LOOK bytes of the error. The same tests failing give one place whatever else the output says;
 * other tests another; no node id (a collection error, unittest's `FAILED (failures=1)`) gives none.
 */
import { describe, expect, it } from 'vitest';
import { u64 } from '../src/fingerprint/u64.js';
import { PLACE_LOOK, testPlace } from '../src/text/test-place.js';
import { pytestCollectionError, pytestOutput } from './helpers/pytest-output.js';
import { RUNNERS } from './helpers/runner-output.js';

const utf8 = new TextEncoder();

/** The place of `text` as one bigint (0n: none). */
function place(text: string): bigint {
  const bytes = utf8.encode(text);
  const lo = testPlace(bytes, bytes.length);
  return (BigInt(u64.hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

const orders = { file: 'tests/test_orders.py', test: 'test_total[case3]', got: 17, want: 19, line: 41 };
const refunds = { file: 'tests/test_refunds.py', test: 'test_total[case3]', got: 17, want: 19, line: 41 };

describe('the tests a failure names', () => {
  it('should be one place for the same test failing, whatever values, lines and totals it shows', () => {
    expect(place(pytestOutput([orders]))).not.toBe(0n);
    expect(place(pytestOutput([{ ...orders, got: 18, line: 44 }], 12))).toBe(place(pytestOutput([orders])));
  });

  it('should be another place for a test of another file, or another test, or more tests', () => {
    const a = place(pytestOutput([orders]));
    expect(place(pytestOutput([refunds]))).not.toBe(a);
    expect(place(pytestOutput([{ ...orders, test: 'test_total[case4]' }]))).not.toBe(a);
    expect(place(pytestOutput([orders, refunds]))).not.toBe(a);
    expect(place(pytestOutput([refunds, orders]))).not.toBe(place(pytestOutput([orders, refunds])));
  });

  it('should be none where no FAILED line names a node id', () => {
    expect(place(pytestCollectionError('tests/test_orders.py', 'shop.core'))).toBe(0n);
    expect(place('FAILED (failures=1)\nRan 3 tests in 0.002s')).toBe(0n);
    expect(place('npm ERR! Test failed.  See above for more details.')).toBe(0n);
    expect(place('')).toBe(0n);
    // the word must begin its line
    expect(place('  FAILED tests/a.py::test_x - assert 1 == 2')).toBe(0n);
  });

  it('should read only the last PLACE_LOOK bytes, from the first whole line there', () => {
    const line = 'FAILED tests/a.py::test_x - assert 1 == 2';
    expect(place(`${line}\n${'x'.repeat(PLACE_LOOK)}`)).toBe(0n);
    expect(place(`${'x'.repeat(PLACE_LOOK)}\n${line}`)).toBe(place(line));
    // a line cut at the start of the look is not read, even when its cut part reads as one
    expect(place(`${'y'.repeat(10)}${line}${'z'.repeat(PLACE_LOOK - line.length)}`)).toBe(0n);
  });
});

describe.each(RUNNERS)('the tests a $name run names as failed', (runner) => {
  const a = { module: 'orders', test: 'total_case3', got: 17, want: 19, line: 41 };
  const b = { module: 'refunds', test: 'total_case5', got: 17, want: 19, line: 48 };

  it('should be one place for the same test failing, whatever values and lines it shows', () => {
    expect(place(runner.output([a]))).not.toBe(0n);
    expect(place(runner.output([{ ...a, got: 18 }]))).toBe(place(runner.output([a])));
    expect(place(`Exit code 1\n${runner.output([a])}`)).toBe(place(runner.output([a])));
  });

  it('should be another place for a test of another module, another test of the module, or more tests', () => {
    const p = place(runner.output([a]));
    expect(place(runner.output([b]))).not.toBe(p);
    expect(place(runner.output([{ ...a, test: 'total_case4' }]))).not.toBe(p);
    expect(place(runner.output([a, { ...a, test: 'total_case4' }]))).not.toBe(p);
  });

  it('should be none for a run that fails before any test (a module that does not load or compile)', () => {
    expect(place(runner.wall('orders', 'core'))).toBe(0n);
  });
});

describe('lines that name no failed test', () => {
  it('should give no place', () => {
    for (const line of [
      ' FAIL  src/a.test.ts [ src/a.test.ts ]',
      ' FAIL  src/a.test.ts',
      'FAIL src/a.test.ts',
      '  ● Test suite failed to run',
      '    ● a › b',
      'FAIL\tgithub.com/dev/shop/orders\t0.004s',
      'FAIL\tgithub.com/dev/shop/orders [build failed]',
      '\t--- FAIL: TestA/case1 (0.00s)',
      '--- FAIL: ',
      'test a::b ... ok',
      'test result: FAILED. 1 passed; 1 failed',
      'test a::b ... ignored',
      '---- a::b stderr ----',
      'rspec spec/a_spec.rb:12',
      '  1) Orders total',
      'FAILED',
    ]) {
      expect(place(line), line).toBe(0n);
      expect(place(`${line}\n`), line).toBe(0n);
    }
  });
});

