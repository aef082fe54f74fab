/**
 * Two more shapes of the runners in runner-output.ts, as they printed them here to a pipe: jest 29.7.0's
 * tests written outside any `describe` (`  ● applies discount case3`: no ` › `), and PHPUnit 9.6.7's
 * `--testdox` output (a class's heading, then ` ✔ ` / ` ✘ ` and its test's name as a sentence; a failure's or
 * an error's message in a frame of `│` below it; the failures again under "Summary of non-successful
 * tests:"). Each is a {@link Runner}, so the scenarios of runner-output.ts run over them.
 */
import { type Runner, type RunnerFailure, type ShellCall, caseName, runnerWallEveryFile } from './runner-output.js';

/** A module's name as a test file's class: `orders` -> `Orders`. */
function className(m: string): string {
  return `${m.slice(0, 1).toUpperCase()}${m.slice(1)}`;
}

/** A test's name as PHPUnit's testdox prints its method `testTotalWithDiscountCase3`: `Total with discount case 3`. */
function testdoxName(t: string): string {
  const words = t.split(/[\s_]+/).join(' ').replace(/([a-z])(\d)/g, '$1 $2');
  return `${words.slice(0, 1).toUpperCase()}${words.slice(1)}`;
}

/** A test's name as a PHP method's: `total with discount case3` -> `testTotalWithDiscountCase3`. */
function phpMethod(t: string): string {
  return `test${t.split(/[\s_]+/).map((w) => `${w.slice(0, 1).toUpperCase()}${w.slice(1)}`).join('')}`;
}

/** jest's code frame, as it printed it to a pipe here (its colours kept). */
function jestFrame(f: RunnerFailure): string[] {
  const n = (k: number) => String(k).padStart(2);
  return [
    `    \u001b[0m \u001b[90m ${n(f.line - 2)} |\u001b[39m test(\u001b[32m'${f.test}'\u001b[39m\u001b[33m,\u001b[39m () \u001b[33m=>\u001b[39m {`,
    `     \u001b[90m ${n(f.line - 1)} |\u001b[39m   \u001b[36mconst\u001b[39m r \u001b[33m=\u001b[39m total(cases[\u001b[35m3\u001b[39m])\u001b[33m;\u001b[39m`,
    `    \u001b[31m\u001b[1m>\u001b[22m\u001b[39m\u001b[90m ${n(f.line)} |\u001b[39m   expect(r)\u001b[33m.\u001b[39mtoBe(\u001b[35m${f.want}\u001b[39m)\u001b[33m;\u001b[39m`,
    `     \u001b[90m    |\u001b[39m             \u001b[31m\u001b[1m^\u001b[22m\u001b[39m`,
    `     \u001b[90m ${n(f.line + 1)} |\u001b[39m })\u001b[33m;\u001b[39m\u001b[0m`,
  ];
}

/**
 * jest 29.7.0 over tests written outside any `describe`: `FAIL <file>`, the file's tests (one file run: jest
 * lists them), then each failure under `  ● <test>`; a file whose test logged has `  ● Console` first (as
 * jest printed it for two files run together). A file that does not load is jest's `● Test suite failed
 * to run`, as runner-output.ts' jest.
 */
export const jestTopLevel: Runner = {
  name: 'jest (tests outside a describe)',
  command: (m, flags) => `npx jest src/${m}.test.js ${flags}`.trim(),
  output: (failing) => {
    const lines: string[] = [];
    const modules = [...new Set(failing.map((f) => f.module))];
    for (const m of modules) {
      const mine = failing.filter((f) => f.module === m);
      lines.push(`FAIL src/${m}.test.js`, '  ✓ sums lines (4 ms)', ...mine.map((f) => `  ✕ ${f.test} (14 ms)`), '');
      if (m === 'refunds') lines.push('  ● Console', '', '    console.log', '      computing', '', `      at Object.log (src/${m}.test.js:3:11)`, '');
      for (const f of mine) {
        lines.push(`  ● ${f.test}`, '', '    expect(received).toBe(expected) // Object.is equality', '', `    Expected: ${f.want}`, `    Received: ${f.got}`, '', ...jestFrame(f), '', `      at Object.toBe (src/${m}.test.js:${f.line}:13)`, '');
      }
    }
    const n = failing.length;
    lines.push(`Test Suites: ${modules.length} failed, ${modules.length} total`, `Tests:       ${n} failed, 1 passed, ${n + 1} total`, 'Snapshots:   0 total', 'Time:        1.045 s', `Ran all test suites matching /src\\/${modules[0] ?? 'orders'}.test.js/i.`);
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      `FAIL src/${m}.test.js`,
      '  ● Test suite failed to run',
      '',
      `    Cannot find module './${missing}' from 'src/${m}.test.js'`,
      '',
      `    \u001b[0m\u001b[31m\u001b[1m>\u001b[22m\u001b[39m\u001b[90m 1 |\u001b[39m \u001b[36mconst\u001b[39m { build } \u001b[33m=\u001b[39m require(\u001b[32m'./${missing}'\u001b[39m)\u001b[33m;\u001b[39m`,
      '',
      '      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)',
      `      at Object.require (src/${m}.test.js:1:19)`,
      '',
      'Test Suites: 1 failed, 1 total',
      'Tests:       0 total',
      'Snapshots:   0 total',
      'Time:        0.301 s',
      `Ran all test suites matching /src\\/${m}.test.js/i.`,
    ].join('\n'),
};

/** testdox's heading of a test class of `m`. */
function testdoxHeading(m: string): string {
  return `${className(m)} (Shop\\Tests\\${className(m)})`;
}

/** A failed test's lines in testdox's frame, its message first. */
function testdoxFailed(name: string, message: string, file: string, line: number): string[] {
  return [` ✘ ${testdoxName(name)}`, '   │', `   │ ${message}`, '   │', `   │ /home/dev/shop/tests/${file}:${line}`, '   │', ''];
}

/**
 * PHPUnit 9.6.7 with `--testdox`: each class's heading, its tests passed (` ✔ `) and failed (` ✘ `), then
 * the failed again under "Summary of non-successful tests:". A class not found in a test makes that test
 * an error, marked ` ✘ ` as a failure is: only its message (`Error: Class "..." not found`) tells them apart.
 * Its class heading names the module unmasked (`Orders (Shop\Tests\Orders)`): a suite is fixed class by
 * class, case by case ({@link Runner.oneModule}).
 */
export const phpunitTestdox: Runner = {
  name: 'phpunit --testdox',
  oneModule: true,
  command: (m, flags) => `vendor/bin/phpunit --testdox tests/${className(m)}Test.php ${flags}`.trim(),
  output: (failing) => {
    const modules = [...new Set(failing.map((f) => f.module))];
    const block = (withPassed: boolean) =>
      modules.flatMap((m) => [
        testdoxHeading(m),
        ...(withPassed ? [' ✔ Sums lines'] : []),
        ...failing.filter((f) => f.module === m).flatMap((f) => testdoxFailed(f.test, `Failed asserting that ${f.got} is identical to ${f.want}.`, `${className(m)}Test.php`, f.line)),
      ]);
    const n = failing.length;
    return ['PHPUnit 9.6.7 by Sebastian Bergmann and contributors.', '', ...block(true), 'Time: 00:00.021, Memory: 6.00 MB', '', 'Summary of non-successful tests:', '', ...block(false), 'FAILURES!', `Tests: ${n + 1}, Assertions: ${n + 1}, Failures: ${n}.`].join('\n');
  },
  wall: (m, missing, test) => {
    const tests = test === undefined ? ['sums lines', 'total'] : [test];
    const lines = ['PHPUnit 9.6.7 by Sebastian Bergmann and contributors.', '', testdoxHeading(m)];
    tests.forEach((t, k) => lines.push(...testdoxFailed(t, `Error: Class "Shop\\${className(missing)}\\Builder" not found`, `${className(m)}Test.php`, 12 + 7 * k)));
    lines.push('Time: 00:00.025, Memory: 6.00 MB', '', '', 'ERRORS!', `Tests: ${tests.length}, Assertions: 0, Errors: ${tests.length}.`);
    return lines.join('\n');
  },
};

/** The runner variants, by name. */
export const RUNNER_VARIANTS: readonly Runner[] = [jestTopLevel, phpunitTestdox];

/**
 * One module's tests run one at a time (`--filter <test>`), each failing before its assertion on the same
 * class or module that is not found: a wall, though each run names another test (testdox marks the error
 * ` ✘ ` as a failure; its message tells it).
 */
export function runnerWallEachTest(runner: Runner, tool = 'Bash'): ShellCall[] {
  return Array.from({ length: 8 }, (_, i) => {
    const test = caseName(runner, i + 2);
    return { tool, args: { command: runner.command('orders', `--filter ${phpMethod(test)}`) }, error: `Exit code 1\n${runner.wall('orders', 'core', test)}` };
  });
}

/**
 * The wall of `runner`'s scenarios: every file failing before any test on one missing module, but for
 * testdox, whose class heading names each file's output apart (`Orders (Shop\Tests\Orders)`, a word the
 * mask keeps): one class's tests run one at a time, each erring on the class not found.
 */
export function runnerWall(runner: Runner, tool = 'Bash'): ShellCall[] {
  return runner === phpunitTestdox ? runnerWallEachTest(runner, tool) : runnerWallEveryFile(runner, tool);
}
