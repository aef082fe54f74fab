/** Call previews: collapsing white space only as far as the preview reaches gives the whole-text answer. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREVIEW_ARGS_LENGTH, previewCall } from '../src/state/call-log.js';

/** The definition: stringify, collapse every white-space run, cut. */
function naivePreview(tool: string, args: unknown): string {
  if (args === undefined) return tool;
  let text = typeof args === 'string' ? args : (JSON.stringify(args) ?? String(args));
  text = text.replace(/\s+/g, ' ');
  if (text.length > PREVIEW_ARGS_LENGTH) text = text.slice(0, PREVIEW_ARGS_LENGTH - 1) + '…';
  return `${tool} ${text}`;
}

const spacey = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', '\u00a0', '\u2028', 'é', '😀', '\r\n'), maxLength: 3000 });

describe('previewCall', () => {
  it('should match collapsing the whole text, for text args of any length and white space', () => {
    fc.assert(fc.property(spacey, (s) => {
      expect(previewCall('t', s)).toBe(naivePreview('t', s));
    }), { numRuns: 500 });
  });

  it('should match for object args, including long white-space runs across the first cuts', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }), spacey, { maxKeys: 4 }), (o) => {
        expect(previewCall('t', o)).toBe(naivePreview('t', o));
      }),
      { numRuns: 300 },
    );
    const long = 'x' + ' '.repeat(5000) + 'y'.repeat(200);
    expect(previewCall('edit', long)).toBe(naivePreview('edit', long));
    expect(previewCall('edit', { body: long }).length).toBe('edit '.length + PREVIEW_ARGS_LENGTH);
  });
});
