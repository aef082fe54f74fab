/**
 * Similar args' summary made in the module encoder's walk of the args (src/wasm/args-summary-mirror.ts)
 * is byte for byte the summary `summarizeArgs` makes of them (src/text/args-summary.ts, the
 * specification), on random args of every kind: nesting to and past MAX_ARGS_DEPTH, short and long
 * strings, wide units, lone surrogates, numbers of every kind, BigInt, Maps, Sets, bytes, toJSON, values
 * that throw, cycles and args past the summary's budget. Where the walk cannot make it (it gives up), the
 * detector makes it as before; plain JSON data within the budget is always made in the walk. Through the
 * engine, with and without masking, verdicts stay the reference's.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimilarArgsDetector } from '../src/detectors/similar-args.js';
import { LoopDetector } from '../src/index.js';
import { MAX_ARGS_DEPTH } from '../src/text/args-similarity.js';
import { setModuleHashing, summarizeArgs } from '../src/text/args-summary.js';
import * as A from '../src/wasm/generated/abi.js';
import { type ArgsPlan, RecordWriter } from '../src/wasm/record-writer.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';
import { deepOf, longTextOf, overBudgetOf, summaryNumber } from './helpers/summary-arbitraries.js';

const writer = new RecordWriter();

/** Whether a string has no lone surrogate. */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** The summary the encoder's walk makes of `args` (null when it gives up), written where the module can hash it. */
function walkSummary(args: unknown, maxDepth = 64): Uint8Array | null {
  const { u8, dv, u32 } = sharedInstance().views();
  // the module's host-bytes area: the hashes go in its first 32 bytes, the record after them
  const area = u32[(A.HEADER + A.H_BYTES) >>> 2] as number;
  const size = u32[(A.HEADER + A.H_BYTES_SIZE) >>> 2] as number;
  const at = (area + 32 + 7) & ~7;
  const plan: ArgsPlan = { value: args, normalised: false, viaHost: false, summarize: true, summaryAt: -1, summaryLength: 0 };
  writer.summaries.reset();
  writer.write(u8, dv, at, area + size, 1, { tool: 't', args }, plan, null, maxDepth, false, { errorText: undefined, infra: false });
  if (plan.summaryAt < 0) return null;
  return writer.summaries.bytes.slice(plan.summaryAt, plan.summaryAt + plan.summaryLength);
}

const words = fc.constantFrom('foo', 'fo0', 'bar', 'src/', ' ', '.py', '1', '_x', '-', 'baz qux', 'alpha, ');
const wideWords = fc.constantFrom('é', '語', '\u{1F600}', '\uD800', '\uDC00x', 'ÿ');
const shortText = fc.array(fc.oneof(words, words, wideWords), { maxLength: 12 }).map((xs) => xs.join(''));
/** Strings past STRING_WHOLE units: ASCII, or with a wide unit or a lone surrogate at their start, middle or end. */
const longText = longTextOf(words, wideWords);
const number = summaryNumber;

class Point {
  x = 1;
  y = 'two';
}

/** Values the walk and the summary read alike, or that make the walk give up: every kind there is. */
function odd(): fc.Arbitrary<unknown> {
  return fc.constantFrom<() => unknown>(
    () => 3n,
    () => 2n ** 80n,
    () => -(2n ** 70n),
    () => undefined,
    () => () => 1,
    () => Symbol('s'),
    () => new Map<unknown, unknown>([[1, { a: 'x' }]]),
    () => new Set(['a', 1]),
    () => new Uint8Array([1, 2, 3]),
    () => new Float64Array([0.5]),
    () => new ArrayBuffer(4),
    () => Buffer.from('hi'),
    () => new Date(0),
    () => ({ toJSON: () => 'as json' }),
    () => ({ a: 1, toJSON: () => new Map([[1, 2]]) }),
    () => new Point(),
    () => Object.create(null) as object,
    () => {
      const o: Record<string, unknown> = { a: 1 };
      o['self'] = o;
      return o;
    },
    () => Object.defineProperty({ a: 1 }, 'b', { enumerable: true, get: () => { throw new Error('no'); } }),
    () => [1, , 3], // a hole
    () => ({ ['k'.repeat(600)]: 1, ['é'.repeat(3)]: 2 }),
  ).map((make) => make());
}

/** Nested around MAX_ARGS_DEPTH; past the budget: many long strings, alone or beside small siblings. */
const deep = deepOf(shortText);
const overBudget = overBudgetOf(longText);

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    shortText,
    longText,
    number,
    fc.constantFrom(null, true, false),
    odd(),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'path', 'q', '__proto__', 'é', 'toJSON'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** Args as agents send them: an object at the top, any value below. */
const args = fc.oneof(fc.dictionary(fc.constantFrom('command', 'path', 'q', 'é', 'x'), fc.oneof(value, deep), { maxKeys: 5 }), fc.array(value, { maxLength: 3 }), deep, overBudget);

/** JSON data within the budget (a few long strings at most): always summarised in the walk. */
const plainValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    shortText.filter(wellFormed),
    number,
    fc.constantFrom(null, true, false),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'path', 'q', '__proto__', 'é', '語'), tie('v'), { maxKeys: 4 }),
  ),
})).v;
const plainArgs = fc.record({ command: fc.oneof(shortText, longText).filter(wellFormed), rest: plainValue });

afterEach(() => setModuleHashing(true));

describe('similar args summary made in the encoder walk', () => {
  for (const hashing of [true, false]) {
    it(`should write summarizeArgs' bytes exactly, or give up, on args of every kind (module hashing ${hashing ? 'on' : 'off'})`, () => {
      setModuleHashing(hashing);
      let made = 0;
      let total = 0;
      fc.assert(
        fc.property(args, fc.constantFrom(64, MAX_ARGS_DEPTH, 8), (a, maxDepth) => {
          const walk = walkSummary(a, maxDepth);
          total++;
          if (walk === null) return;
          made++;
          expect(walk).toEqual(summarizeArgs(a).slice());
        }),
        { numRuns: runs(600) },
      );
      // most args are summarised in the walk, or the equality above proves little
      expect(made).toBeGreaterThan(total / 3);
    });
  }

  it('should always make the summary in the walk for JSON data within the budget', () => {
    fc.assert(
      fc.property(plainArgs, (a) => {
        const walk = walkSummary(a);
        expect(walk).not.toBeNull();
        expect(walk).toEqual(summarizeArgs(a).slice());
      }),
      { numRuns: runs(400) },
    );
  });

  it('should give up on args past the budget, a toJSON, a cycle or a throwing getter (the detector summarises those)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const long = 'word '.repeat(200);
    for (const a of [
      { big: Array.from({ length: 12 }, (_, i) => `${i}${long}`) },
      { when: new Date(0) },
      cyclic,
      Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('no'); } }),
      { p: new Point() },
    ]) {
      expect(walkSummary(a)).toBeNull();
    }
    // the depth cap below MAX_ARGS_DEPTH: the encoding stops where the summary goes on
    let v: unknown = 'leaf';
    for (let i = 0; i < 10; i++) v = { k: v };
    expect(walkSummary(v, 8)).toBeNull();
    expect(walkSummary(v, 64)).toEqual(summarizeArgs(v).slice());
  });

  for (const normalizeVolatile of [false, true]) {
    it(`should give the reference's verdicts through the engine, one call and in batches (masking ${normalizeVolatile ? 'on' : 'off'})`, () => {
      const near = fc.tuple(fc.constantFrom('src/a.py', 'src/b.py', 'src/a.py 2024-01-02T10:00:00Z', 'lib/x.ts'), fc.oneof(value, fc.constant('same'))).map(([p, extra]) => ({ path: p, extra }));
      const events = fc.array(fc.record({ tool: fc.constantFrom('read', 'edit'), args: fc.oneof(near, args), error: fc.option(fc.constant('not found'), { nil: undefined }) }), { minLength: 1, maxLength: 30 });
      let signals = 0;
      // the engine takes the walk's summaries (not when masking: the detector summarises masked copies)
      const taken = vi.spyOn(SimilarArgsDetector.prototype, 'recordSummary');
      fc.assert(
        fc.property(events, (evs) => {
          const o = { normalizeVolatile, detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false, similarArgs: { threshold: 2, similarity: 0.5 } } } as const;
          const ref = new LoopDetector({ ...o, engine: 'reference' });
          const wasm = new LoopDetector({ ...o, engine: 'wasm' });
          const batch = new LoopDetector({ ...o, engine: 'wasm' });
          try {
            const want = evs.map((e) => JSON.stringify(ref.check(e)));
            evs.forEach((e, i) => expect(JSON.stringify(wasm.check(e))).toBe(want[i]));
            expect(batch.checkMany(evs).map((v) => JSON.stringify(v))).toEqual(want);
            signals += want.filter((v) => v.includes('similar_args')).length;
          } finally {
            wasm.dispose();
            batch.dispose();
          }
        }),
        { numRuns: runs(150) },
      );
      expect(signals).toBeGreaterThan(0);
      if (normalizeVolatile) expect(taken).not.toHaveBeenCalled();
      else expect(taken.mock.calls.length).toBeGreaterThan(100);
      taken.mockRestore();
    });
  }
});
