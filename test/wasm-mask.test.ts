/**
 * The module's volatile-part masking (assembly/mask.ts) against its TypeScript twin
 * (src/text/mask-volatile.ts): the same masked bytes for any text and limit, with the parts masking must
 * get right (white space runs, quotes, paths, ids, labelled ids, numbers, multi-byte characters) placed at
 * every offset around the module's sixteen-byte steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MASK_LIMIT, maskBytes } from '../src/text/mask-volatile.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();

/** The module's masked bytes for `bytes` under `limit`. */
function wasmMask(bytes: Uint8Array, limit: number): number[] {
  const inst = sharedInstance();
  const n = Math.min(bytes.length, limit);
  const at = inst.exports.reserveScratch(bytes.length + 6 * n + 64);
  const dst = (at + bytes.length + 15) & ~15;
  inst.views().u8.set(bytes, at);
  const m = inst.exports.maskBytes(at, bytes.length, limit, dst);
  return Array.from(inst.views().u8.subarray(dst, dst + m));
}

const piece = fc.oneof(
  fc.constantFrom('output', 'line', 'Error:', 'exit', ' ', '  ', '\n', '\t', ' \n ', '"quoted"', "'q'", '`cmd`', '"', '/usr/bin/env', 'C:\\\\x', 'a/b', 'line42', '10:01:22', '9f86d081', 'deadbeef12', 'abc_12', '_', '(x)', '[1]', '{}', ',', ';', '<', '=', 'é', '日本', '🙂', 'x-y.z', '-', '.', 'ID:', 'id:', 'Id: ', 'ID:x', 'Chunk ID: f800eb', 'Chunk ID: abcdef'),
  fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', '7', 'f', ' ', '\n', '/', '"', '-', '.', ':', 'I', 'D', 'd'), maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const text = fc.array(piece, { maxLength: 60 }).map((ps) => ps.join(''));

describe('WebAssembly masking = TypeScript twin', () => {
  it('should mask any text to the same bytes, under any limit', () => {
    fc.assert(
      fc.property(text, fc.oneof(fc.constant(MASK_LIMIT), fc.integer({ min: 0, max: 300 })), (t, limit) => {
        const bytes = utf8.encode(t);
        expect(wasmMask(bytes, limit)).toEqual(Array.from(maskBytes(bytes, bytes.length, limit)));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should mask the same whatever offset a word, number, path or space run starts at', () => {
    for (const part of ['output line here', 'line42 ok', '/tmp/x y', 'a  b', 'abcdefg1 x', ' lead', 'tail ', 'x\n\ny', 'deadbeef1234 z', 'Chunk ID: abcdef x', 'ID:  f800eb', 'id: a/b', 'ID:', 'f(x, y) = z;', 'a  (b) [c]', "say 'hi' now", 'x\t\t{y}', 'ab cd9 ef', 'one two three four five six', `"${'x'.repeat(199)}"`, `"${'x'.repeat(200)}"`, `"${'x'.repeat(201)}"`, `'${'y'.repeat(30)}\n'`, `\`${'z '.repeat(40)}\``]) {
      for (let at = 0; at < 40; at++) {
        for (const before of ['w', ' ', '9', '\n']) {
          const bytes = utf8.encode(`${before.repeat(at)}${part} and words after it all`);
          expect(wasmMask(bytes, MASK_LIMIT), `${JSON.stringify(before)} x ${at} + ${part}`).toEqual(Array.from(maskBytes(bytes, bytes.length)));
        }
      }
    }
  });
});
