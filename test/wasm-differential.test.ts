/**
 * The WebAssembly pipeline against the TypeScript reference: the same random and adversarial event streams
 * through both must give identical verdicts, call by call, and identical call signatures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector, callSignature } from '../src/index.js';
import type { Detector, ObservedCall, ToolEvent } from '../src/index.js';
import { argsValue, options, runs, stream } from './helpers/streams.js';

function signatureSpy(seen: string[]): Detector {
  return { name: 'spy', record: (c: ObservedCall) => void seen.push(`${c.index}:${c.signature}`), check: () => null, reset: () => undefined };
}

describe('WebAssembly pipeline = TypeScript reference', () => {
  it('should give identical verdicts call by call on random streams and options', () => {
    const kinds = new Map<string, number>();
    const compare = (seed?: number) => fc.assert(
      fc.property(stream, options, (events, o) => {
        const refSeen: string[] = [];
        const wasmSeen: string[] = [];
        const ref = new LoopDetector({ ...o, engine: 'reference', custom: [signatureSpy(refSeen)] });
        const wasm = new LoopDetector({ ...o, engine: 'wasm', custom: [signatureSpy(wasmSeen)] });
        try {
          for (const e of events) {
            const v = ref.check(e);
            expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(v));
            for (const s of v?.signals ?? []) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
          }
          expect(wasmSeen).toEqual(refSeen);
          expect(wasm.stats()).toEqual(ref.stats());
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(400), ...(seed === undefined ? {} : { seed }) },
    );
    compare();
    // the streams must exercise every built-in detector, or equality proves little; a random run can leave
    // a rare one out (similar args fired 4-17 times in a run of seeds 1-3, and 0 in one run of mem6k's), so
    // a run at a seed known to reach them all is added then: still random first, never failing by chance
    const all = ['exact_repeat', 'frequency', 'cycle', 'semantic', 'similar_args', 'result_repeat', 'dead_end', 'state_repeat', 'chanting'];
    if (all.some((k) => !kinds.has(k))) compare(1);
    for (const k of all) expect(kinds.get(k) ?? 0, k).toBeGreaterThan(0);
  });

  it('should agree on semantic similarity at any threshold and sketch size, for sets smaller and larger than the sketch', () => {
    // a small vocabulary, so that calls share anywhere from none to all of their tokens
    const vocab = Array.from({ length: 40 }, (_, i) => `word${i}x`);
    const text = fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 60 }).map((ws) => ws.join(' '));
    let flagged = 0;
    let quiet = 0;
    const semantic = fc.record({ threshold: fc.double({ min: 0.05, max: 1, noNaN: true }), sketchSize: fc.integer({ min: 4, max: 32 }), window: fc.integer({ min: 2, max: 12 }), minSimilar: fc.integer({ min: 1, max: 3 }), minTokens: fc.constant(1), countIdentical: fc.boolean(), includeTool: fc.boolean() });
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 30 }), semantic, (texts, sem) => {
        const o = { detectors: { exactRepeat: false, frequency: false, cycle: false, resultRepeat: false, deadEnd: false, stateRepeat: false, similarArgs: false, chanting: false, semantic: sem } } as const;
        const ref = new LoopDetector({ ...o, engine: 'reference' });
        const wasm = new LoopDetector({ ...o, engine: 'wasm' });
        try {
          for (const t of texts) {
            const e = { tool: 'search', args: { q: t } };
            const v = ref.check(e);
            expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(v));
            if (v !== null) flagged++;
            else quiet++;
          }
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(400) },
    );
    // both answers must be common, or equality proves little
    expect(flagged).toBeGreaterThan(100);
    expect(quiet).toBeGreaterThan(100);
  });

  it('should agree on semantic verdicts when the same action texts recur across sessions tokenised with other options (the module remembers sketches by text)', () => {
    // a few texts, each long enough to be cut by a small maxTokens, met again and again by sessions whose
    // masking, token cap and sketch size differ, in one thread: a sketch remembered under one set of
    // options must never stand for another's
    const vocab = Array.from({ length: 30 }, (_, i) => `term${i}q`);
    const texts = Array.from({ length: 6 }, (_, t) => Array.from({ length: 40 }, (_, i) => `${vocab[(i * (t + 3)) % vocab.length]} ${i % 7 === 0 ? `id${t}${i}` : ''}`).join(' '));
    const semantic = fc.record({ sketchSize: fc.constantFrom(4, 8, 24), maxTokens: fc.constantFrom(5, 12, 256), threshold: fc.constantFrom(0.3, 0.65), minSimilar: fc.constant(1), minTokens: fc.constant(1) });
    let flagged = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(semantic, fc.boolean()), { minLength: 2, maxLength: 4 }), fc.array(fc.nat(5), { minLength: 4, maxLength: 40 }), (configs, picks) => {
        const sessions = configs.map(([sem, mask]) => {
          const o = { normalizeVolatile: mask, detectors: { exactRepeat: false, frequency: false, cycle: false, resultRepeat: false, deadEnd: false, stateRepeat: false, similarArgs: false, chanting: false, semantic: sem } } as const;
          return [new LoopDetector({ ...o, engine: 'reference' }), new LoopDetector({ ...o, engine: 'wasm' })] as const;
        });
        try {
          picks.forEach((t, k) => {
            const [ref, wasm] = sessions[k % sessions.length] as readonly [LoopDetector, LoopDetector];
            const e = { tool: 'search', args: { q: texts[t] } };
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

  it('should give the same verdicts through checkMany, in any batch sizes, as check() one by one', () => {
    fc.assert(
      fc.property(stream, options, fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 10 }), (events, o, sizes) => {
        const ref = new LoopDetector({ ...o, engine: 'reference' });
        const wasm = new LoopDetector({ ...o, engine: 'wasm' });
        const refMany = new LoopDetector({ ...o, engine: 'reference' });
        try {
          const expected = events.map((e) => JSON.stringify(ref.check(e)));
          const got: string[] = [];
          const gotRef: string[] = [];
          for (let at = 0, k = 0; at < events.length; k++) {
            const batch = events.slice(at, at + (sizes[k % sizes.length] as number));
            at += batch.length;
            for (const v of wasm.checkMany(batch)) got.push(JSON.stringify(v));
            for (const v of refMany.checkMany(batch)) gotRef.push(JSON.stringify(v));
          }
          expect(got).toEqual(expected);
          expect(gotRef).toEqual(expected);
          expect(wasm.stats()).toEqual(ref.stats());
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('should give each session the same verdicts through checkBatch, interleaved in any order and batch sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(stream, options), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 200 }), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 5 }), (sessions, order, sizes) => {
        const refs = sessions.map(([, o]) => new LoopDetector({ ...o, engine: 'reference' }));
        const expected = sessions.map(([events], s) => events.map((e) => JSON.stringify((refs[s] as LoopDetector).check(e))));
        // half the sessions on the reference engine: mixed batches must keep each session's order too
        const live = sessions.map(([, o], s) => new LoopDetector({ ...o, engine: s % 2 === 0 ? 'wasm' : 'reference' }));
        const streams = sessions.map(([events]) => events);
        const next = sessions.map(() => 0);
        const entries: { detector: LoopDetector; event: ToolEvent; s: number }[] = [];
        let pick = 0;
        while (entries.length < sessions.reduce((n, [events]) => n + events.length, 0)) {
          let s = (order[pick++ % Math.max(order.length, 1)] ?? 0) % sessions.length;
          while ((next[s] as number) >= (streams[s] as ToolEvent[]).length) s = (s + 1) % sessions.length;
          entries.push({ detector: live[s] as LoopDetector, event: (streams[s] as ToolEvent[])[next[s] as number] as ToolEvent, s });
          next[s] = (next[s] as number) + 1;
        }
        const got: string[][] = sessions.map(() => []);
        try {
          for (let at = 0, k = 0; at < entries.length; k++) {
            const chunk = entries.slice(at, at + (sizes[k % sizes.length] as number));
            at += chunk.length;
            LoopDetector.checkBatch(chunk).forEach((v, j) => {
              expect(v).not.toBeInstanceOf(Error);
              (got[(chunk[j] as { s: number }).s] as string[]).push(JSON.stringify(v));
            });
          }
          expect(got).toEqual(expected);
          live.forEach((d, s) => expect(d.stats()).toEqual((refs[s] as LoopDetector).stats()));
        } finally {
          for (const d of live) d.dispose();
        }
      }),
      { numRuns: runs(150) },
    );
  });

  it('should fingerprint args exactly as callSignature does, for any value and any JSON text', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ tool: fc.constantFrom('t', 'ü', '😀'), args: fc.oneof(argsValue, fc.jsonValue(), fc.jsonValue().map((v) => JSON.stringify(v, null, 1))) }), { maxLength: 12 }), (calls) => {
        const seen: string[] = [];
        const d = new LoopDetector({ engine: 'wasm', custom: [signatureSpy(seen)] });
        try {
          calls.forEach((c) => d.check(c as ToolEvent));
          expect(seen).toEqual(calls.map((c, i) => `${i}:${callSignature(c.tool, c.args)}`));
        } finally {
          d.dispose();
        }
      }),
      { numRuns: runs(400) },
    );
  });

  it('should agree on huge, deeply nested, cyclic and exotic args', () => {
    const cyc: Record<string, unknown> = { a: 'x' };
    cyc.self = cyc;
    let deep: unknown = 'leaf';
    for (let i = 0; i < 3000; i++) deep = [deep, { k: i }];
    let deepText = '"leaf"';
    for (let i = 0; i < 70_000; i++) deepText = `[${deepText}]`;
    const exotic: unknown[] = [
      'x'.repeat(300_000),
      { big: 'y'.repeat(100_000), n: 1 },
      deep,
      deepText,
      cyc,
      { n: 10n ** 30n, m: 5n, d: new Date(0), bad: new Date(NaN), u8: new Uint8Array([1, 2, 3]), map: new Map([['k', 1]]), set: new Set(['s']) },
      { get boom(): never { throw new Error('no'); }, fine: 1 },
      JSON.stringify({ a: Array.from({ length: 300 }, (_, i) => ({ [`k${i}`]: i })) }),
      JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]))),
      '{"a":1,"a":2}',
      '{"0":"first","b":"x"}',
      '{"s":"\\ud83d\\ude00 \\ud800 \\udc00 \\u00e9"}',
      '{"s":"\ud800"}',
      // members read by for-in: an own key that shadows hasOwnProperty, a non-enumerable own toJSON,
      // an own enumerable toJSON that is data, long and non-ASCII strings (written by offset)
      { hasOwnProperty: 'x', k: 1 },
      Object.defineProperty({ a: 1 }, 'toJSON', { value: () => ({ replaced: true }), enumerable: false }),
      { toJSON: 'not a function', a: 2 },
      // not a plain object, and its prototype has an enumerable key: only own keys count
      Object.assign(Object.create({ inherited: 2 }) as object, { own: 1 }),
      { long: 'é'.repeat(70), lone: `a${'\ud800'}b`.repeat(40), emoji: '😀'.repeat(50) },
    ];
    const seenRef: string[] = [];
    const seenWasm: string[] = [];
    const ref = new LoopDetector({ engine: 'reference', custom: [signatureSpy(seenRef)] });
    const wasm = new LoopDetector({ engine: 'wasm', custom: [signatureSpy(seenWasm)] });
    for (const args of [...exotic, ...exotic]) {
      const e = { tool: 'weird', args, result: typeof args === 'string' ? args.slice(0, 5000) : 'r' };
      expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(ref.check(e)));
    }
    expect(seenWasm).toEqual(seenRef);
    wasm.dispose();
  });
});
