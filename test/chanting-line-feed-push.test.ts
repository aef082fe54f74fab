/**
 * A complete text's last line and the line feed that ends it (chanting's record()) go to the prose stream in
 * one push (issue 29: a crossing into the module less for most calls' text), and the stream sees the same
 * units as it did when the line feed was a push of its own: record(text) pushes what recordText(text) then
 * recordText('\n') push. The two streams agree on a push that ends with a line feed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/index.js';
import { CHANTING_DEFAULTS } from '../src/index.js';
import type { ChantingOptions } from '../src/options/detector-options.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { chantingOptions as options, prosePiece as piece } from './helpers/prose.js';
import { runs } from './helpers/streams.js';

/** A TypeScript stream that notes its pushes and every unit it took. */
class SpyStream extends TsProseStream {
  pushes = 0;
  units: number[] = [];

  override push(text: string, from: number, to: number, p: number, limit: number, lineEnd = false): number {
    this.pushes++;
    const k = super.push(text, from, to, p, limit, lineEnd);
    for (let j = from; j < k; j++) this.units.push(j < to ? text.charCodeAt(j) : 0x0a);
    return k;
  }
}

/** A detector on a spy stream, and the stream (made when its first text arrives). */
function spied(o: ChantingOptions = CHANTING_DEFAULTS, rebaseAt = 2 ** 30): { d: ChantingDetector; stream: () => SpyStream } {
  let s: SpyStream | null = null;
  const d = new ChantingDetector(o, rebaseAt, (c) => (s = new SpyStream(c)));
  return { d, stream: () => s as unknown as SpyStream };
}

const call = (index: number, text: string): ObservedCall => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;

describe('chanting: a complete text and its line feed in one push', () => {
  it('should push a text of prose lines and its closing line feed once', () => {
    const { d, stream } = spied();
    d.record(call(0, 'I will read the file first.\nThen I will run the tests again'));
    expect(stream().pushes).toBe(1);
    expect(String.fromCharCode(...stream().units)).toBe('I will read the file first.\nThen I will run the tests again\n');
    // a last line that is not prose: its line feed is not pushed either
    d.record(call(1, 'Some prose here.\n- a list item'));
    expect(stream().pushes).toBe(2);
    expect(String.fromCharCode(...stream().units.slice(-18))).toBe('\nSome prose here.\n');
  });

  it("should push what recordText(text) then recordText('\\n') push, over a session's texts", () => {
    fc.assert(
      fc.property(options, fc.array(fc.array(piece, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.constantFrom(2 ** 30, 300), (o, texts, rebaseAt) => {
        const whole = spied(o, rebaseAt);
        const pieces = spied(o, rebaseAt);
        texts.forEach((parts, index) => {
          // a text that ends with a line feed has no last line to end: recordText('\n') would add an empty one
          const text = parts.join('').replace(/\n+$/, '') || 'x';
          whole.d.record(call(index, text));
          pieces.d.recordText(text, index);
          pieces.d.recordText('\n', index);
        });
        expect(whole.stream().units).toEqual(pieces.stream().units);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should give the same hits on either stream for a push that ends with a line feed, its limit lowered or not', () => {
    const state = (s: ProseStream): string => JSON.stringify([s.pos, s.hitPeriod, s.hitPeriod > 0 ? s.hitAt : 0, s.hitPeriod > 0 ? s.hitRun : 0, s.said]);
    fc.assert(
      fc.property(options, fc.array(piece, { minLength: 1, maxLength: 12 }), fc.constantFrom(2 ** 30, 700), (o, texts, limit) => {
        const ts = new TsProseStream(o);
        const wasm = new WasmProseStream(o);
        // the same units pushed as one text with its line feed written out
        const plain = new TsProseStream(o);
        try {
          texts.forEach((text, n) => {
            const to = text.length;
            let k = 0;
            let j = 0;
            let q = 0;
            const withFeed = `${text}\n`;
            while (k < to + 1) {
              if (ts.pos >= limit) {
                const shift = ts.rebase();
                expect(wasm.rebase()).toBe(shift);
                expect(plain.rebase()).toBe(shift);
              }
              const tsTo = ts.push(text, k, to, n, limit, true);
              // (the module stops for a rebase only past a floor of its own: it is held to where the TypeScript stream stopped)
              while (j < tsTo) {
                j = tsTo <= to ? wasm.push(text, j, tsTo, n, limit) : wasm.push(text, j, to, n, limit, true);
                if (j < tsTo && (wasm.hitPeriod !== 0 || wasm.said !== null)) expect.fail(`the WebAssembly stream hit at ${j}, the TypeScript one at ${tsTo}`);
              }
              while (q < tsTo) q = plain.push(withFeed, q, to + 1, n, limit);
              expect(j).toBe(tsTo);
              expect(q).toBe(tsTo);
              const [a, b, c] = [state(wasm), state(ts), state(plain)];
              if (a !== b || b !== c) expect([a, c]).toEqual([b, b]);
              k = tsTo;
            }
          });
          for (let p = Math.max(0, ts.pos - 64); p < ts.pos; p++) if (wasm.charAt(p) !== ts.charAt(p)) expect(wasm.charAt(p)).toBe(ts.charAt(p));
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
