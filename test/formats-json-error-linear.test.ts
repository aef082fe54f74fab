/**
 * A JSON parse error's message is shown without V8's excerpt of the text (json-value.ts `jsonErrorMessage`,
 * for a request body, a NATS message or a trace line that is not JSON) in time linear in the message, and as
 * the expression it replaces showed it. The expression read to the end from each `, "`: quadratic, harmless
 * only because V8 cuts its excerpt short; the message of any error passed in is now read in linear time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorMessage, parseJson } from '../src/formats/json-value.js';

/** The expression as it was written before (the definition of the answer). */
const REFERENCE = /, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/;

const PIECES = [', ', ',', ' ', '"', '...', '..', '.', ' is not valid JSON', 'is not valid JSON', 'x', "'h'", '\n', 'Unexpected token '];

describe('a JSON error shown without its excerpt in linear time', () => {
  it('should show what the reference expression showed, on messages built from its parts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }), fc.boolean(), (parts, ending) => {
        const message = parts.join('') + (ending ? '" is not valid JSON' : '');
        expect(jsonErrorMessage(new SyntaxError(message)), JSON.stringify(message)).toBe(message.replace(REFERENCE, ''));
        expect(jsonErrorMessage(new TypeError(message))).toBe(`TypeError: ${message.replace(REFERENCE, '')}`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('should take the excerpt out of what V8 says', () => {
    const parsed = parseJson('{"password": hunter2 correct horse}');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).not.toContain('hunter2');
    expect(jsonErrorMessage(new SyntaxError(`Unexpected token 'h', ..."assword": hunter2 co"... is not valid JSON`))).toBe("Unexpected token 'h'");
  });

  it('should answer at once on a long message of openings (a hang guard, not a speed figure)', () => {
    const size = 1 << 16;
    // each message with what is shown of it
    const messages: [string, string][] = [
      [`${', "'.repeat(size)} `, `${', "'.repeat(size)} `],
      [`${', "'.repeat(size)}x is not valid JSON`, `${', "'.repeat(size)}x is not valid JSON`],
      [`a${', ..."'.repeat(size)}" is not valid JSON`, 'a'],
    ];
    const started = performance.now();
    for (const [message, shown] of messages) expect(jsonErrorMessage(new SyntaxError(message))).toBe(shown);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
