/**
 * The WebAssembly pipeline against the TypeScript reference: the same random and adversarial event streams
 * through both must give identical verdicts, call by call, and identical call signatures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector, callSignature } from '../src/index.js';
import type { Detector, LoopDetectorOptions, ObservedCall, ToolEvent } from '../src/index.js';

/** Strings with the awkward parts: quotes, escapes, emoji, lone surrogates, non-ASCII, digits, paths. */
const nasty = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'find', 'file', 'error', 'test', 'the', 'no result', ' ', '  ', '\n', '\t') },
      { weight: 2, arbitrary: fc.constantFrom('"', "'", '`', '\\', '/', '{', '}', '[', ']', ':', ',', '0', '7', '42', '3.14', 'deadbeef1', '/tmp/x.py') },
      { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '日本', '😀', '\u2028', '\u00a0', '\ufeff', '\u0000', '\u001f') },
      { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** Numbers as JSON text writes them, including forms the module must hand back to the host. */
const numberText = fc.oneof(
  fc.constantFrom('0', '-0', '1', '1.0', '1e0', '10e-1', '0.1', '1.5e3', '1500', '-2.50', '123456789012345', '1234567890123456', '12345678901234567890', '1e22', '1e23', '1e-22', '1e-23', '1e400', '-1e-400', '0.000001', '5e-324', '9007199254740993', '0.30000000000000004'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.integer().map(String),
);

/** JSON text for an object, with whitespace, key order and number forms of our choosing. */
const jsonText = fc
  .tuple(fc.uniqueArray(fc.constantFrom('path', 'query', 'n', 'id', 'ts', '0', '1', 'opts', 'text'), { minLength: 0, maxLength: 5 }), fc.array(fc.oneof(numberText, nasty.map((s) => JSON.stringify(s)), fc.constantFrom('true', 'false', 'null', '[]', '{}', '[1, "x", {"k": 2}]', '{"deep": {"deeper": [[[1]]]}}')), { minLength: 5, maxLength: 5 }), fc.constantFrom('', ' ', '\n  '), fc.boolean())
  .map(([keys, values, ws, dup]) => {
    const members = keys.map((k, i) => `${ws}${JSON.stringify(k)}${ws}:${ws}${values[i]}`);
    if (dup && keys.length > 0) members.push(`${JSON.stringify(keys[0])}: 7`);
    return `${ws}{${members.join(',')}${ws}}${ws}`;
  });

const argsValue = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom('path', 'query', 'n', 'id', 'ts', 'nested'), fc.oneof(nasty, fc.integer({ min: -3, max: 3 }), fc.double(), fc.boolean(), fc.constant(null), fc.array(nasty, { maxLength: 3 })), { maxKeys: 4 }) },
  { weight: 3, arbitrary: jsonText },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('[', '{"unterminated": ', '{"a": 1} trailing', '[1, 2,]', '{"a": 01}', '{"a": "\\x"}', '{"a": "\u0001"}') },
);

const event = fc.record(
  {
    tool: fc.constantFrom('bash', 'search', 'read_file', 'edit'),
    args: argsValue,
    result: fc.option(fc.oneof(nasty, fc.constantFrom('No results found.', '0 matches', '   ', '', '[]', 'OK', 'done'), fc.constant(null), fc.constant([]), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 })), { nil: undefined }),
    error: fc.option(fc.oneof(nasty, fc.constantFrom('HTTP 429 Too Many Requests', 'ModuleNotFoundError: No module named \'x1\'', 'ModuleNotFoundError: No module named \'y2\'', 'ETIMEDOUT', true)), { nil: undefined }),
    text: fc.option(fc.oneof(nasty, fc.constant('Let me try again. '.repeat(12))), { nil: undefined }),
    description: fc.option(fc.constantFrom('read the config', 'read the configuration file', 'write the model'), { nil: undefined }),
    step: fc.option(fc.nat(1000), { nil: undefined }),
  },
  { requiredKeys: ['tool'] },
) as fc.Arbitrary<ToolEvent>;

/** Retries with one character changed ("foo", "fo0"), failing or coming back empty, in both args forms. */
const variant = fc
  .tuple(fc.constantFrom('handleSubmitForm', 'user_profile_page', 'résumé parser'), fc.nat(20), fc.constantFrom('0', 'x', 'é', '😀'), fc.boolean(), fc.constantFrom<'error' | 'nothing' | 'none'>('error', 'nothing', 'none'))
  .map(([base, at, ch, asText, outcome]): ToolEvent => {
    const i = at % base.length;
    const q = base.slice(0, i) + ch + base.slice(i + 1);
    const args = asText ? JSON.stringify({ q, limit: 5 }) : { q, limit: 5 };
    return { tool: 'search', args, ...(outcome === 'error' ? { error: `No match for '${q}'` } : outcome === 'nothing' ? { result: 'No results found.' } : {}) };
  });

/** A stream that repeats events from a small pool, so loops actually happen. */
const stream = fc
  .tuple(fc.array(fc.oneof(event, variant), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }))
  .map(([pool, picks]) => picks.map((p) => pool[p % pool.length] as ToolEvent));

/** Property runs, scaled by LOOPWATCH_FC_SCALE for a deeper search (e.g. LOOPWATCH_FC_SCALE=20). */
const runs = (n: number): number => Math.round(n * Math.max(Number(process.env.LOOPWATCH_FC_SCALE ?? 1) || 1, 0.01));

const options = fc.record({
  detectors: fc.record({
    exactRepeat: fc.constantFrom(true, { threshold: 2, window: 4 }),
    frequency: fc.constantFrom(true, { threshold: 2, window: 5 }),
    cycle: fc.constantFrom(true, { key: 'tool' as const, window: 10 }, { minPeriod: 2, maxPeriod: 3, repetitions: 3, window: 9 }),
    semantic: fc.constantFrom(true, { sameTool: false, minTokens: 1, countIdentical: true, sketchSize: 4 }, { threshold: 0.3, window: 5, minSimilar: 1, maxTokens: 8, maxTextLength: 40 }),
    similarArgs: fc.constantFrom(true, false, { threshold: 2, window: 3 }),
    resultRepeat: fc.constantFrom(true, { masked: false, threshold: 2, window: 3 }),
    deadEnd: fc.constantFrom(true, { threshold: 2, window: 4, matchClass: false }),
    stateRepeat: fc.constantFrom(true, { threshold: 2, window: 7 }),
    chanting: fc.constantFrom(true, false),
  }),
  normalizeVolatile: fc.boolean(),
  maxDepth: fc.constantFrom(64, 2, 5),
  ignoreFields: fc.constantFrom([], ['ts'], ['id', 'nested']),
  policy: fc.record({ progress: fc.constantFrom('suppress' as const, 'ignore' as const, 'slow' as const), minConfidence: fc.constantFrom(0, 0.5) }),
}) as fc.Arbitrary<LoopDetectorOptions>;

function signatureSpy(seen: string[]): Detector {
  return { name: 'spy', record: (c: ObservedCall) => void seen.push(`${c.index}:${c.signature}`), check: () => null, reset: () => undefined };
}

describe('WebAssembly pipeline = TypeScript reference', () => {
  it('should give identical verdicts call by call on random streams and options', () => {
    const kinds = new Map<string, number>();
    fc.assert(
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
      { numRuns: runs(400) },
    );
    // the streams must exercise every built-in detector, or equality proves little
    for (const k of ['exact_repeat', 'frequency', 'cycle', 'semantic', 'similar_args', 'result_repeat', 'dead_end', 'state_repeat', 'chanting']) {
      expect(kinds.get(k) ?? 0, k).toBeGreaterThan(0);
    }
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
