/**
 * notesNoOutput's look at how a text begins (empty-output-note.ts's NOTE_START, asked before the `(empty)`
 * look) changes no answer: on random texts made of the note's lines in any case, blank lines and white space
 * of every kind trim() takes (and some it does not), look-alike field names and anything, it answers as the
 * function it replaced (kept here as it was).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_NOTE_LOOK, holdsEmptyMark, notesNoOutput } from '../src/text/empty-output-note.js';

const NOTE_LINE = /^(?:output: \(empty\)|stdout: \(empty\)|stderr: \(empty\)|error: \(none\)|command: .*|directory: .*)$/i;
const EMPTY_LINE = /^(?:output|stdout): \(empty\)$/i;

/** notesNoOutput before the look at the text's start. */
function before(text: string): boolean {
  if (text.length > EMPTY_NOTE_LOOK || !holdsEmptyMark(text)) return false;
  let empty = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!NOTE_LINE.test(line)) return false;
    if (EMPTY_LINE.test(line)) empty = true;
  }
  return empty;
}

/** A piece of a text: the note's parts in either case, white space, look-alikes, anything. */
const piece = fc.oneof(
  fc.constantFrom('Output: (empty)', 'OUTPUT: (EMPTY)', 'Stdout: (empty)', 'stderr: (Empty)', 'Error: (none)', 'Command: ls', 'command: ', 'Directory: (root)', 'directory:x', 'Output:(empty)', 'Outputs: (empty)', '\u017ftdout: (empty)', '\u0130rror: (none)', '(empty)', 'Output', ': ', 'x'),
  fc.constantFrom('\n', '\r\n', ' ', '\t', '\u00a0', '\u2028', '\ufeff', '\u3000', '\u200b', '\u180e', '\v', '\f'),
  fc.string({ maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 3 }),
);

describe('notesNoOutput, its start looked at first', () => {
  it('should answer as before on random texts', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        expect(notesNoOutput(text)).toBe(before(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('should answer as before on notes led by every kind of white space, and on none', () => {
    for (const lead of ['', '\n', '\r\n\n', ' \t', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u3000', '\u200b', '\u180e', '\u0085'] as const) {
      for (const note of ['Output: (empty)', 'Command: a\nDirectory: (root)\nStdout: (empty)\nStderr: (empty)\nError: (none)', 'Error: (none)\nOutput: (empty)', 'Output: (empty) now']) {
        expect(notesNoOutput(lead + note)).toBe(before(lead + note));
      }
    }
    expect(notesNoOutput('Output: (empty)')).toBe(true);
    expect(notesNoOutput('  \n Command: eww reload\nStdout: (empty)')).toBe(true);
  });
});
