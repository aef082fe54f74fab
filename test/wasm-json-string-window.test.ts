/**
 * hostile38: the module's scratch area needed 7 bytes a record byte (a JSON string decoded whole, and a
 * masking area sized by the record), and WebAssembly memory never shrinks: one call with a 64 MB string left
 * its thread holding 448 MB of scratch for good. A JSON string is now decoded through a fixed window
 * (JSON_STRING_WINDOW bytes), hashed with a streaming XXH64 and taken as action text in pieces, and masking
 * gets the room it reads (MASK_LIMIT or maxTextLength bytes): the scratch is a constant of the configuration.
 * The module must still give the reference's signatures and verdicts for strings of any length, escapes and
 * multi-byte characters falling on the window's edges included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import * as A from '../src/wasm/generated/abi.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { expectEnginesAgree, signatureSpy } from './helpers/engine-signatures.js';
import { runs } from './helpers/streams.js';

const W = A.JSON_STRING_WINDOW;

/** The thread's module's header field `field`. */
function header(field: number): number {
  return sharedCore().instance.views().u32[(A.HEADER + field) >>> 2] as number;
}

/** Pieces of JSON string source: plain text, escapes (pairs, lone surrogates, \u forms) and raw multi-byte characters. */
const PIECES = ['\\n', '\\"', '\\\\', '\\/', '\\t', '\\u00e9', '\\u0041', '\\ud83d\\ude00', '\\ud800', '\\udc00x', 'é', '日', '😀', ' 42 ', ' /tmp/a.py '];

/** Filler words, so that action text past the window has tokens of its own. */
const WORDS = ['alpha ', 'beta ', 'gamma ', 'delta ', 'x', 'lorem ipsum '];

/**
 * The source of a JSON string (without its quotes) of about `len` bytes: a filler, with pieces put at the
 * given places (taken modulo the length, and some just around each multiple of the window).
 */
function longSource(len: number, filler: string, inserts: readonly (readonly [number, string])[]): string {
  let s = filler.repeat(Math.ceil(len / filler.length) + 1).slice(0, Math.max(len, 1));
  const at = [...inserts].sort((a, b) => b[0] % s.length - a[0] % s.length);
  for (const [p, piece] of at) {
    const q = p % s.length;
    s = s.slice(0, q) + piece + s.slice(q);
  }
  return s;
}

/** A long JSON string's source: near a multiple of the window (0 to 3 windows), pieces anywhere and at the edges. */
const longString = fc
  .record({
    windows: fc.integer({ min: 0, max: 3 }),
    offset: fc.integer({ min: -96, max: 96 }),
    filler: fc.constantFrom(...WORDS),
    anywhere: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...PIECES)), { maxLength: 6 }),
    edges: fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -48, max: 48 }), fc.constantFrom(...PIECES)), { maxLength: 6 }),
  })
  .map(({ windows, offset, filler, anywhere, edges }) => {
    const len = Math.max(1, windows * W + offset);
    return longSource(len, filler, [...anywhere, ...edges.map(([k, d, piece]) => [Math.max(0, k * W + d - 16), piece] as const)]);
  });

/** JSON args text holding long strings as a value, a key, under the depth cap, in an ignored field, in an array. */
const argsText = fc.tuple(fc.integer({ min: 0, max: 5 }), longString, longString).map(([shape, s, t]) => {
  switch (shape) {
    case 0:
      return `{"q": "${s}"}`;
    case 1:
      return `{"${s}": 1, "k": "v"}`;
    case 2:
      return `{"a": {"b": {"c": ["${s}", {"${t}": "${s}"}]}}}`;
    case 3:
      return `{"ts": "${s}", "q": "${t}"}`;
    case 4:
      return `["${s}", "${t}"]`;
    default:
      return `{"q": "${s}", "r": "${t}"}`;
  }
});

/** A result or error text, long or short. */
const outcomeText = fc.oneof(
  fc.constantFrom('ok', 'Error: ENOENT: no such file', 'No results found.'),
  fc.tuple(fc.integer({ min: 2049, max: 3 * W }), fc.constantFrom(...WORDS)).map(([n, w]) => `line 17 ${w}`.repeat(Math.ceil(n / 10)).slice(0, n)),
);

const event: fc.Arbitrary<ToolEvent> = fc
  .record({ tool: fc.constantFrom('t', 'u'), args: argsText, result: fc.option(outcomeText, { nil: undefined }), error: fc.option(outcomeText, { nil: undefined, freq: 4 }) })
  .map(({ tool, args, result, error }) => ({ tool, args, ...(result === undefined ? {} : { result }), ...(error === undefined ? {} : { error }) }));

/** A stream drawing from a pool of a few events, so calls repeat, and each drawn call may come back changed at one place. */
const stream = fc.tuple(fc.array(event, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { minLength: 2, maxLength: 6 })).map(([pool, picks]) => picks.map((k) => pool[k % pool.length] as ToolEvent));

const options: fc.Arbitrary<LoopDetectorOptions> = fc.record({
  detectors: fc.record({
    exactRepeat: fc.constantFrom(true, { threshold: 2, window: 4 }),
    semantic: fc.constantFrom(
      true,
      // the action text's cap is at most 10,000 bytes (the option's range): a string's first piece fills it
      { threshold: 0.3, window: 5, minSimilar: 1, maxTokens: 10000, maxTextLength: 10000, sameTool: false, minTokens: 1, countIdentical: true },
      { threshold: 0.9, minSimilar: 1, maxTokens: 2000, maxTextLength: 9000, countIdentical: true },
      { maxTextLength: 40, minSimilar: 1 },
    ),
    resultRepeat: fc.constantFrom(true, { masked: false, threshold: 2, window: 3 }),
    deadEnd: fc.constantFrom(true, { threshold: 2, window: 4 }),
    stateRepeat: fc.constantFrom(true, { threshold: 2, window: 7 }),
  }),
  normalizeVolatile: fc.boolean(),
  maxDepth: fc.constantFrom(64, 2),
  ignoreFields: fc.constantFrom([], ['ts']),
}) as fc.Arbitrary<LoopDetectorOptions>;

describe('JSON strings longer than the module\'s window', () => {
  it('should give the reference\'s signatures and verdicts, escapes and characters on the window\'s edges included', () => {
    fc.assert(fc.property(stream, options, (events, o) => expectEnginesAgree(events, o)), { numRuns: runs(40), seed: 38 });
  });

  it('should tell apart strings that differ only past the window, as the reference does', () => {
    const head = longSource(W + 100, 'alpha ', []);
    for (const cut of [W - 17, W - 16, W - 1, W, W + 31, W + 32, 2 * W + 5]) {
      const a = head;
      const b = `${head.slice(0, cut)}\\u0062${head.slice(cut + 1)}`;
      const ea = { tool: 't', args: `{"q": "${a}"}` };
      const eb = { tool: 't', args: `{"q": "${b}"}` };
      const seen: string[] = [];
      const d = new LoopDetector({ engine: 'wasm', custom: [signatureSpy(seen)] });
      d.check(ea);
      d.check(eb);
      d.dispose();
      expect(seen[0], `cut ${cut}`).not.toBe(seen[1]);
      expectEnginesAgree([ea, eb, ea, eb]);
    }
  });

  it('should keep the scratch area as it was after calls of many megabytes', async () => {
    const g = new LiveGuard();
    await g.record('warm', { tool: 't', args: { q: 1 }, result: 'ok', error: 'Error: x' });
    await g.record('warm', { tool: 't', args: '{"q": "x"}', result: 'ok' });
    const scratch = header(A.H_SCRATCH_SIZE);
    const big = 'x'.repeat(8 << 20);
    await g.record('large', { tool: 't', args: { q: big }, result: big, error: big });
    // JSON text args (the module's JSON path) of 3 MB, escapes all along
    const text = `{"q": "${'a\\n\\u00e9'.repeat(3 << 18)}"}`;
    await g.propose('json', { tool: 't', args: text });
    await g.record('json', { tool: 't', args: text, result: big });
    expect(header(A.H_SCRATCH_SIZE)).toBe(scratch);
    expect(scratch).toBeLessThan(1 << 20);
  });
});
