/**
 * With `normalizeVolatile`, the module tokenises an action's masked text; its sketch cache (assembly/
 * sketch-cache.ts) is keyed by the raw text, so texts that differ only in what masking hides (numbers, ids,
 * paths) missed it and were masked and tokenised again, though masking made them one text. Since branch
 * perf48 a raw text missed is looked up again as masked text: such texts are tokenised once (over the
 * traces' 28,505 calls with masking, 10,920 texts tokenised rather than 18,522). The verdicts must stay the
 * reference's whatever the sessions' masking, token caps and sketch sizes, in one thread.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

/** Semantic alone, with the given masking and semantic options. */
function semanticOnly(normalizeVolatile: boolean, semantic: Record<string, unknown> = {}) {
  return { normalizeVolatile, detectors: { exactRepeat: false, frequency: false, cycle: false, resultRepeat: false, deadEnd: false, stateRepeat: false, similarArgs: false, chanting: false, semantic: { minTokens: 1, minSimilar: 1, ...semantic } } } as const;
}

/** Texts the module tokenised in this thread so far. */
const tokenised = (): number => sharedInstance().exports.tokenisedTexts();

/** An action text whose volatile parts (a count, an id, a path) change with `n`. */
const volatileText = (n: number): string => `retry upload batch${n} of records to /tmp/run-${n}/out.json after worker ${0x9f86d081 + n * 7919} timed out`;

describe('semantic sketches shared by texts masking makes one', () => {
  it('should tokenise texts that differ only in what masking hides once, with masking, and each of them without', () => {
    const masked = new LoopDetector({ engine: 'wasm', ...semanticOnly(true) });
    const plain = new LoopDetector({ engine: 'wasm', ...semanticOnly(false) });
    try {
      // (a number never used in this thread before: no text of these is in the cache yet)
      const base = 1_000 + Math.floor(Math.random() * 1e6);
      const before = tokenised();
      for (let n = 0; n < 12; n++) masked.check({ tool: 'upload', args: { note: volatileText(base + n) } });
      expect(tokenised() - before).toBe(1);
      const mid = tokenised();
      for (let n = 0; n < 12; n++) plain.check({ tool: 'upload', args: { note: volatileText(base + n) } });
      expect(tokenised() - mid).toBe(12);
    } finally {
      masked.dispose();
      plain.dispose();
    }
  });

  it('should give the reference\'s verdicts when texts alike once masked recur across sessions of other masking, token caps and sketch sizes', () => {
    // texts sharing a masked form, and others, met by sessions whose options differ, in one thread: a sketch
    // remembered under one masked text or one set of options must never stand for another's
    const vocab = ['upload', 'records', 'worker', 'timed', 'batch', 'retry', 'parser', 'schema', 'column', 'index'];
    const texts = Array.from({ length: 8 }, (_, t) => (n: number) => Array.from({ length: 14 }, (_, i) => `${vocab[(i * (t + 3)) % vocab.length]}${i % 4 === 0 ? ` item${n + i}` : ''}${i % 5 === 0 ? ` /var/tmp/${n}/f${i}` : ''}`).join(' '));
    const semantic = fc.record({ sketchSize: fc.constantFrom(4, 8, 24), maxTokens: fc.constantFrom(5, 12, 256), threshold: fc.constantFrom(0.3, 0.65) });
    let flagged = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(semantic, fc.boolean()), { minLength: 2, maxLength: 4 }), fc.array(fc.tuple(fc.nat(7), fc.nat(3)), { minLength: 4, maxLength: 40 }), (configs, picks) => {
        const sessions = configs.map(([sem, mask]) => [new LoopDetector({ engine: 'reference', ...semanticOnly(mask, sem) }), new LoopDetector({ engine: 'wasm', ...semanticOnly(mask, sem) })] as const);
        try {
          picks.forEach(([t, n], k) => {
            const [ref, wasm] = sessions[k % sessions.length] as (typeof sessions)[number];
            const e = { tool: 'search', args: { q: (texts[t] as (n: number) => string)(n * 37) } };
            const v = ref.check(e);
            if (v !== null) flagged++;
            expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(v));
          });
        } finally {
          for (const [, w] of sessions) w.dispose();
        }
      }),
      { numRuns: runs(200) },
    );
    expect(flagged).toBeGreaterThan(20);
  });
});
