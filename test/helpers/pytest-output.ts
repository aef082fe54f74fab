/**
 * pytest's output for the tests of failing test runs, as pytest 8 prints it to a pipe (no colours), about
 * 1.5 KB: the session header, the progress line, each failure's traceback, the short test summary (the
 * `FAILED <node id> - <message>` lines pytest prints by default since 6.0) and the totals. What an agent's
 * shell tool returns, Claude Code's Bash as its `Exit code 1` error.
 */

/** One failing test: its file, name and the values its assertion compared. */
export interface FailingTest {
  readonly file: string;
  readonly test: string;
  readonly got: number;
  readonly want: number;
  /** The line the assertion is on. */
  readonly line: number;
}

/** The output of `pytest <file>` run with the given tests failing (all in one file, or several). */
export function pytestOutput(failing: readonly FailingTest[], passed = 11): string {
  const files = [...new Set(failing.map((f) => f.file))];
  const lines = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0',
    'rootdir: /home/dev/shop',
    'configfile: pyproject.toml',
    'plugins: cov-5.0.0, anyio-4.4.0, mock-3.14.0',
    `collected ${passed + failing.length} items`,
    '',
    ...files.map((f) => `${f} ${'.'.repeat(Math.max(1, passed - 2))}F..`.padEnd(73) + ' [100%]'),
    '',
    '=================================== FAILURES ===================================',
  ];
  for (const f of failing) {
    lines.push(
      ` ${f.test} `.padStart(40 + f.test.length / 2, '_').padEnd(80, '_'),
      '',
      'case = Case(name=\'order with discount\', items=[Item(sku=\'A-100\', qty=2), Item(sku=\'B-200\', qty=1)])',
      'expected = Decimal(\'' + f.want + '.00\')',
      '',
      '    @pytest.mark.parametrize("case, expected", CASES)',
      '    def ' + f.test.replace(/\[.*$/, '') + '(case, expected):',
      '        result = run_case(case)',
      '>       assert result == expected',
      `E       AssertionError: assert Decimal('${f.got}.00') == Decimal('${f.want}.00')`,
      '',
      `${f.file}:${f.line}: AssertionError`,
    );
  }
  lines.push(
    '=============================== warnings summary ===============================',
    'src/shop/pricing.py:12',
    '  /home/dev/shop/src/shop/pricing.py:12: DeprecationWarning: datetime.datetime.utcnow() is deprecated',
    '    now = datetime.utcnow()',
    '',
    '-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html',
    '=========================== short test summary info ============================',
  );
  for (const f of failing) lines.push(`FAILED ${f.file}::${f.test} - AssertionError: assert Decimal('${f.got}.00') == Decimal('${f.want}.00')`);
  lines.push(`========================= ${failing.length} failed, ${passed} passed in 0.${40 + failing.length}s =========================`);
  return lines.join('\n');
}

/** pytest's output when a test file does not import (a collection error: `ERROR <file>`, no test run). */
export function pytestCollectionError(file: string, module: string): string {
  return [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0',
    'rootdir: /home/dev/shop',
    'configfile: pyproject.toml',
    'collected 0 items / 1 error',
    '',
    '==================================== ERRORS ====================================',
    `_________________ ERROR collecting ${file} _________________`,
    `ImportError while importing test module '/home/dev/shop/${file}'.`,
    'Hint: make sure your test modules/packages have valid Python names.',
    'Traceback:',
    '/usr/lib/python3.11/importlib/__init__.py:126: in import_module',
    '    return _bootstrap._gcd_import(name[level:], package, level)',
    `${file}:3: in <module>`,
    `    from ${module} import build_order`,
    `E   ModuleNotFoundError: No module named '${module}'`,
    '=========================== short test summary info ============================',
    `ERROR ${file}`,
    '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!!',
    '=============================== 1 error in 0.12s ===============================',
  ].join('\n');
}

/** A shell call as the scenarios below script it. */
interface ShellCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly error: string;
}

const MODULES = ['orders', 'refunds', 'invoices', 'carts', 'coupons', 'taxes', 'shipping', 'payments'];

/**
 * A developer fixing a suite file by file: `python -m pytest tests/test_<module>.py -q` for eight modules, each
 * failing its own `test_total[case<n>]` with an AssertionError of the same form (other values, lines, files).
 * Masked, the outputs are alike; the tests that failed are not. Ordinary work.
 */
export function suiteFileByFile(tool = 'Bash'): ShellCall[] {
  return MODULES.map((m, i) => ({
    tool,
    args: { command: `python -m pytest tests/test_${m}.py -q` },
    error: `Exit code 1\n${pytestOutput([{ file: `tests/test_${m}.py`, test: `test_total[case${i + 2}]`, got: 10 + i, want: 12 + i, line: 30 + i * 7 }])}`,
  }));
}

/** The same test failing the same way, run six times with other flags (`-x`, `-k total`, the node id): a wall. */
export function sameTestAgain(tool = 'Bash'): ShellCall[] {
  const commands = ['python -m pytest tests/test_orders.py', 'python -m pytest tests/test_orders.py -x', 'python -m pytest tests/test_orders.py::test_total -q', 'pytest tests/test_orders.py -k total', 'pytest tests/test_orders.py -q --tb=short', 'pytest tests/test_orders.py::test_total'];
  return commands.map((command, i) => ({ tool, args: { command }, error: `Exit code 1\n${pytestOutput([{ file: 'tests/test_orders.py', test: 'test_total[case3]', got: 17 + (i % 2), want: 19, line: 41 }])}` }));
}

/** Every test file run, each failing to import the same missing module (pytest's `ERROR <file>`): a wall. */
export function collectionErrorEveryFile(tool = 'Bash'): ShellCall[] {
  return MODULES.map((m) => ({ tool, args: { command: `python -m pytest tests/test_${m}.py -q` }, error: `Exit code 2\n${pytestCollectionError(`tests/test_${m}.py`, 'shop.core')}` }));
}

/** `pip install shopcore==<v>` for six versions, none of them published: the same wall with other args. */
export function pinVersions(tool = 'Bash'): ShellCall[] {
  return ['1.2', '1.3', '1.4', '1.5', '2.0', '2.1'].map((v) => ({
    tool,
    args: { command: `pip install shopcore==${v}` },
    error: `Exit code 1\nERROR: Could not find a version that satisfies the requirement shopcore==${v} (from versions: 0.9, 0.9.1)\nERROR: No matching distribution found for shopcore==${v}`,
  }));
}
