/**
 * The quick look of empty-output-note.ts, `(empty)` in any case found from each `(`, is the expression it
 * replaced (`/\(empty\)/i`): on random texts built around the mark, its letters in every case, characters
 * past ASCII beside them (none folds to a letter of `empty` without the `u` flag), and marks cut at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsEmptyMark } from '../src/text/empty-output-note.js';

const EXPRESSION = /\(empty\)/i;

/** Pieces a text is made of: parts of the mark, its letters in either case, look-alikes, anything. */
const piece = fc.oneof(
  fc.constantFrom('(', ')', '(empty)', '(EMPTY)', '(Empty)', '(empt', 'empty)', '((empty)', '(emptyy)', '( empty)', '(\u0130mpty)', '(\u212aempty)', 'e', 'm', 'p', 't', 'y', 'E', 'Y', '\u00e9', '\u0435', '\n', 'Output: '),
  fc.string({ maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 3 }),
);

describe('holdsEmptyMark', () => {
  it('should find (empty) in any case exactly where the expression does', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(holdsEmptyMark(text)).toBe(EXPRESSION.test(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('should find every spelling of the letters and none of their look-alikes', () => {
    for (let m = 0; m < 32; m++) {
      const word = [...'empty'].map((c, k) => ((m >> k) & 1) === 1 ? c.toUpperCase() : c).join('');
      expect(holdsEmptyMark(`Output: (${word})`)).toBe(true);
    }
    for (const text of ['(empty', 'empty)', '(empt)', '(emptyy)', '(\u0435mpty)', '(\u212ampty)', '(', '', '(empty', '(empty]']) expect(holdsEmptyMark(text)).toBe(EXPRESSION.test(text));
  });
});
