/**
 * Call after call failing, each a different one, nothing succeeding between (src/policy/losing-streak.ts;
 * quiet45, the shape of a real Codex session of holdout5: ten PowerShell commands in a row, each quoted
 * another way, each refused by PowerShell's parser with another message, no warning before): warned at the
 * LOSING_STREAK-th call in a row, over as many model turns, never asked about or broken on that evidence
 * alone, one-phase and two-phase, both engines. Not a streak: calls sent side by side in one turn, a
 * success between, searches finding nothing, a person declining, a read whose output holds error lines, and
 * test runs whose tests failed (quiet47: a suite fixed file by file, each run failing its own test, was warned
 * at the 8th run; the engines' OutcomeFlag.TESTS, read from the error as test-place.ts reads it, says so).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector, type LoopDetectorOptions, type ToolEvent } from '../src/index.js';
import { FAILING_AGAIN_DETECTOR } from '../src/policy/failing-again.js';
import { LOSING_STREAK } from '../src/policy/losing-streak.js';
import { ENGINES, type Engine, liveActions, verdictsOf } from './helpers/verdicts.js';
import { suiteFileByFile } from './helpers/pytest-output.js';
import { RUNNERS, RUNNERS_NAMING_FILES, type ShellCall, runnerSameNameEachFile, runnerSuiteOneByOne } from './helpers/runner-output.js';
import { RUNNER_VARIANTS } from './helpers/runner-variants.js';

/** What PowerShell's parser said of each try: another place, another message each time. */
const PARSER = [
  ['Unexpected token "}" in expression or statement.', 'UnexpectedToken'],
  ["The string is missing the terminator: '.", 'TerminatorExpectedAtEndOfString'],
  ['You must provide a value expression following the "-like" operator.', 'ExpectedValueExpression'],
  ['The token "||" is not a valid statement separator in this version.', 'InvalidEndOfLine'],
  ['Unexpected token "animations*" in expression or statement.', 'UnexpectedToken'],
  ['Missing ")" in method call.', 'MissingEndParenthesisInMethodCall'],
  ['The term "from" is not recognized as the name of a cmdlet, function, script file, or operable program.', 'CommandNotFoundException'],
  ['Unexpected token "{" in expression or statement.', 'UnexpectedToken'],
  ['Missing closing "}" in statement block or type definition.', 'MissingEndCurlyBrace'],
  ['Unexpected token "-Pattern" in expression or statement.', 'UnexpectedToken'],
  ['Array index expression is missing or not valid.', 'MissingArrayIndexExpression'],
  ['Missing expression after unary operator "-".', 'MissingExpressionAfterOperator'],
] as const;

/** Try `i`: a search for a module's imports, quoted another way, refused by the parser; its own model turn. */
function attempt(i: number, round = i): ToolEvent {
  const [message, id] = PARSER[i % PARSER.length] as readonly [string, string];
  const script = `Get-ChildItem src -Recurse -Include *.ts | ForEach-Object { $t = Get-Content -Raw $_.FullName; if ($t -match "from ['\\"]@angular/animations['\\"]" ${'|'.repeat(i % 3)}) { $_.FullName } } # try ${i}`;
  return {
    tool: 'shell',
    args: { command: ['powershell', '-NoLogo', '-Command', script] },
    error: `At line:1 char:${40 + 13 * i}\n+ ... ${script.slice(20 + i, 70 + i)} ...\n+ ${' '.repeat(i)}~\n${message}\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : ${id}\n`,
    round,
  };
}

const read: ToolEvent = { tool: 'shell', args: { command: ['powershell', '-NoLogo', '-Command', 'Get-Content -TotalCount 40 src/app/animations.ts'] }, result: "import { animate, style, transition, trigger } from '@angular/animations';\nexport const fade = trigger('fade', []);\n", round: 99 };
const tries = (n: number, from = 0): ToolEvent[] => Array.from({ length: n }, (_, k) => attempt(from + k));

/** Each one-phase verdict as `index:action:kind`. */
const verdicts = (events: readonly ToolEvent[], engine: Engine, options: LoopDetectorOptions = {}): string[] =>
  verdictsOf(events, { ...options, engine }).flatMap((v, i) => (v === null ? [] : [`${i}:${v.action}:${v.kind}`]));

const warnedAt = (...indices: number[]): string[] => indices.map((i) => `${i}:warn:${FAILING_AGAIN_DETECTOR}`);

describe.each(ENGINES)('call after call failing, each another way (%s engine)', (engine) => {
  it(`should warn at the ${LOSING_STREAK}th failed call in a row`, () => {
    expect(verdicts(tries(LOSING_STREAK), engine)).toEqual(warnedAt(LOSING_STREAK - 1));
    expect(liveActions(tries(LOSING_STREAK), engine, { labelled: true })).toEqual([`R${LOSING_STREAK - 1}:warn`]);
  });

  it('should say what it saw: the streak, from its first call', () => {
    const d = new LoopDetector({ engine });
    try {
      const vs = tries(LOSING_STREAK).map((e) => d.check(e));
      const v = vs[LOSING_STREAK - 1];
      expect(v?.message).toContain(`${LOSING_STREAK} different calls in a row each failed, none succeeding between`);
      expect(v?.loopStart).toBe(0);
    } finally {
      d.dispose();
    }
  });

  it('should never ask or break on this evidence alone, and warn again only each LOSING_STREAK calls', () => {
    const long = tries(2 * LOSING_STREAK + 1);
    expect(verdicts(long, engine)).toEqual(warnedAt(LOSING_STREAK - 1, 2 * LOSING_STREAK - 1));
    expect(liveActions(long, engine)).toEqual(['warn', 'warn']);
    expect(verdicts(long, engine, { policy: { ladder: ['break'] } })).toEqual(warnedAt(LOSING_STREAK - 1, 2 * LOSING_STREAK - 1));
  });

  it('should not warn a shorter streak', () => {
    expect(verdicts(tries(LOSING_STREAK - 1), engine)).toEqual([]);
    expect(liveActions(tries(LOSING_STREAK - 1), engine)).toEqual([]);
  });

  it('should not warn when a call succeeded between the failures', () => {
    const half = LOSING_STREAK - 2;
    const events = [...tries(half), read, ...tries(half, half)];
    expect(verdicts(events, engine)).toEqual([]);
    expect(liveActions(events, engine)).toEqual([]);
  });

  it('should not count calls sent side by side in one turn as tries of their own', () => {
    // the same failures, sent four at a time: two turns
    const batched = tries(LOSING_STREAK).map((e, i) => ({ ...e, round: Math.floor(i / 4) }));
    expect(verdicts(batched, engine)).toEqual([]);
  });

  it('should not count searches that found nothing, or calls the person declined', () => {
    const searches: ToolEvent[] = Array.from({ length: LOSING_STREAK + 2 }, (_, i) => ({ tool: 'Bash', args: { command: `rg -n "term${i}" specs/plan.md` }, error: 'Exit code 1', round: i }));
    expect(verdicts(searches, engine)).toEqual([]);
    const declined: ToolEvent[] = Array.from({ length: LOSING_STREAK + 2 }, (_, i) => ({ tool: 'Bash', args: { command: `npm run task${i}` }, error: "The user doesn't want to proceed with this tool use. The tool use was rejected.", round: i }));
    expect(verdicts(declined, engine).filter((v) => v.endsWith(FAILING_AGAIN_DETECTOR))).toEqual([]);
  });

  it('should not count reads whose output reports errors: the calls themselves succeeded', () => {
    const logs: ToolEvent[] = Array.from({ length: LOSING_STREAK + 2 }, (_, i) => ({
      tool: 'Bash',
      args: { command: `grep -E "Heartbeat|disconnect|key${i}" logs/app.log` },
      result: `[E][17:58:0${i}.910][BleHeartbeat] Error: heartbeat lost (code ${i})\nTraceback (most recent call last):\n  File "ble.py", line ${i + 3}\nRuntimeError: link ${i} down\n`,
      round: i,
    }));
    expect(verdicts(logs, engine)).toEqual([]);
  });
});

/** The suites fixed one failing test after another, each run its own model turn: pytest's and each runner's. */
const SUITES: readonly { readonly name: string; readonly calls: readonly ShellCall[] }[] = [
  { name: 'pytest', calls: suiteFileByFile() },
  ...[...RUNNERS, ...RUNNER_VARIANTS].map((r) => ({ name: r.name, calls: runnerSuiteOneByOne(r) })),
  ...RUNNERS_NAMING_FILES.map((r) => ({ name: `${r.name}, a test of one name in each file`, calls: runnerSameNameEachFile(r) })),
];
const ownTurns = (calls: readonly ShellCall[], from = 0): ToolEvent[] => calls.map((c, i) => ({ ...c, round: from + i }));

describe.each(ENGINES)('test runs whose tests failed are the code failing, not tries gone wrong (%s engine)', (engine) => {
  it.each(SUITES)('should not warn $name run file by file, each run failing its own test', ({ calls }) => {
    expect(calls.length).toBeGreaterThanOrEqual(LOSING_STREAK);
    expect(verdicts(ownTurns(calls), engine)).toEqual([]);
    expect(liveActions(ownTurns(calls), engine)).toEqual([]);
  });

  it('should not count a failing test run as a try: it ends the streak', () => {
    const half = LOSING_STREAK - 2;
    const run = (suiteFileByFile()[0] as ShellCall);
    const events = [...tries(half), { ...run, round: 50 }, ...tries(half, half)];
    expect(verdicts(events, engine)).toEqual([]);
  });
});

describe('both engines alike', () => {
  it('should read a test run met again as a test run: the module remembers it with the masked error', () => {
    // three runs, four tries, the same three runs again (their texts known to the module), a fifth try: no
    // streak (each run ends it), in either engine; read as tries, the second runs would make one of 8
    const runs = suiteFileByFile().slice(0, 3);
    const events: ToolEvent[] = [...runs, ...tries(4), ...runs, attempt(4)].map((e, i) => ({ ...e, round: i }));
    expect(verdicts(events, 'wasm')).toEqual(verdicts(events, 'reference'));
    expect(verdicts(events, 'wasm').filter((v) => v.endsWith(FAILING_AGAIN_DETECTOR))).toEqual([]);
  });

  it('should give the same verdicts on streams of parser errors and test runs failing, the same outputs again among them', () => {
    // few outputs, so the same error text comes again (the module reads it from its cache of masked errors)
    const runs = [...suiteFileByFile().slice(0, 3), ...runnerSuiteOneByOne(RUNNERS[0] as (typeof RUNNERS)[number]).slice(0, 3)];
    const call = fc.record({ kind: fc.constantFrom('fail', 'run', 'run'), n: fc.nat(5), sameTurn: fc.boolean() });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 40 }), (spec) => {
        let round = 0;
        const events: ToolEvent[] = spec.map(({ kind, n, sameTurn }) => {
          if (!sameTurn) round++;
          return kind === 'fail' ? attempt(n, round) : { ...(runs[n] as ShellCall), round };
        });
        expect(verdicts(events, 'wasm')).toEqual(verdicts(events, 'reference'));
      }),
      { numRuns: 60 },
    );
  });

  it('should give the same verdicts on streams of failures, successes, refusals and searches finding nothing, batched or not', () => {
    const call = fc.record({
      kind: fc.constantFrom('fail', 'fail', 'fail', 'ok', 'declined', 'silent', 'again'),
      n: fc.nat(40),
      sameTurn: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 40 }), (spec) => {
        let round = 0;
        const events: ToolEvent[] = spec.map(({ kind, n, sameTurn }, i) => {
          if (!sameTurn) round++;
          if (kind === 'fail') return attempt(n, round);
          if (kind === 'again') return attempt(0, round);
          if (kind === 'ok') return { ...read, round };
          if (kind === 'declined') return { tool: 'Bash', args: { command: `make t${n}` }, error: "The user doesn't want to proceed with this tool use.", round };
          return { tool: 'Bash', args: { command: `rg -n "x${n}-${i}" src` }, error: 'Exit code 1', round };
        });
        expect(verdicts(events, 'wasm')).toEqual(verdicts(events, 'reference'));
      }),
      { numRuns: 60 },
    );
  });
});
