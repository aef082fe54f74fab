/**
 * textHead (src/policy/outcome-facts.ts) of a result still in its bytes (a RawJsonString) gives the first
 * `limit` UTF-16 units of the string JSON.parse makes of the literal, whatever its escapes (a `\uXXXX` is
 * one unit, a pair's halves two, a cut may fall between them), and decodes only the prefix that holds
 * them: a long result's whole string is never made.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { textHead } from '../src/policy/outcome-facts.js';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { RawJsonString } from '../src/wasm/raw-json-string.js';
import { runs } from './helpers/streams.js';

/** `s` as a JSON string literal of ASCII bytes (characters outside ASCII escaped), kept as bytes. */
function raw(s: string): RawJsonString {
  const lit = JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return new RawJsonString(Buffer.from(lit, 'latin1'), lit.includes('\\'));
}

const unit = fc.constantFrom('a', 'Z', ' ', '\n', '\t', '"', '\\', '/', '\u0001', 'é', '😀', '\ud800', '\udc00', '\u2028');
const plainUnit = fc.constantFrom('a', 'Z', ' ', '.', '/', '-', '0');

describe('textHead of a result kept as bytes', () => {
  it('gives the first `limit` characters of the decoded string, escapes or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 200 }), fc.string({ unit: plainUnit, maxLength: 200 })), fc.integer({ min: 0, max: 120 }), (s, limit) => {
        expect(textHead(raw(s), limit)).toBe(s.slice(0, limit));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('reads PASS_LOOK characters of long results, escaped or plain', () => {
    for (const s of ['x'.repeat(PASS_LOOK * 3), 'é'.repeat(PASS_LOOK * 2), `${'a'.repeat(PASS_LOOK - 1)}😀tail`, `${'\n'.repeat(PASS_LOOK + 5)}`]) {
      expect(textHead(raw(s), PASS_LOOK)).toBe(s.slice(0, PASS_LOOK));
    }
  });

  it('decodes only the prefix it needs, never the whole result', () => {
    for (const s of ['x'.repeat(PASS_LOOK + 1), 'x'.repeat(PASS_LOOK * 5), 'é'.repeat(PASS_LOOK + 1), `say "${'y'.repeat(PASS_LOOK)}"`]) {
      const r = raw(s);
      const whole = vi.spyOn(r, 'value');
      expect(textHead(r, PASS_LOOK)).toBe(s.slice(0, PASS_LOOK));
      expect(whole).not.toHaveBeenCalled();
    }
  });
});
