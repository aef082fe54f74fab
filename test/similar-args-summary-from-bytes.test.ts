/**
 * Similar args' summary made by the module from args given as JSON text (assembly/args-summary.ts,
 * src/wasm/module-args-summary.ts) is byte for byte `summarizeArgs(JSON.parse(text))` (src/text/args-summary.ts,
 * the specification) on random JSON text: escapes of every kind, duplicate keys, array-index keys, unicode and
 * lone surrogates as `\u` escapes, nesting to and past MAX_ARGS_DEPTH, numbers in every spelling, strings past
 * the summary's hashing threshold, white space anywhere, and args past the summary's budget; where the module
 * makes none (it gives up), the detector summarises the parsed args as before. Every trace call's args too
 * (skipped without ../shared). Through the engine, calls read from lines take the module's summary (their
 * args are never parsed) and give the verdicts of calls given as objects.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { SimilarArgsDetector } from '../src/detectors/similar-args.js';
import { JsonArgsText } from '../src/fingerprint/json-args-text.js';
import { MAX_ARGS_DEPTH } from '../src/text/args-similarity.js';
import { STRING_KEPT, STRING_WHOLE, SUMMARY_MAX_BYTES, summarizeArgs } from '../src/text/args-summary.js';
import { summaryOfJsonBytes } from '../src/wasm/module-args-summary.js';
import type { SessionEvent } from '../src/wire/session-event.js';
import { ascii, jsonArgsText } from './helpers/json-args-text.js';
import { runs } from './helpers/streams.js';
import { traceCalls, traceDir } from './helpers/traces.js';

/** Args as the lines carry them: an object or an array, long strings past the summary's hashing threshold. */
const args = jsonArgsText(STRING_WHOLE - 40, 3 * STRING_KEPT + 200);

/** Nesting `depth` levels deep: `{"a":[{"a":[...1...]}]}`. */
function nested(depth: number): string {
  let s = '1';
  for (let i = 0; i < depth; i++) s = i % 2 === 0 ? `[${s}]` : `{"a":${s}}`;
  return s;
}

/** Checks the module's summary of `t` against the specification; whether the module made one. */
function agrees(t: string): boolean {
  const got = summaryOfJsonBytes(Buffer.from(t, 'latin1'));
  if (got === null) return false;
  expect(Buffer.from(got).equals(Buffer.from(summarizeArgs(JSON.parse(t))))).toBe(true);
  return true;
}

describe("similar args' summary from JSON text", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is summarizeArgs(JSON.parse(text)) byte for byte, on random JSON text', () => {
    let made = 0;
    let n = 0;
    fc.assert(
      fc.property(args, (t) => {
        n++;
        if (agrees(t)) made++;
      }),
      { numRuns: runs(3000) },
    );
    // most are made (the rest: repeated or index keys, numbers past the fast path, budget)
    expect(made).toBeGreaterThan(n / 3);
  });

  it('gives up exactly where the text and the parsed args part, and on what it cannot reproduce', () => {
    for (const t of ['{"a":1,"a":2}', '{"a":1,"\\u0061":2}', '{"0":1}', '{"b":1,"17":2}', '[1234567890123456]', '[1e23]', '[1e400]', '[5e-324]', '{"a":"x",}', '{"a":"\u00e9"}', nested(MAX_ARGS_DEPTH + 1)]) {
      expect(summaryOfJsonBytes(Buffer.from(t, 'latin1')), t).toBeNull();
    }
    // a summary past its budget (its parts become OPAQUE, which needs the parsed value's fingerprint)
    expect(summaryOfJsonBytes(Buffer.from(JSON.stringify(Array.from({ length: SUMMARY_MAX_BYTES / 4 }, (_, i) => `k${i}`))))).toBeNull();
    for (const t of ['{"01":1,"4294967295":2,"a":[]}', '[-0, 0, -0.0, 1.0, 127, 128, -128, -129, 1e2, 1E+2, 0.1, 1e22, 1e-22, 100000000000000000000]', nested(MAX_ARGS_DEPTH), '{"__proto__":{"a":1}}', '{"x":"\\ud83d\\ude00\\ud800 \\u00ff\\/"}']) {
      expect(agrees(t), t).toBe(true);
    }
  });

  it.skipIf(traceDir === null)("is every trace call's args' summary, from their JSON text", () => {
    let made = 0;
    const calls = traceCalls();
    for (const [, e] of calls) {
      if (typeof e.args !== 'object' || e.args === null) continue;
      const t = ascii(JSON.stringify(e.args));
      const got = summaryOfJsonBytes(Buffer.from(t, 'latin1'));
      if (got === null) continue;
      made++;
      expect(Buffer.from(got).equals(Buffer.from(summarizeArgs(JSON.parse(t)))), t.slice(0, 200)).toBe(true);
    }
    expect(made).toBeGreaterThan(calls.length * 0.95);
  });

  it('calls read from lines take it, their args never parsed but for a message, with the verdicts of calls given as objects', () => {
    const only = {
      detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false },
      policy: { ladder: ['warn'], minConfidence: 0, progress: 'ignore' },
    } as const;
    // misspelled retries of one search, with a long note (hashed by the module) and a unit outside ASCII
    const spellings = ['handleSubmitForm', 'handleSubmitFrom', 'handleSubmtForm', 'handleSubmitFom', 'handelSubmitForm'];
    const line = (i: number, tool: string): Buffer =>
      Buffer.from(ascii(JSON.stringify({ session: `s${i % 2}`, tool, args: { pattern: spellings[i % 5], path: 'src/', n: i % 3, note: `caf\u00e9 ${'x'.repeat(600)}` }, error: 'No such file or directory' })));
    const summarised = vi.spyOn(SimilarArgsDetector.prototype, 'record');
    const value = vi.spyOn(JsonArgsText.prototype, 'value');
    // no verdict (each call its own tool): every summary taken from the module, none made of parsed args, and
    // no args parsed at all (the outcome facts read the members they need from the bytes)
    const quiet = new LoopEngine(only);
    try {
      const got = quiet.checkLines(Array.from({ length: 40 }, (_, i) => line(i, `tool_${i}`)));
      expect(got.every((v) => v === null)).toBe(true);
      expect(summarised).not.toHaveBeenCalled();
      expect(value).not.toHaveBeenCalled();
    } finally {
      quiet.close();
    }
    // similar calls: the verdicts (their messages read the parsed args) of the same calls given as objects
    const lines = Array.from({ length: 40 }, (_, i) => line(i, 'grep'));
    const fromLines = new LoopEngine(only);
    const fromEvents = new LoopEngine(only);
    try {
      const got = fromLines.checkLines(lines);
      const want = fromEvents.checkBatch(lines.map((l) => JSON.parse(l.toString('latin1')) as SessionEvent));
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      expect(got.some((v) => v !== null && !(v instanceof Error) && v.kind === 'similar_args')).toBe(true);
    } finally {
      fromLines.close();
      fromEvents.close();
    }
  });
});
