/**
 * reportsFailure scans for the failure words' stems before its full expression, and reportsPass tests its
 * patterns as one expression: both answer exactly as the plain definitions (the full expression alone;
 * PASS_PATTERNS.some) on random outputs made of the words, their look-alikes and Unicode case variants.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_LOOK, FAILURE_WORDS, PASS_LOOK, PASS_PATTERNS, REPORTS_FAILURE, REPORTS_PASS, reportOf, reportsFailure, reportsPass } from '../src/text/failure-report.js';

const REPORT = new RegExp(`(?:^|[^\\p{L}\\p{N}_.-])(?<!(?:^|\\s)(?:0|no|zero) )(?:${FAILURE_WORDS.join('|')})(?![\\p{L}\\p{N}_])|[❌✗✘]`, 'iu');
const NOTES = /\[(?:the command completed with exit code \d+\.?|current working directory:[^\]]*|python interpreter:[^\]]*|command finished with exit code \d+)\]|\((?:bash |powershell )?completed with no output\)/giu;
const plainFailure = (t: string): boolean => REPORT.test(t.slice(0, FAILURE_LOOK));
const plainPass = (t: string): boolean => {
  const head = t.slice(0, PASS_LOOK).replace(NOTES, '');
  return head.trim() === '' || (!plainFailure(head) && PASS_PATTERNS.some((p) => p.test(head)));
};

const PIECES = [
  ...FAILURE_WORDS, 'ERROR', 'Failed', 'TRACEBAC\u212A', 'error_handler', 'ErrorBoundary.tsx', '0 errors', 'no failures', 'zero fail',
  '9 passed', 'All checks passed!', 'ok', 'test result: ok', 'Found 0 errors', 'Build succeeded', 'Finished', 'up to date',
  'nothing to commit', '[The command completed with exit code 0.]', '(completed with no output)', '❌', '✗', 'ſ', ' ', '\n', '.', '-', '_', '7',
];
const output = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((p) => p.join(''));

describe('failure-report prefilter', () => {
  it('should report a failure exactly when the full expression alone does', () => {
    fc.assert(fc.property(output, (t) => reportsFailure(t) === plainFailure(t)), { numRuns: 5000 });
  });

  it('should report a pass exactly as the patterns tested one by one do', () => {
    fc.assert(fc.property(output, (t) => reportsPass(t) === plainPass(t)), { numRuns: 5000 });
  });

  it('should give both readings at once exactly as the two functions give them', () => {
    const both = (t: string): number => (plainPass(t) ? REPORTS_PASS : 0) | (plainFailure(t) ? REPORTS_FAILURE : 0);
    fc.assert(fc.property(output, (t) => reportOf(t) === both(t)), { numRuns: 5000 });
    expect(reportOf('[Current working directory: /srv/errors]\n3 passed')).toBe(both('[Current working directory: /srv/errors]\n3 passed'));
  });

  it('should read a failure word past the cheap scan as before, and none in a long clean output', () => {
    expect(reportsFailure(`${'x '.repeat(3000)}error`)).toBe(false); // beyond FAILURE_LOOK
    expect(reportsFailure(`ok\nTRACEBAC\u212A (most recent call last)`)).toBe(true); // Kelvin sign folds to k
    expect(reportsPass('ran 12 tests\n12 passed in 0.3s')).toBe(true);
  });
});
