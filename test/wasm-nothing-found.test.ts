/**
 * The module's "nothing found" reading of result text (assembly/nothing.ts, sixteen bytes at a time)
 * against its TypeScript twin (src/text/nothing-found.ts): the same answer for any text, with phrases
 * placed at every offset around the sixteen-byte steps, in any case, after word and non-word bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTHING_LOOK, NOTHING_PHRASES, NOTHING_VALUES, bytesSayNothingFound } from '../src/text/nothing-found.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();

/** The module's answer for `bytes`. */
function wasmSays(bytes: Uint8Array): boolean {
  const inst = sharedInstance();
  const at = inst.exports.reserveScratch(bytes.length + 64);
  inst.views().u8.set(bytes, at);
  return inst.exports.saysNothingFound(at, bytes.length) === 1;
}

const phrase = fc.constantFrom(...NOTHING_PHRASES, ...NOTHING_VALUES).chain((p) =>
  fc.array(fc.boolean(), { minLength: p.length, maxLength: p.length }).map((up) => [...p].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('')),
);
const filler = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'x', 'N', 'n', 'o', '0', '9', ' ', '\n', '.', '_', '"', '@', '[', '`', '{', 'é', '\u0010'), maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const text = fc.array(fc.oneof(filler, phrase), { maxLength: 24 }).map((ps) => ps.join(''));

describe('WebAssembly "nothing found" = TypeScript twin', () => {
  it('should give the same answer for any text', () => {
    let yes = 0;
    fc.assert(
      fc.property(text, (t) => {
        const bytes = utf8.encode(t);
        const ref = bytesSayNothingFound(bytes, bytes.length);
        if (ref) yes++;
        expect(wasmSays(bytes)).toBe(ref);
      }),
      { numRuns: runs(2000) },
    );
    expect(yes).toBeGreaterThan(0);
  });

  it('should find a phrase at every offset, and only at a word start within the bytes looked at', () => {
    for (const p of ['no result', 'NOT FOUND', "couldn't find", 'found nothing', '0 rows']) {
      for (let at = 0; at < 40; at++) {
        for (const before of ['x', ' ', '9', '.']) {
          const t = `${before.repeat(at)}${p} and more text after it`;
          const bytes = utf8.encode(t);
          expect(wasmSays(bytes), `${JSON.stringify(before)} x ${at} + ${p}`).toBe(bytesSayNothingFound(bytes, bytes.length));
        }
      }
      // beyond the bytes looked at
      const far = utf8.encode(`${'y '.repeat(NOTHING_LOOK)}${p}`);
      expect(wasmSays(far)).toBe(false);
      const edge = utf8.encode(`${'-'.repeat(NOTHING_LOOK - p.length)}${p}`);
      expect(wasmSays(edge)).toBe(true);
    }
  });

  it('should not see a phrase that follows a word byte, even across a sixteen-byte step', () => {
    for (let at = 10; at < 20; at++) {
      const bytes = utf8.encode(`${' '.repeat(at)}xno result`);
      expect(bytesSayNothingFound(bytes, bytes.length)).toBe(false);
      expect(wasmSays(bytes)).toBe(false);
    }
  });
});
