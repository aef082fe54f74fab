/**
 * A test runner's lines for tests that passed (Jest, Vitest, Mocha: `  ✓ should throw error for invalid
 * path (6 ms)`, `✔ rejects a failed login`): the name of a test that passed, not a report of a failure,
 * whatever words it holds. A passing run of a suite that tests its error handling names its tests "throws an
 * error", "fails on bad input": read as failure words (failure-report.ts), every passing run of such a suite
 * was a failure, and a suite fixed run after run (holdout10: a TDD session's `npm test` passing at last, its
 * 18 tests all ✓) was "failed 7 times in a row". A line is a passed test's when its first mark, after white
 * space and a terminal's colour codes, is a check mark; the runner's own failures (`✕`, `●`, `FAIL`, `Tests:
 * 1 failed`) stand on other lines, so they are still read.
 *
 * Linear in the text: one scan for a mark, then one pass over the lines (each line's leading part read once).
 */

/** Check marks a runner puts before a test that passed. */
const MARK = /[✓✔√]/u;

/** A line whose first mark (after white space and colour codes) is a check mark, with its line break. */
const PASSED_LINE = /^[^\S\n]*(?:\u001b\[[0-9;]*m[^\S\n]*)*[✓✔√][^\n]*\n?/gmu;

/** Whether `text` may hold a passed test's line (it holds a check mark at all). */
export function mayListPassedTests(text: string): boolean {
  return MARK.test(text);
}

/** `text` without the lines of tests that passed (see the module comment); the rest as it was. */
export function withoutPassedTests(text: string): string {
  return text.replace(PASSED_LINE, '');
}
