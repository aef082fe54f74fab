/**
 * Similar args' summary made by the module from args given in its value encoding (a pool worker's
 * EncodedArgs: assembly/args-summary-encoded.ts, src/wasm/module-args-summary.ts, the record writer's
 * EncodedArgs branch) is byte for byte `summarizeArgs` of the decoded args (src/text/args-summary.ts, the
 * specification; what a worker made before, decoding every call's args into objects), and of the args the
 * calling thread encoded: random JSON data with strings of every width (BOM, astral, Latin-1, controls),
 * long strings past the summary's hashing threshold, array-index and `__proto__` keys, numbers of every
 * kind, nesting to and past MAX_ARGS_DEPTH and args past the summary's budget. Where the module makes none (it
 * gives up), the detector summarises the decoded args as before. Every trace call's args too (skipped
 * without ../shared). Through a pool worker (in this thread), calls packed as objects take the module's
 * summary (their args are never decoded) and give the engine's verdicts.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { valueSymbol } from 'piscina';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { SimilarArgsDetector } from '../src/detectors/similar-args.js';
import { ENCODED, writeCheck } from '../src/pool/event-packing.js';
import handle from '../src/pool/pool-worker.js';
import type { RunResult } from '../src/pool/worker-tasks.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { MAX_ARGS_DEPTH } from '../src/text/args-similarity.js';
import { STRING_KEPT, SUMMARY_MAX_BYTES, summarizeArgs } from '../src/text/args-summary.js';
import { ArgsEncoder } from '../src/wasm/args-encoder.js';
import { ValueEncoder } from '../src/wasm/encode-value.js';
import { EncodedArgs, decodeJsonData } from '../src/wasm/encoded-args.js';
import * as A from '../src/wasm/generated/abi.js';
import { summaryOfEncodedBytes } from '../src/wasm/module-args-summary.js';
import { type ArgsPlan, RecordWriter } from '../src/wasm/record-writer.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';
import { deepOf, longTextOf, overBudgetOf, summaryNumber } from './helpers/summary-arbitraries.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const area = new Uint8Array(1 << 22);
const areaView = new DataView(area.buffer);
const encoder = new ValueEncoder();
encoder.trackLoss = true;

/** The value encoding of `v` (as a pool's calling thread writes it), or null when it does not say `v` exactly. */
function encode(v: unknown): Uint8Array | null {
  const enc = encoder;
  enc.reset(area, areaView, 0, area.length);
  enc.value(v, null, 64);
  return enc.lossy ? null : area.slice(0, enc.position);
}

const writer = new RecordWriter();

/** The summary the record writer takes for EncodedArgs of `bytes` (null when none is made), as a worker writes them. */
function writerSummary(bytes: Uint8Array): Uint8Array | null {
  // the record goes in the module's prose area (the summary is made in its host-bytes area)
  const room = bytes.length + 4096;
  const at = ((sharedInstance().exports.reserveText(room + 8) >>> 0) + 7) & ~7;
  const { u8, dv } = sharedInstance().views();
  const args = new EncodedArgs(bytes);
  const plan: ArgsPlan = { value: args, normalised: false, viaHost: false, summarize: true, summaryAt: -1, summaryLength: 0 };
  writer.summaries.reset();
  writer.write(u8, dv, at, at + room, 1, { tool: 't', args }, plan, null, 64, false, { errorText: undefined, infra: false });
  if (plan.summaryAt < 0) return null;
  return writer.summaries.bytes.slice(plan.summaryAt, plan.summaryAt + plan.summaryLength);
}

/**
 * Checks the module's summary of `v`'s encoding against the specification (of the decoded args, and of
 * `v` itself); whether the module made one.
 */
function agrees(v: unknown): boolean {
  const bytes = encode(v);
  expect(bytes).not.toBeNull();
  const spec = Buffer.from(summarizeArgs(v));
  expect(Buffer.from(summarizeArgs(decodeJsonData(bytes as Uint8Array))).equals(spec)).toBe(true);
  const got = summaryOfEncodedBytes(bytes as Uint8Array);
  const taken = writerSummary(bytes as Uint8Array);
  expect(taken === null).toBe(got === null);
  if (got === null) return false;
  expect(Buffer.from(got).equals(spec)).toBe(true);
  expect(Buffer.from(taken as Uint8Array).equals(spec)).toBe(true);
  return true;
}

const words = fc.constantFrom('foo', 'fo0', 'src/', ' ', '.py', '1', '_x', '-', 'baz qux', '\n', '"', '\\', '\u0000', '\u001f');
const wideWords = fc.constantFrom('é', 'ÿ', '\u0080', '語', '\u{1F600}', '\ufeff', '\u07ff', '\u0800', '\uffff', '\u{10ffff}');
const shortText = fc.array(fc.oneof(words, words, wideWords), { maxLength: 12 }).map((xs) => xs.join(''));
/** Strings past STRING_WHOLE units: ASCII, or with a unit outside ASCII at their start, middle or end (not within a pair). */
const longText = longTextOf(words, wideWords).filter((t) => (t as string & { isWellFormed(): boolean }).isWellFormed());
const number = summaryNumber;
const key = fc.constantFrom('a', 'b', 'path', 'q', '__proto__', 'é', '語', '', '0', '17', '01', '4294967294', '4294967295', '-1', 'toJSON');

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    shortText,
    longText,
    number,
    fc.constantFrom(null, true, false),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).v;

/** Nested around MAX_ARGS_DEPTH; past the budget: many long strings, alone or beside small siblings. */
const deep = deepOf(shortText);
const overBudget = overBudgetOf(longText);

/** Args as agents send them: an object at the top (arrays too), any JSON data below. */
const args = fc.oneof(fc.dictionary(fc.oneof(key, fc.constantFrom('command', 'file_path')), fc.oneof(value, deep), { maxKeys: 5, noNullPrototype: true }), fc.array(value, { maxLength: 3 }), deep, overBudget);

/** Encoding bytes written by hand: `[tag, ...]` parts, numbers as u32 unless given as f64. */
function bytesOf(...parts: (number | string | Uint8Array | { f64: number })[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === 'number') out.push(p);
    else if (typeof p === 'string') {
      const b = Buffer.from(p, 'utf8');
      out.push(b.length & 0xff, (b.length >> 8) & 0xff, 0, 0, ...b);
    } else if (p instanceof Uint8Array) out.push(p.length, 0, 0, 0, ...p);
    else {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(p.f64);
      out.push(...b);
    }
  }
  return Uint8Array.from(out);
}
const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("similar args' summary from the value encoding", () => {
  it("is summarizeArgs' of the decoded args (and of the args encoded) byte for byte, on random JSON data", () => {
    let made = 0;
    let n = 0;
    fc.assert(
      fc.property(args, (a) => {
        n++;
        if (agrees(a)) made++;
      }),
      { numRuns: runs(800) },
    );
    // most are made (the rest: NaN, nesting and budget)
    expect(made).toBeGreaterThan(n / 2);
  });

  it('gives up exactly where the decoded args would differ, and on what it cannot reproduce', () => {
    const O = A.T_OBJECT;
    const S = A.T_STRING;
    const num1 = [A.T_NUMBER, ...Buffer.from(new Float64Array([1]).buffer)];
    const cases: [string, Uint8Array][] = [
      ['a key named twice', bytesOf(O, ...u32(2), 'a', ...num1, 'a', ...num1)],
      ['an index key after another', bytesOf(O, ...u32(2), 'b', ...num1, '17', ...num1)],
      ['index keys out of order', bytesOf(O, ...u32(2), '17', ...num1, '3', ...num1)],
      ['NaN', bytesOf(A.T_ARRAY, ...u32(1), A.T_NUMBER, { f64: NaN })],
      ['a tag not JSON data', bytesOf(A.T_ARRAY, ...u32(1), A.T_BIGINT, '12')],
      ['bytes left over', bytesOf(A.T_NULL, A.T_NULL)],
      ['bytes cut short', bytesOf(A.T_ARRAY, ...u32(2), A.T_NULL)],
      ['a string cut short', bytesOf(S, ...u32(9), 0x61)],
      ['an overlong form', bytesOf(S, Uint8Array.from([0xc0, 0x80]))],
      ['a surrogate in UTF-8', bytesOf(S, Uint8Array.from([0xed, 0xa0, 0x80]))],
      ['past U+10FFFF', bytesOf(S, Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))],
      ['a sequence cut short', bytesOf(S, Uint8Array.from([0x61, 0xe2, 0x82]))],
      ['a lone continuation byte', bytesOf(S, Uint8Array.from([0x80]))],
      ['more elements than a summary holds', bytesOf(A.T_ARRAY, ...u32(SUMMARY_MAX_BYTES + 1), ...new Array<number>(SUMMARY_MAX_BYTES + 1).fill(A.T_NULL))],
    ];
    for (const [what, b] of cases) expect(summaryOfEncodedBytes(b), what).toBeNull();
    // nesting past MAX_ARGS_DEPTH, and a summary past its budget (their parts become OPAQUE, which needs a fingerprint)
    let v: unknown = 1;
    for (let i = 0; i <= MAX_ARGS_DEPTH; i++) v = [v];
    expect(summaryOfEncodedBytes(encode(v) as Uint8Array)).toBeNull();
    expect(summaryOfEncodedBytes(encode(Array.from({ length: SUMMARY_MAX_BYTES / 4 }, (_, i) => `k${i}`)) as Uint8Array)).toBeNull();
    // and what it takes: index keys first in order, -0, every width of unit, a BOM, long strings of each width
    const long = 'word '.repeat(STRING_KEPT);
    for (const a of [
      { b: 1, 17: 2, 3: 3, 4294967295: 4, '01': 5 },
      [-0, 0, 1, 127, 128, -128, -129, 0.1, Infinity, -Infinity, 1e300],
      { '\ufeffx': '\ufeff', 'é': 'ÿé', '語': '語\u{1F600}', '': '' },
      { __proto__: { a: 1 } },
      [long, `é${long}`, `${long}語`, `${long}\u{1F600}${long}`],
    ]) {
      const parsed = JSON.parse(JSON.stringify(a)) as unknown;
      expect(agrees(parsed), JSON.stringify(a).slice(0, 80)).toBe(true);
    }
  });

  it.skipIf(traceDir === null)("is every trace call's args' summary, from their encoding", () => {
    let made = 0;
    let encoded = 0;
    for (const [, e] of traceCalls()) {
      if (typeof e.args !== 'object' || e.args === null) continue;
      const bytes = encode(e.args);
      if (bytes === null) continue;
      encoded++;
      const got = summaryOfEncodedBytes(bytes);
      if (got === null) continue;
      made++;
      expect(Buffer.from(got).equals(Buffer.from(summarizeArgs(e.args))), JSON.stringify(e.args).slice(0, 200)).toBe(true);
    }
    expect(made).toBeGreaterThan(encoded * 0.95);
  });

  it('a pool worker takes it for calls packed as objects, their args never decoded, with the verdicts of one engine', () => {
    const only = {
      detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false },
      policy: { ladder: ['warn'], minConfidence: 0, progress: 'ignore' },
    } as const;
    // misspelled retries of one search, with a long note (hashed by the module) and units outside ASCII
    const spellings = ['handleSubmitForm', 'handleSubmitFrom', 'handleSubmtForm', 'handleSubmitFom', 'handelSubmitForm'];
    const event = (i: number, tool: string) => ({ session: `s${i % 2}`, tool, args: { pattern: spellings[i % 5], path: 'src/', n: i % 3, note: `caf\u00e9 \u{1F600} ${'x'.repeat(600)}` }, error: 'No such file or directory' });
    const run = (events: ReturnType<typeof event>[]): RunResult => {
      handle({ kind: 'start', epoch: 1, options: only, snapshotEvery: 0, snapshots: [] });
      const w = new ByteWriter(1 << 16);
      const encoder = new ArgsEncoder(ENCODED, 64, () => true);
      for (const e of events) writeCheck(w, e.session, e, encoder);
      const { buffer, length } = w.take();
      const moved = handle({ kind: 'run', epoch: 1, buffer: buffer as ArrayBuffer, length }) as unknown as Record<symbol, RunResult>;
      return moved[valueSymbol] as RunResult;
    };
    const summarised = vi.spyOn(SimilarArgsDetector.prototype, 'record');
    const decoded = vi.spyOn(EncodedArgs.prototype, 'value');
    // no verdict (each call its own tool): every summary taken from the module, none made of decoded args,
    // and no args decoded at all (the outcome facts read the members they need from the bytes)
    const quiet = run(Array.from({ length: 40 }, (_, i) => event(i, `tool_${i}`)));
    expect(quiet.errors).toEqual([]);
    expect(quiet.verdicts).toEqual([]);
    expect(summarised).not.toHaveBeenCalled();
    expect(decoded).not.toHaveBeenCalled();
    // similar calls: the verdicts (their messages read the decoded args) of the same calls checked by one engine
    const events = Array.from({ length: 40 }, (_, i) => event(i, 'grep'));
    const got = run(events);
    const engine = new LoopEngine(only);
    try {
      const want = engine.checkBatch(events);
      expect(got.errors).toEqual([]);
      expect(got.verdictAt).toEqual(want.flatMap((v, i) => (v === null ? [] : [i])));
      expect(got.verdicts).toEqual(want.filter((v) => v !== null));
      expect(got.verdicts.some((v) => v.kind === 'similar_args')).toBe(true);
    } finally {
      engine.close();
    }
    expect(summarised).not.toHaveBeenCalled();
  });
});
