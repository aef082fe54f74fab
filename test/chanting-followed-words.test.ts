/**
 * Chanting's WebAssembly period search visits the followed periods' bits only up to the last word holding
 * one (assembly/chant.ts: `followed` is their count, which chantCheck holds a loaded region to): texts
 * periodic at p, so followed at p, 2p, 3p... at once (periods in several words of the bits), broken off
 * at random and pushed in random ranges, stop the WebAssembly stream and its TypeScript twin at the same
 * characters with the same hits and runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { runs } from './helpers/streams.js';

/** Every field a detector reads after a push. */
function state(s: ProseStream): string {
  return JSON.stringify([s.pos, s.hitPeriod, s.hitPeriod > 0 ? s.hitAt : 0, s.hitPeriod > 0 ? s.hitRun : 0, s.said]);
}

/** A chunk of 33..100 units of a small alphabet said 2..8 times, then other text: its period and its multiples followed at once (bits of the second word and past), and many chance periods. */
const periodic = fc
  .tuple(fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'c'), minLength: 33, maxLength: 100 }), fc.integer({ min: 2, max: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'x', '.', '\n'), maxLength: 40 }))
  .map(([chunk, n, tail]) => chunk.repeat(n) + tail);

describe('chanting prose stream: periods followed in several words', () => {
  it('should stop at the same characters with the same hits and runs as the TypeScript twin', () => {
    let high = 0;
    fc.assert(
      fc.property(
        fc.record({ maxPeriod: fc.integer({ min: 101, max: 300 }), threshold: fc.integer({ min: 2, max: 6 }), minLength: fc.integer({ min: 2, max: 120 }), longChunk: fc.integer({ min: 1, max: 200 }), longRepetitions: fc.integer({ min: 2, max: 4 }) }),
        fc.array(periodic, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 97 }),
        (o, texts, step) => {
          const ts = new TsProseStream(o);
          const wasm = new WasmProseStream(o);
          try {
            texts.forEach((text, n) => {
              let k = 0;
              while (k < text.length) {
                const to = Math.min(text.length, k + step);
                const tsTo = ts.push(text, k, to, n, 2 ** 30);
                const wasmTo = wasm.push(text, k, to, n, 2 ** 30);
                const [a, b] = [state(wasm), state(ts)];
                if (wasmTo !== tsTo || a !== b) expect([wasmTo, a]).toEqual([tsTo, b]);
                if (ts.hitPeriod > 32) high++;
                k = tsTo;
              }
            });
          } finally {
            wasm.dispose();
          }
        },
      ),
      { numRuns: runs(300) },
    );
    // periods of the second word of bits and past were followed to a hit
    expect(high).toBeGreaterThan(20);
  });
});
