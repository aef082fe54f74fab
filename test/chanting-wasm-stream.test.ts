/**
 * Chanting's prose stream in the WebAssembly module (src/wasm/wasm-prose-stream.ts, assembly/chant.ts)
 * against its TypeScript twin (src/text/prose-stream.ts): the same characters give the same hits, runs,
 * sentences, positions and ring, and the detector on either gives the same signals, rebased often or not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/index.js';
import { CHANTING_DEFAULTS } from '../src/index.js';
import type { ChantingOptions } from '../src/options/detector-options.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { SENTENCE_SHOWN, SENTENCE_WINDOW } from '../src/text/sentence-repeats.js';
import * as A from '../src/wasm/generated/abi.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { chantingOptions as options, prosePiece as piece } from './helpers/prose.js';
import { runs } from './helpers/streams.js';

/** Every field a detector reads after a push. */
function state(s: ProseStream): string {
  return JSON.stringify([s.pos, s.hitPeriod, s.hitPeriod > 0 ? s.hitAt : 0, s.hitPeriod > 0 ? s.hitRun : 0, s.said]);
}

describe('chanting prose stream: WebAssembly = TypeScript', () => {
  it('should share the sentence window and the characters kept for a report with the TypeScript twin', () => {
    expect(A.SENTENCE_WINDOW).toBe(SENTENCE_WINDOW);
    expect(A.SENTENCE_SHOWN).toBe(SENTENCE_SHOWN);
  });

  it('should stop at the same characters with the same hits, runs, sentences and ring, rebased or not', () => {
    let hits = 0;
    let said = 0;
    fc.assert(
      fc.property(options, fc.array(piece, { minLength: 1, maxLength: 16 }), fc.oneof({ arbitrary: fc.constant(2 ** 30), weight: 2 }, { arbitrary: fc.integer({ min: 0, max: 3000 }), weight: 1 }), (o, pieces, limit) => {
        const ts = new TsProseStream(o);
        const wasm = new WasmProseStream(o);
        try {
          pieces.forEach((text, n) => {
            let k = 0;
            let j = 0;
            while (k < text.length) {
              // a lowered limit: the WebAssembly stream stops no later, and rebases the same
              if (ts.pos >= limit) expect(wasm.rebase()).toBe(ts.rebase());
              const tsTo = ts.push(text, k, text.length, n, limit);
              while (j < tsTo) {
                j = wasm.push(text, j, tsTo, n, limit);
                if (j < tsTo && (wasm.hitPeriod !== 0 || wasm.said !== null)) expect.fail(`the WebAssembly stream hit at ${j}, the TypeScript one at ${tsTo}`);
              }
              // (expect() only on a difference: a chant hits at every character)
              const [a, b] = [state(wasm), state(ts)];
              if (a !== b) expect(a).toBe(b);
              if (ts.hitPeriod > 0 && hits++ % 8 === 0) {
                const chunk = (st: ProseStream) => Array.from({ length: ts.hitPeriod }, (_, q) => st.charAt(ts.hitAt - q)).join(',');
                expect(chunk(wasm)).toBe(chunk(ts));
              }
              if (ts.said !== null) said++;
              k = tsTo;
            }
          });
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
    expect(hits).toBeGreaterThan(50);
    expect(said).toBeGreaterThan(5);
  });

  it('should give the detector the same signals on either stream, texts whole or in pieces, with rebaseAt lowered', () => {
    const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;
    let signals = 0;
    fc.assert(
      fc.property(options, fc.array(fc.tuple(fc.array(piece, { maxLength: 6 }), fc.boolean()), { minLength: 1, maxLength: 10 }), fc.constantFrom(2 ** 30, 300, 1000), (o, calls, rebaseAt) => {
        const ts = new ChantingDetector(o, rebaseAt);
        const wasm = new ChantingDetector(o, rebaseAt, (c: ChantingOptions) => new WasmProseStream(c));
        try {
          calls.forEach(([pieces, streamed], index) => {
            if (streamed) {
              for (const p of pieces) {
                ts.recordText(p, index);
                wasm.recordText(p, index);
                expect(wasm.check()).toEqual(ts.check());
              }
            } else {
              ts.record(call(index, pieces.join('')));
              wasm.record(call(index, pieces.join('')));
              const s = ts.check();
              if (s !== null) signals++;
              expect(wasm.check()).toEqual(s);
            }
          });
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
    expect(signals).toBeGreaterThan(20);
  });

  it('should copy code units as they are: lone surrogates, pairs, a byte order mark, NUL', () => {
    const text = 'a\ud800b\udc00c\ud83d\ude00\ufeff\u0000\uffff'.repeat(3);
    const s = new WasmProseStream(CHANTING_DEFAULTS);
    try {
      for (let k = 0; k < text.length; ) k = s.push(text, k, text.length, 0, 2 ** 30);
      expect(Array.from({ length: text.length }, (_, p) => s.charAt(p))).toEqual(Array.from({ length: text.length }, (_, p) => text.charCodeAt(p)));
      // a range from the middle of a text
      const from = 5;
      for (let k = from; k < text.length; ) k = s.push(text, k, text.length, 1, 2 ** 30);
      expect(Array.from({ length: text.length - from }, (_, p) => s.charAt(text.length + p))).toEqual(Array.from({ length: text.length - from }, (_, p) => text.charCodeAt(from + p)));
    } finally {
      s.dispose();
    }
  });

  it('should keep the search exact past a sentence longer than the 160 units kept for its report', () => {
    // a sentence that never ends (no ".", "!", "?" or line feed) while a short chunk repeats from every
    // offset of the ring: the kernel writes past a full `shown`, into its spare unit and nothing else
    const o = { maxPeriod: 60, threshold: 2, minLength: 5, longChunk: 1, longRepetitions: 2 };
    for (let off = 0; off < 130; off++) {
      const text = `${'y'.repeat(200 + off)}cbcbcbcb zz${'q'.repeat(50)}`;
      const ts = new TsProseStream(o);
      const wasm = new WasmProseStream(o);
      const hitsOf = (st: ProseStream): string[] => {
        const out: string[] = [];
        for (let k = 0; k < text.length; ) {
          k = st.push(text, k, text.length, 0, 2 ** 30);
          if (st.hitPeriod > 0) out.push(`${st.hitAt}:${st.hitPeriod}:${st.hitRun}`);
        }
        return out;
      };
      expect(hitsOf(wasm)).toEqual(hitsOf(ts));
      wasm.dispose();
    }
  });

  it('should agree on one very long text: a chunk of 1,000 characters said three times after 200,000 characters of prose', () => {
    const o = { maxPeriod: 4096, threshold: 10, minLength: 100, longChunk: 60, longRepetitions: 3 };
    const words = Array.from({ length: 40_000 }, (_, i) => `w${(i * 7919) % 10007}`).join(' ');
    const chunk = Array.from({ length: 200 }, (_, i) => `c${i}`).join(' ').slice(0, 1000);
    const text = `${words} ${chunk}${chunk}${chunk} end`;
    for (const rebaseAt of [2 ** 30, 50_000]) {
      const ts = new ChantingDetector(o, rebaseAt);
      const wasm = new ChantingDetector(o, rebaseAt, (c: ChantingOptions) => new WasmProseStream(c));
      ts.record({ index: 0, event: { tool: 't', text } } as unknown as ObservedCall);
      wasm.record({ index: 0, event: { tool: 't', text } } as unknown as ObservedCall);
      const s = ts.check();
      expect(s?.repeatCount).toBe(3);
      expect(wasm.check()).toEqual(s);
      wasm.dispose();
    }
  });
});
