/**
 * Random prose for chanting's tests: chunks repeated back to back (short and long periods), long sentences
 * said again with other text between, the structure the filter skips (code fences, tables, lists,
 * headings), non-ASCII text and lone surrogates.
 */
import fc from 'fast-check';

/** One piece of prose. */
export const prosePiece = fc.oneof(
  fc.constantFrom('Let me try again. ', 'the answer is 42 and ', 'é😀', 'ÉTAT ', '\ud800', '\udc00x', '- item\n', '```\n', '| a | b |\n', '# Title\n', 'Retrying the build now.\n', '\n', '  \t', '?!.'),
  fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 40 })).map(([t, n]) => t.repeat(n)),
  fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'c'), minLength: 40, maxLength: 250 }), fc.integer({ min: 2, max: 5 })).map(([t, n]) => t.repeat(n)),
  fc.tuple(fc.string({ unit: fc.constantFrom('w', 'o', 'r', 'd', ' ', 'é'), minLength: 60, maxLength: 120 }), fc.string({ maxLength: 30 }), fc.integer({ min: 2, max: 5 })).map(([s, between, n]) => `${s}.${between}`.repeat(n)),
);

/** Chanting options, small periods and long ones. */
export const chantingOptions = fc.record({
  maxPeriod: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 60, max: 700 })),
  threshold: fc.integer({ min: 2, max: 12 }),
  minLength: fc.integer({ min: 2, max: 160 }),
  longChunk: fc.integer({ min: 1, max: 200 }),
  longRepetitions: fc.integer({ min: 2, max: 6 }),
});
