/** Call previews: collapsing white space only as far as the preview reaches gives the whole-text answer. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREVIEW_ARGS_LENGTH, previewCall } from '../src/text/call-preview.js';
import { terminalSafe } from '../src/text/terminal-text.js';

/** The definition: stringify, collapse every white-space run, cut. */
function naivePreview(tool: string, args: unknown): string {
  if (args === undefined) return tool;
  let text: string;
  try {
    text = typeof args === 'string' ? args : (JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(args));
  } catch {
    text = '[unserialisable args]';
  }
  text = text.replace(/\s+/g, ' ');
  if (text.length > PREVIEW_ARGS_LENGTH) text = text.slice(0, PREVIEW_ARGS_LENGTH - 1) + '…';
  return `${terminalSafe(tool)} ${terminalSafe(text)}`; // controls and bidirectional marks as escapes (hostile10)
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

  it('should match for any JSON data, writing out only the part shown (long strings, escapes, nesting, BigInt)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '"', '\\', '\u0001', 'é', '😀', '\ud800', '\udc00', '\u2028'), maxLength: 600 });
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.bigInt(), fc.constant(undefined), fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(text, tie('v'), { maxKeys: 5 })),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        expect(previewCall('t', v)).toBe(naivePreview('t', v));
      }),
      { numRuns: 1000 },
    );
  });

  it('should leave what JSON data cannot say to JSON.stringify (toJSON, Map, Date, class instances, cycles in the shown part)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    class Point {
      constructor(readonly x: number) {}
    }
    const odd: unknown[] = [
      { when: new Date(0), n: 1 },
      { toJSON: () => ({ replaced: true }) },
      new Map([['k', 1]]),
      { p: new Point(2) },
      cyclic,
      { get boom(): never { throw new Error('no'); } },
      Object.assign(Object.create(null) as object, { bare: 'yes' }),
      [undefined, () => 1, Symbol('s')],
      () => 1,
    ];
    for (const v of odd) expect(previewCall('t', v)).toBe(naivePreview('t', v));
    expect(previewCall('t', cyclic)).toBe('t [unserialisable args]');
    // a cycle past the part shown does not stop the preview
    const late: Record<string, unknown> = { body: 'x'.repeat(2000) };
    late.self = late;
    expect(previewCall('t', late)).toBe(`t {"body":"${'x'.repeat(PREVIEW_ARGS_LENGTH - 1 - '{"body":"'.length)}…`);
  });

  it('should preview a value whose getter previews another value while it is written', () => {
    const inner = { q: 'inner text' };
    let seen = '';
    const outer = {
      a: 1,
      get b(): string {
        seen = previewCall('inner', inner);
        return 'b value';
      },
      c: [true, null],
    };
    expect(previewCall('t', outer)).toBe(naivePreview('t', outer));
    expect(seen).toBe(naivePreview('inner', inner));
  });
});
