/**
 * A silent failure's test (failure-kinds.ts `saysOnlyExit`, whose expression decides CallFact.SILENT) takes time
 * linear in its text, and says what the expression it replaces said. The old expression took time exponential in a
 * run of spaces: a failed call whose error was "exit 1", 40 spaces and one more word hung the hook that read it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failedSilently, saysOnlyExit } from '../src/text/failure-kinds.js';

/** The expression as it was written before (the definition of the language; exponential on long runs of spaces). */
const REFERENCE = /^\s*(?:error:?\s*)?(?:\[?(?:exit(?: code| status)?|exited with(?: code)?|process exited with code)\s*:?\s*\d+\]?\.?\s*|\((?:no output|completed with no output)\)\s*|output: ?\(empty\)\s*|[\s—–-]+)*$/i;

const PIECES = [
  'exit', 'Exit', ' code', ' status', 'exited with', ' code', 'process exited with code', 'error', 'Error', ':', ' ', '  ',
  '\t', '\n', '—', '–', '-', '1', '23', '[', ']', '.', '(no output)', '(completed with no output)', 'Output: (empty)', 'output:(empty)', 'x', 'E', 'ok',
];

describe('a silent failure read in linear time', () => {
  it('should say what the reference expression says, on texts built from its parts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 9 }), (parts) => {
        const text = parts.join('');
        expect(saysOnlyExit(text), JSON.stringify(text)).toBe(REFERENCE.test(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('should answer at once where long runs of spaces and dashes precede what is not an exit status', () => {
    // each of these took the reference expression longer than the test's time limit
    const spaces = ' '.repeat(60);
    const texts = [
      `exit 1${spaces}x`,
      `error:${spaces}exit${spaces}1${spaces}done`,
      `${spaces}exit code 2${spaces}.`,
      `process exited with code 1 ${'- '.repeat(40)}then`,
      `(no output)${spaces}${spaces}?`,
    ];
    for (const text of texts) {
      expect(saysOnlyExit(text)).toBe(false);
      expect(failedSilently(text, undefined)).toBe(false);
    }
    expect(saysOnlyExit(`exit 1${spaces}`)).toBe(true);
    expect(saysOnlyExit(`error: ${spaces}[exit code 127].${spaces}(no output)${spaces}`)).toBe(true);
  });
});
