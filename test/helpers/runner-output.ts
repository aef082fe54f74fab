/**
 * The output of failing test runs of the runners coding agents run besides pytest (test/helpers/pytest-output.ts),
 * as each prints it to a pipe (no colours), in the shapes the real sessions hold: vitest, jest, go test, cargo
 * test, rspec, mocha and phpunit (cargo's, mocha's, phpunit's and go's as cargo 1.95, mocha 12.0.3, PHPUnit 9.6.7
 * and go 1.19 printed them, run here on a small crate, test file, test class and module of three packages; the
 * others' from their documented formats; jest's top-level tests and phpunit's `--testdox`: runner-variants.ts).
 * Each runner gives a failing run (its tests failing an assertion) and a run that fails before
 * any test (a module that does not load, a build that does not compile), and the three scenarios of a
 * developer's or an agent's work: a suite fixed one failing test after another, the same test failing again under other flags,
 * every file failing on the same missing module.
 */

/**
 * One failing test: its module (the file or package it lives in), its case and the values it compared. The
 * suite is `total` in every module (go's `TestTotal`), as a suite fixed file by file names its tests alike: its
 * outputs masked (paths, numbers) are one text, the tests they name are not.
 */
export interface RunnerFailure {
  readonly module: string;
  readonly test: string;
  readonly got: number;
  readonly want: number;
  /** The line the assertion is on. */
  readonly line: number;
}

/** A test runner's command and outputs. */
export interface Runner {
  readonly name: string;
  /**
   * Whether a suite is fixed in one module, case by case (go's `-run TestTotal/case<n>`, cargo's `<module>::`,
   * testdox's class: the runners whose output names the module unmasked, or whose cases are run so), not one
   * file after another.
   */
  readonly oneModule?: boolean;
  /** The command running the tests of `module`, with `flags`. */
  command(module: string, flags: string): string;
  /** The output of a run with `failing` failing (go's grouped by package), run with `flags` (cargo's `-q` is terse). */
  output(failing: readonly RunnerFailure[], flags?: string): string;
  /** The output of a run of `module` (of its test `test` alone, where given) that fails before any test: `missing` does not load or compile. */
  wall(module: string, missing: string, test?: string): string;
}

const vitest: Runner = {
  name: 'vitest',
  command: (m, flags) => `npx vitest run src/${m}.test.ts ${flags}`.trim(),
  output: (failing) => {
    const m = failing[0]?.module ?? 'orders';
    const lines = [' RUN  v3.2.4 /home/dev/shop', '', ` ❯ src/${m}.test.ts (12 tests | ${failing.length} failed) 18ms`, '   ✓ total > sums lines 2ms'];
    for (const f of failing) lines.push(`   × total > ${f.test} 9ms`, `     → expected ${f.got} to be ${f.want} // Object.is equality`);
    lines.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failing.length} ⎯⎯⎯⎯⎯⎯⎯`, '');
    failing.forEach((f, k) => {
      lines.push(
        ` FAIL  src/${f.module}.test.ts > total > ${f.test}`,
        `AssertionError: expected ${f.got} to be ${f.want} // Object.is equality`,
        '',
        '- Expected',
        '+ Received',
        '',
        `- ${f.want}`,
        `+ ${f.got}`,
        '',
        ` ❯ src/${f.module}.test.ts:${f.line}:22`,
        `     ${f.line - 1}|     const r = total(cases[3]);`,
        `     ${f.line}|     expect(r).toBe(${f.want});`,
        '       |                      ^',
        '',
        `⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[${k + 1}/${failing.length}]⎯`,
        '',
      );
    });
    lines.push(' Test Files  1 failed (1)', `      Tests  ${failing.length} failed | 11 passed (${11 + failing.length})`, '   Start at  10:12:03', '   Duration  412ms (transform 61ms, setup 0ms, collect 70ms, tests 18ms, environment 0ms, prepare 90ms)');
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      ' RUN  v3.2.4 /home/dev/shop',
      '',
      ` ❯ src/${m}.test.ts (0 test)`,
      '',
      '⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ` FAIL  src/${m}.test.ts [ src/${m}.test.ts ]`,
      `Error: Cannot find module '${missing}' imported from '/home/dev/shop/src/${m}.test.ts'`,
      ` ❯ src/${m}.test.ts:2:1`,
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  no tests',
      '   Start at  10:12:03',
      '   Duration  301ms (transform 40ms, setup 0ms, collect 0ms, tests 0ms, environment 0ms, prepare 88ms)',
    ].join('\n'),
};

const jest: Runner = {
  name: 'jest',
  command: (m, flags) => `npx jest src/${m}.test.ts ${flags}`.trim(),
  output: (failing) => {
    const m = failing[0]?.module ?? 'orders';
    const lines = [`FAIL src/${m}.test.ts`, '  total', '    ✓ sums lines (3 ms)'];
    for (const f of failing) lines.push(`    ✕ ${f.test} (5 ms)`);
    lines.push('');
    for (const f of failing) {
      lines.push(
        `  ● total › ${f.test}`,
        '',
        '    expect(received).toBe(expected) // Object.is equality',
        '',
        `    Expected: ${f.want}`,
        `    Received: ${f.got}`,
        '',
        `      ${f.line - 1} |     const r = total(cases[3]);`,
        `    > ${f.line} |     expect(r).toBe(${f.want});`,
        '         |               ^',
        '',
        `      at Object.toBe (src/${f.module}.test.ts:${f.line}:15)`,
        '',
      );
    }
    lines.push('Test Suites: 1 failed, 1 total', `Tests:       ${failing.length} failed, 11 passed, ${11 + failing.length} total`, 'Snapshots:   0 total', 'Time:        0.512 s, estimated 1 s', `Ran all test suites matching /src\\/${m}.test.ts/i.`);
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      `FAIL src/${m}.test.ts`,
      '  ● Test suite failed to run',
      '',
      `    Cannot find module '${missing}' from 'src/${m}.test.ts'`,
      '',
      `      1 | import { total } from '${missing}';`,
      '        | ^',
      '',
      '      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)',
      '',
      'Test Suites: 1 failed, 1 total',
      'Tests:       0 total',
      'Snapshots:   0 total',
      'Time:        0.301 s',
      `Ran all test suites matching /src\\/${m}.test.ts/i.`,
    ].join('\n'),
};

const goTest: Runner = {
  name: 'go test',
  oneModule: true,
  command: (m, flags) => `go test ./${m}/ ${flags}`.trim(),
  output: (failing) => {
    // as go 1.19 prints it: each package's failed tests, then its `FAIL\t<package>\t<time>` line; every
    // package's test file named alike (`total_test.go`, after the `total.go` it tests)
    const lines: string[] = [];
    const modules = [...new Set(failing.map((f) => f.module))];
    for (const m of modules) {
      for (const f of failing.filter((x) => x.module === m)) {
        const name = 'TestTotal';
        lines.push(`--- FAIL: ${name} (0.00s)`, `    --- FAIL: ${name}/${f.test} (0.00s)`, `        total_test.go:${f.line}: total = ${f.got}, want ${f.want}`);
      }
      lines.push('FAIL', `FAIL\tgithub.com/dev/shop/${m}\t0.004s`);
    }
    lines.push('FAIL');
    return lines.join('\n');
  },
  wall: (m, missing) => [`# github.com/dev/shop/${m} [github.com/dev/shop/${m}.test]`, `./total_test.go:5:2: undefined: ${missing}.Build`, `FAIL\tgithub.com/dev/shop/${m} [build failed]`, 'FAIL'].join('\n'),
};

const cargo: Runner = {
  name: 'cargo test',
  oneModule: true,
  command: (m, flags) => `cargo test ${m}:: ${flags}`.trim(),
  output: (failing, flags = '') => {
    // as cargo 1.95 prints it: the `---- stdout ----` sections in the order the tests ended (here the last
    // first), the list of names after them sorted; `-q` prints `<name> --- FAILED` for `test <name> ... FAILED`
    const quiet = /(?:^|\s)(?:-q|--quiet)(?:\s|$)/.test(flags);
    const lines = ['    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.12s', '     Running unittests src/lib.rs (target/debug/deps/shop-3f2a9c1d4e5b6a7c)', '', `running ${failing.length + 1} tests`];
    const m = failing[0]?.module ?? 'orders';
    const ended = [...failing].reverse();
    if (quiet) {
      lines.push(`. 1/${failing.length + 1}`);
      for (const f of ended) lines.push(`${f.module}::tests::${f.test} --- FAILED`);
    } else {
      lines.push(`test ${m}::tests::sums_lines ... ok`);
      for (const f of ended) lines.push(`test ${f.module}::tests::${f.test} ... FAILED`);
    }
    lines.push('', 'failures:', '');
    for (const f of ended) {
      const id = `${f.module}::tests::${f.test}`;
      lines.push(`---- ${id} stdout ----`, '', `thread '${id}' (11470) panicked at src/${f.module}.rs:${f.line}:9:`, 'assertion `left == right` failed', `  left: ${f.got}`, ` right: ${f.want}`, 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace', '');
    }
    const names = failing.map((f) => `${f.module}::tests::${f.test}`).sort();
    lines.push('', 'failures:', ...names.map((n) => `    ${n}`), '', `test result: FAILED. 1 passed; ${failing.length} failed; 0 ignored; 0 measured; 11 filtered out; finished in 0.00s`, '', 'error: test failed, to rerun pass `--lib`');
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      '   Compiling shop v0.1.0 (/home/dev/shop)',
      `error[E0432]: unresolved import \`crate::${missing}\``,
      ` --> src/${m}.rs:2:5`,
      '  |',
      `2 | use crate::${missing}::build;`,
      `  |            ^^^^^^^^ could not find \`${missing}\` in the crate root`,
      '',
      'For more information about this error, try `rustc --explain E0432`.',
      'error: could not compile `shop` (lib test) due to 1 previous error',
    ].join('\n'),
};

const rspec: Runner = {
  name: 'rspec',
  command: (m, flags) => `bundle exec rspec spec/${m}_spec.rb ${flags}`.trim(),
  output: (failing) => {
    const lines = ['', 'Randomized with seed 12345', `..${'F'.repeat(failing.length)}.........`, '', 'Failures:', ''];
    failing.forEach((f, k) => {
      lines.push(
        `  ${k + 1}) Total ${f.test}`,
        `     Failure/Error: expect(total(cases[3])).to eq(${f.want})`,
        '',
        `       expected: ${f.want}`,
        `            got: ${f.got}`,
        '',
        '       (compared using ==)',
        `     # ./spec/${f.module}_spec.rb:${f.line}:in \`block (2 levels) in <top (required)>'`,
        '',
      );
    });
    lines.push('Finished in 0.01234 seconds (files took 0.1 seconds to load)', `${11 + failing.length} examples, ${failing.length} failure${failing.length === 1 ? '' : 's'}`, '', 'Failed examples:', '');
    for (const f of failing) lines.push(`rspec ./spec/${f.module}_spec.rb:${f.line} # Total ${f.test}`);
    lines.push('', 'Randomized with seed 12345', '');
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      '',
      `An error occurred while loading ./spec/${m}_spec.rb.`,
      `Failure/Error: require '${missing}'`,
      '',
      'LoadError:',
      `  cannot load such file -- ${missing}`,
      `# ./spec/${m}_spec.rb:1:in \`<top (required)>'`,
      'No examples found.',
      '',
      'Finished in 0.00002 seconds (files took 0.1 seconds to load)',
      '0 examples, 0 failures, 1 error occurred outside of examples',
      '',
    ].join('\n'),
};

const mocha: Runner = {
  name: 'mocha',
  command: (m, flags) => `npx mocha test/${m}.test.js ${flags}`.trim(),
  output: (failing) => {
    // as mocha 12.0.3 prints it (spec reporter): the tree with each failed test numbered, the summary, then
    // each failure's title, its suites and test one a line, the last ending with `:`
    const lines = ['', '', '  total', '    ✔ sums lines'];
    failing.forEach((f, k) => lines.push(`    ${k + 1}) ${f.test}`));
    lines.push('', '', '  1 passing (41ms)', `  ${failing.length} failing`, '');
    failing.forEach((f, k) => {
      lines.push(
        `  ${k + 1}) total`,
        `       ${f.test}:`,
        '',
        '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        '',
        `${f.got} !== ${f.want}`,
        '',
        '      + expected - actual',
        '',
        `      -${f.got}`,
        `      +${f.want}`,
        '      ',
        `      at Context.<anonymous> (test/${f.module}.test.js:${f.line}:53)`,
        '      at process.processImmediate (node:internal/timers:483:21)',
        '',
      );
    });
    lines.push('', '');
    return lines.join('\n');
  },
  wall: (m, missing) =>
    [
      '',
      ` Exception during run: Error: Cannot find module '../lib/${missing}'`,
      'Require stack:',
      `- /home/dev/shop/test/${m}.test.js`,
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      '    at Module._load (node:internal/modules/cjs/loader:1038:27)',
      `    at Object.<anonymous> (/home/dev/shop/test/${m}.test.js:1:1)`,
      '    at async singleRun (/home/dev/shop/node_modules/mocha/lib/cli/run-helpers.cjs:174:3)',
      '    at async exports.handler (/home/dev/shop/node_modules/mocha/lib/cli/run.cjs:143:5) {',
      "  code: 'MODULE_NOT_FOUND',",
      `  requireStack: [ '/home/dev/shop/test/${m}.test.js' ]`,
      '}',
    ].join('\n'),
};

/** A module's name as a PHP class's: `orders` -> `Orders`. */
function phpClass(m: string): string {
  return `${m.slice(0, 1).toUpperCase()}${m.slice(1)}Test`;
}

/** A test's name as a PHP method's: `total with discount case3` -> `testTotalWithDiscountCase3`. */
function phpMethod(t: string): string {
  return `test${t.split(/[\s_]+/).map((w) => `${w.slice(0, 1).toUpperCase()}${w.slice(1)}`).join('')}`;
}

const phpunit: Runner = {
  name: 'phpunit',
  command: (m, flags) => `vendor/bin/phpunit tests/${phpClass(m)}.php ${flags}`.trim(),
  output: (failing) => {
    // as PHPUnit 9.6.7 prints it: the progress, `There was 1 failure:`, each numbered `Class::method`, `FAILURES!`
    const lines = ['PHPUnit 9.6.7 by Sebastian Bergmann and contributors.', '', `.${'F'.repeat(failing.length)}${' '.repeat(62)}${failing.length + 1} / ${failing.length + 1} (100%)`, '', 'Time: 00:00.012, Memory: 4.00 MB', ''];
    lines.push(failing.length === 1 ? 'There was 1 failure:' : `There were ${failing.length} failures:`, '');
    failing.forEach((f, k) => {
      lines.push(`${k + 1}) Shop\\Tests\\${phpClass(f.module)}::${phpMethod(f.test)}`, `Failed asserting that ${f.got} is identical to ${f.want}.`, '', `/home/dev/shop/tests/${phpClass(f.module)}.php:${f.line}`, '');
    });
    lines.push('FAILURES!', `Tests: ${failing.length + 1}, Assertions: ${failing.length + 1}, Failures: ${failing.length}.`);
    return lines.join('\n');
  },
  wall: (m, missing) =>
    // a class every test of the file needs, not found: phpunit's errors, not its failures
    [
      'PHPUnit 9.6.7 by Sebastian Bergmann and contributors.',
      '',
      `EE${' '.repeat(63)}2 / 2 (100%)`,
      '',
      'Time: 00:00.010, Memory: 4.00 MB',
      '',
      'There were 2 errors:',
      '',
      `1) Shop\\Tests\\${phpClass(m)}::testSumsLines`,
      `Error: Class "Shop\\${missing}\\Builder" not found`,
      '',
      `/home/dev/shop/tests/${phpClass(m)}.php:12`,
      '',
      `2) Shop\\Tests\\${phpClass(m)}::testTotal`,
      `Error: Class "Shop\\${missing}\\Builder" not found`,
      '',
      `/home/dev/shop/tests/${phpClass(m)}.php:19`,
      '',
      'ERRORS!',
      'Tests: 2, Assertions: 0, Errors: 2.',
    ].join('\n'),
};

/** The runners, by name. */
export const RUNNERS: readonly Runner[] = [vitest, jest, goTest, cargo, rspec, mocha, phpunit];

/** The runners whose failed tests' ids, or outputs, name the test's file (all but mocha). */
export const RUNNERS_NAMING_FILES: readonly Runner[] = RUNNERS.filter((r) => r !== mocha);

/** A shell call as the scenarios below script it. */
export interface ShellCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly error: string;
}

const MODULES = ['orders', 'refunds', 'invoices', 'carts', 'coupons', 'taxes', 'shipping', 'payments'];

/** The case name of the `n`th test, in the runner's style. */
export function caseName(runner: Runner, n: number): string {
  return runner === goTest || runner === cargo ? `total_case${n}` : `total with discount case${n}`;
}

/**
 * A suite fixed one failing test after another: eight runs, each failing another test with an assertion of
 * the same form. For vitest, jest and rspec each run is of another file (`total > applies discount case<n>` in
 * `src/<module>.test.ts`); for the runners fixing a suite in one module ({@link Runner.oneModule}: cargo test's
 * output names the module unmasked, `orders::tests::...`) the runs are of the numbered cases of one module
 * (`go test ./orders/ -run TestTotal/case<n>`), alike masked.
 */
export function runnerSuiteOneByOne(runner: Runner, tool = 'Bash'): ShellCall[] {
  const oneModule = runner.oneModule === true;
  return MODULES.map((m, i) => {
    const module = oneModule ? 'orders' : m;
    const test = caseName(runner, i + 2);
    return {
      tool,
      args: { command: runner.command(module, oneModule ? test : '') },
      error: `Exit code 1\n${runner.output([{ module, test, got: 10 + i, want: 12 + i, line: 30 + i * 7 }])}`,
    };
  });
}

/**
 * Every module's file failing a test of the same name (`total > applies discount`, `Total::testApplies...`,
 * go's `TestTotal/total_case3` in each package's `total_test.go`), each in its file: other tests, though jest's
 * `● total › applies discount`, go's `--- FAIL:` lines and mocha's title name no file.
 * Not mocha's: its output names the file only in the stack (a path, masked), so its tests of one title are
 * one test to loopwatch.
 */
export function runnerSameNameEachFile(runner: Runner, tool = 'Bash'): ShellCall[] {
  return MODULES.map((m, i) => ({ tool, args: { command: runner.command(m, '') }, error: `Exit code 1\n${runner.output([{ module: m, test: caseName(runner, 3), got: 10 + i, want: 12 + i, line: 41 }])}` }));
}

/** The same test failing the same way, run six times with other flags (cargo's `-q` among them), its line moved by edits between: a wall. */
export function runnerSameTestAgain(runner: Runner, tool = 'Bash'): ShellCall[] {
  const flags = ['', '--verbose', '-x', '--bail', '-q', '--no-color'];
  return flags.map((f, i) => ({ tool, args: { command: runner.command('orders', f) }, error: `Exit code 1\n${runner.output([{ module: 'orders', test: caseName(runner, 3), got: 17 + (i % 2), want: 19, line: 41 + (i % 3) * 4 }], f)}` }));
}

/** Every module's tests run, each failing before any test on the same missing module: a wall. */
export function runnerWallEveryFile(runner: Runner, tool = 'Bash'): ShellCall[] {
  return MODULES.map((m) => ({ tool, args: { command: runner.command(m, '') }, error: `Exit code 1\n${runner.wall(m, 'core')}` }));
}
