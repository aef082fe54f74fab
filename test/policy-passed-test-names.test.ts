/**
 * A passing test run whose tests are named for errors is a pass (quiet48; a real Claude Code 2.x session of
 * holdout10, warned in every replay): a TDD session ran `npm test -- csv-chunker.test.ts` after each step,
 * failing six times with new errors (red, then the next step's), then passing: Jest listed its 18 tests, each
 * `✓`, among them "should throw error for invalid s3 path format". That name's "error" read as a failure
 * report (failure-report.ts), so the passing run was the seventh failure in a row: failing_again, "failed 7
 * times in a row", warned at the run that passed. A line of a test that passed is its name
 * (src/text/passed-test-lines.ts); the runner's own failures are on other lines and still read.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { READ_FAILURE, READ_PASS, readHead } from '../src/text/result-reading.js';
import { withoutPassedTests } from '../src/text/passed-test-lines.js';
import { ENGINES, actionsOf, liveActions, verdictsOf } from './helpers/verdicts.js';

const COMMAND = { command: 'npm test -- csv-chunker.test.ts', description: 'Run tests' };
const BANNER = '> data-processing@0.1.0 test\n> jest csv-chunker.test.ts\n';
const NAMES = ['should parse s3:// path into bucket and key', 'should throw error for invalid s3 path format', 'should throw error for non-s3:// protocol', 'should generate chunk path with zero-padded index'];

/** Jest's answer when every test passed: their names, each ✓, then the counts. */
const PASSED = `${BANNER}PASS src/handlers/csv-chunker.test.ts\n  CSV Chunker\n    parseS3Path\n${NAMES.map((n) => `      ✓ ${n} (1 ms)\n`).join('')}\nTest Suites: 1 passed, 1 total\nTests:       ${NAMES.length} passed, ${NAMES.length} total\nTime:        0.308 s\n`;
/** Jest's answer with test `i` failing (the red step), as Claude Code gives it: an error. */
const failed = (i: number): string =>
  `FAIL src/handlers/csv-chunker.test.ts\n  CSV Chunker\n${NAMES.map((n, k) => `      ${k === i % NAMES.length ? '✕' : '✓'} ${n}\n`).join('')}\n  ● CSV Chunker › step ${i}\n\n    expect(received).toBe(expected)\n\n    Expected: "chunk-${i}"\n    Received: undefined\n\nTests:       1 failed, ${NAMES.length - 1} passed, ${NAMES.length} total\n`;

const run = (i: number): ToolEvent => ({ tool: 'Bash', args: COMMAND, error: `Exit code 1\n${failed(i)}` });
const pass: ToolEvent = { tool: 'Bash', args: COMMAND, result: PASSED };
const edit = (i: number, file: string): ToolEvent => ({ tool: 'Edit', args: { file_path: file, old_string: `step_${i}()`, new_string: `step_${i + 1}()` }, result: `The file ${file} has been updated successfully.` });

/** Red, green, red, green ...: a test written and run failing, the code changed, six failing runs, then all pass. */
const tdd: ToolEvent[] = [...[0, 1, 2, 3, 4, 5].flatMap((i) => [edit(i, 'src/handlers/csv-chunker.test.ts'), run(i), edit(i, 'src/handlers/csv-chunker.ts')]), pass];

/** The same suite failing a seventh time in a row (a new error each time): still warned. */
const failing: ToolEvent[] = [...[0, 1, 2, 3, 4, 5].flatMap((i) => [edit(i, 'src/handlers/csv-chunker.test.ts'), run(i), edit(i, 'src/handlers/csv-chunker.ts')]), run(6)];

const kinds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): string[] => verdictsOf(events, { engine }).flatMap((v) => (v === null ? [] : [v.kind]));

describe.each(ENGINES)('a passing run whose tests are named for errors (%s engine)', (engine) => {
  it('should not warn of failing again when the seventh run passed, one-phase', () => {
    expect(kinds(tdd, engine)).not.toContain('failing_again');
    expect(actionsOf(verdictsOf(tdd, { engine })).filter((a) => a !== '-')).toEqual([]);
  });

  it('should not warn two-phase either', () => {
    expect(liveActions(tdd, engine).filter((a) => a !== 'allow')).toEqual([]);
  });

  it('should still warn when the seventh run fails again with a new error', () => {
    expect(kinds(failing, engine)).toContain('failing_again');
  });
});

describe('the reading of a runner\'s output', () => {
  it('should read a run whose passed tests are named for errors as a pass', () => {
    const bits = readHead(PASSED);
    expect(bits & READ_FAILURE).toBe(0);
    expect(bits & READ_PASS).toBe(READ_PASS);
  });

  it('should still read a run with a failing test as a failure', () => {
    expect(readHead(failed(1)) & READ_FAILURE).toBe(READ_FAILURE);
    expect(readHead(`${BANNER}  ✓ handles errors\n  1 failing\n\n  1) rejects bad input:\n     Error: expected 400\n`) & READ_FAILURE).toBe(READ_FAILURE);
  });

  it('should take out only lines whose first mark is a check mark, coloured or not', () => {
    expect(withoutPassedTests('  ✓ throws an error\n\u001b[32m  ✔\u001b[39m fails on bad input\nTests: 2 passed\n')).toBe('Tests: 2 passed\n');
    expect(withoutPassedTests('Error: build failed ✓\n√ ok\n')).toBe('Error: build failed ✓\n');
  });
});
