/**
 * The place of a failure (src/text/test-place.ts): the tests pytest's short summary names as failed, in the
 * last PLACE_LOOK bytes of the error. The same tests failing give one place whatever else the output says;
 * other tests another; no node id (a collection error, unittest's `FAILED (failures=1)`) gives none.
 */
import { describe, expect, it } from 'vitest';
import { u64 } from '../src/fingerprint/u64.js';
import { PLACE_LOOK, testPlace } from '../src/text/test-place.js';
import { pytestCollectionError, pytestOutput } from './helpers/pytest-output.js';
import { RUNNERS, RUNNERS_NAMING_FILES } from './helpers/runner-output.js';
import { RUNNER_VARIANTS } from './helpers/runner-variants.js';

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

describe.each([...RUNNERS, ...RUNNER_VARIANTS])('the tests a $name run names as failed', (runner) => {
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

  it('should be one place for the same test moved by an edit (its line), run with other flags', () => {
    const p = place(runner.output([a]));
    expect(place(runner.output([{ ...a, line: 47 }]))).toBe(p);
    expect(place(runner.output([a], '-q'))).toBe(p);
  });
});

// go test's ids name no package: the `FAIL\t<package>` line after them does (quiet39)
describe.each([...RUNNERS_NAMING_FILES, ...RUNNER_VARIANTS])('a test of the same name in two files, under $name', (runner) => {
  const a = { module: 'orders', test: 'total_case3', got: 17, want: 19, line: 41 };

  it('should be two places', () => {
    expect(place(runner.output([a]))).not.toBe(place(runner.output([{ ...a, module: 'refunds' }])));
  });

  it('should be a third place run together', () => {
    const both = place(runner.output([a, { ...a, module: 'refunds' }]));
    expect(both).not.toBe(place(runner.output([a])));
    expect(both).not.toBe(place(runner.output([{ ...a, module: 'refunds' }])));
  });
});

describe('the runners read since quiet38', () => {
  it('should read cargo test alike with and without -q, by its sorted list of failed tests', () => {
    const pretty = ['test a::x ... FAILED', 'test a::y ... FAILED', '', 'failures:', '', '---- a::x stdout ----', 'boom', '', 'failures:', '    a::x', '    a::y', '', 'test result: FAILED. 0 passed; 2 failed'].join('\n');
    const quiet = ['a::y --- FAILED', 'a::x --- FAILED', '', 'failures:', '', '---- a::y stdout ----', 'boom', '', 'failures:', '    a::x', '    a::y', '', 'test result: FAILED. 0 passed; 2 failed'].join('\n');
    expect(place(pretty)).not.toBe(0n);
    expect(place(quiet)).toBe(place(pretty));
    // the tests ended in another order: the same sorted list
    expect(place(quiet.replace('a::y --- FAILED\na::x', 'a::x --- FAILED\na::y'))).toBe(place(pretty));
    // the list ends at the first line of another form
    expect(place('failures:\n    a::x\nnote: x\n    a::y\n')).toBe(place('failures:\n    a::x\n'));
    expect(place('failures:\n\n    a::x\n')).toBe(0n);
    expect(place('failures:\n     a::x\n')).toBe(0n);
  });

  it('should read rspec\'s example without its line number, with its description', () => {
    const at12 = place('rspec ./spec/orders_spec.rb:12 # Orders total');
    expect(at12).not.toBe(0n);
    expect(place('rspec ./spec/orders_spec.rb:31 # Orders total')).toBe(at12);
    expect(place('rspec ./spec/refunds_spec.rb:12 # Orders total')).not.toBe(at12);
    expect(place('rspec ./spec/orders_spec.rb:12 # Orders total with tax')).not.toBe(at12);
    expect(place('rspec ./spec/orders_spec.rb[1:2] # Orders total')).not.toBe(at12);
    expect(place('rspec ./spec/orders_spec.rb:12')).toBe(place('rspec ./spec/orders_spec.rb:40'));
  });

  it('should read jest\'s test of the file its FAIL header names', () => {
    const t = (file: string) => place(`FAIL ${file}\n  total\n    ✕ applies discount (5 ms)\n\n  ● total › applies discount\n\n    expect(received).toBe(expected)`);
    expect(t('src/orders.test.ts')).not.toBe(0n);
    expect(t('src/refunds.test.ts')).not.toBe(t('src/orders.test.ts'));
    expect(place('FAIL src/orders.test.ts (5.2 s)\n  ● total › applies discount')).toBe(t('src/orders.test.ts'));
  });

  it('should read mocha\'s failures after its count of them, whatever their depth', () => {
    const tree = '  total\n    1) applies discount\n\n\n  0 passing (4ms)\n  1 failing\n\n';
    const one = place(`${tree}  1) total\n       applies discount:\n     Error: x\n`);
    expect(one).not.toBe(0n);
    expect(place(`${tree}  1) total\r\n       applies discount:\r\n     Error: y\r\n`)).not.toBe(0n);
    expect(place(`${tree}  1) total\n       applies coupon:\n`)).not.toBe(one);
    expect(place(`${tree}  1) carts\n       applies discount:\n`)).not.toBe(one);
    expect(place(`${tree}  1) total\n       with coupons\n         applies discount:\n`)).not.toBe(one);
    expect(place(`${tree}  1) top level case:\n`)).not.toBe(0n);
    expect(place(`${tree}  1) total\n       "before each" hook for "applies discount":\n`)).not.toBe(0n);
    // the tree before the count, a title whose lines end with no colon, a title's line less indented: none
    expect(place('  total\n    1) applies discount\n  1) total\n       applies discount:\n')).toBe(0n);
    expect(place(`${tree}  1) total\n       applies discount\n`)).toBe(0n);
    expect(place(`${tree}  1) total\n     applies discount:\n`)).toBe(0n);
  });

  it('should read phpunit\'s failures, not its errors', () => {
    const f = place('There was 1 failure:\n\n1) Shop\\Tests\\OrdersTest::testTotal\nFailed asserting that 17 matches expected 19.\n\nFAILURES!');
    expect(f).not.toBe(0n);
    expect(place('There were 2 failures:\n\n1) Shop\\Tests\\OrdersTest::testTotal\n')).toBe(f);
    expect(place('There were 2 errors:\n\n1) Shop\\Tests\\OrdersTest::testTotal\nError: Class "X" not found\n')).toBe(0n);
    expect(place('There was 1 failure:\n\n1) Shop\\Tests\\OrdersTest::testTotal\n--\nThere was 1 risky test:\n\n2) Shop\\Tests\\CartsTest::testAdd\n')).toBe(f);
    expect(place('1) Shop\\Tests\\OrdersTest::testTotal\n')).toBe(0n);
    expect(place('There was 1 failure:\n\n1) a failure with no method\n')).toBe(0n);
  });
});

describe('the shapes read since quiet39', () => {
  const jestFile = (file: string, body: string) => place(`FAIL ${file}\n${body}`);

  it('should read jest\'s test outside a describe below its file\'s FAIL line, not jest\'s own headings', () => {
    const t = jestFile('src/orders.test.js', '  ● applies discount\n\n    expect(received).toBe(expected)\n');
    expect(t).not.toBe(0n);
    expect(jestFile('src/refunds.test.js', '  ● applies discount\n')).not.toBe(t);
    expect(jestFile('src/orders.test.js', '  ● Console\n\n    console.log\n      hi\n\n  ● applies discount\n')).toBe(t);
    expect(jestFile('src/orders.test.js', '  ● Test suite failed to run\n\n    Cannot find module \'./core\'\n')).toBe(0n);
    expect(jestFile('src/orders.test.js', '  ● Console\r\n')).toBe(0n);
    expect(jestFile('src/orders.test.js', '  ●  TCPSERVERWRAP\n')).toBe(0n);
    expect(jestFile('src/orders.test.js', '  ● \n')).toBe(0n);
    // with no FAIL line above it, a bullet is no test of jest's
    expect(place('  ● applies discount\n')).toBe(0n);
    // a describe's test is read with or without it, as before
    expect(place('  ● total › applies discount\n')).not.toBe(0n);
  });

  it('should read go\'s package after its failed tests, and no package with none', () => {
    const ids = '--- FAIL: TestTotal (0.00s)\n    total_test.go:10: total = 17, want 19\nFAIL\n';
    const orders = place(`${ids}FAIL\tgithub.com/dev/shop/orders\t0.031s\nFAIL\n`);
    expect(orders).not.toBe(0n);
    expect(place(`${ids}FAIL\tgithub.com/dev/shop/orders\t0.5s\nFAIL\n`)).toBe(orders);
    expect(place(`${ids}FAIL\tgithub.com/dev/shop/refunds\t0.031s\nFAIL\n`)).not.toBe(orders);
    // a package built on its own, before or after: no place of its own
    expect(place(`FAIL\tgithub.com/dev/shop/carts [build failed]\n${ids}FAIL\tgithub.com/dev/shop/orders\t0.031s\nFAIL\tgithub.com/dev/shop/taxes [setup failed]\n`)).toBe(orders);
    expect(place('FAIL\tgithub.com/dev/shop/carts [build failed]\nFAIL\n')).toBe(0n);
    expect(place(`ok  \tgithub.com/dev/shop/carts\t0.003s\n${ids}FAIL\tgithub.com/dev/shop/orders\t0.031s\n`)).toBe(orders);
  });

  it('should read testdox\'s failed tests of their class, not its errors', () => {
    const heading = 'PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\nOrders (Shop\\Tests\\Orders)\n ✔ Sums lines\n';
    const failed = (name: string, message: string) => ` ✘ ${name}\n   │\n   │ ${message}\n   │\n   │ /home/dev/shop/tests/OrdersTest.php:6\n   │\n\n`;
    const f = place(`${heading}${failed('Total', 'Failed asserting that 17 is identical to 19.')}FAILURES!\n`);
    expect(f).not.toBe(0n);
    expect(place(`${heading}${failed('Total', 'Failed asserting that 18 is identical to 19.')}`)).toBe(f);
    expect(place(`${heading.replace(/Orders/g, 'Carts')}${failed('Total', 'Failed asserting that 17 is identical to 19.')}`)).not.toBe(f);
    // a failure with its own message is a failure; an exception is an error, not read
    expect(place(`${heading}${failed('Total', 'total of case 3: Failed asserting that 17 is identical to 19.')}`)).toBe(f);
    expect(place(`${heading}${failed('Total', 'Error: Class "Shop\\Core\\Builder" not found')}`)).toBe(0n);
    expect(place(`${heading}${failed('Total', 'TypeError: total(): Argument #1 must be of type array')}`)).toBe(0n);
    expect(place(`${heading}${failed('Total', 'Shop\\Core\\MissingRateException: no rate')}`)).toBe(0n);
    expect(place(`${heading}${failed('Total', 'Errors: 3')}`)).toBe(f);
    // PHPUnit 9's other frame, ┐ ├ ┴
    expect(place(`${heading} ✘ Total\n   ┐\n   ├ Error: Class "X" not found\n   ┴\n`)).toBe(0n);
    expect(place(`${heading} ✘ Total\n   ┐\n   ├ Failed asserting that false is true.\n   ┴\n`)).toBe(f);
    // a test with no message below it is read
    expect(place(`${heading} ✘ Total\n\nTime: 00:00.021, Memory: 6.00 MB\n`)).toBe(f);
    // no class heading above: not read; two above: the last's
    expect(place(failed('Total', 'Failed asserting that 17 is identical to 19.'))).toBe(0n);
    expect(place(`Carts (Shop\\Tests\\Carts)\nsome (other) line)\n${heading}${failed('Total', 'Failed asserting that 17 is identical to 19.')}`)).toBe(f);
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
      'test a::b ... FAILED',
      '---- a::b stdout ----',
      'a::b --- FAILED',
      '    a::b',
      'failures:',
      '  1 failing',
      'There was 1 failure:',
      '1) A::testB',
      'test result: FAILED. 1 passed; 1 failed',
      'test a::b ... ignored',
      '---- a::b stderr ----',
      'rspec spec/a_spec.rb:12',
      '  1) Orders total',
      'FAILED',
      '  ● applies discount',
      ' ✘ Total',
      'Orders (Shop\\Tests\\Orders)',
      'FAIL\tgithub.com/dev/shop/orders\t0.004s',
    ]) {
      expect(place(line), line).toBe(0n);
      expect(place(`${line}\n`), line).toBe(0n);
    }
  });
});

