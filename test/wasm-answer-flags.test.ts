/**
 * The module finds what a result says (nothing found, a brief acknowledgement) only for configurations
 * where some detector reads it (`readsAnswers`, CF_ANSWERS): for every subset of detectors, the
 * WebAssembly pipeline must still give the reference's verdicts, call by call, on streams full of empty,
 * brief and "nothing found" answers (and a shell's startup lines, alone or ahead of one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { readsAnswers } from '../src/wasm/slot-layout.js';
import { runs, stream } from './helpers/streams.js';

/** Answers that say nothing was found, or acknowledge, in text and as values; and one real answer. */
const answer = fc.constantFrom<unknown>('No results found.', 'nothing found', '0 matches', 'OK', 'Done.', '  ', '[]', [], {}, 'README.md\nsrc/\ntest/\ndocs/\nbench/\nassembly/\nscripts/ and more lines of a listing',
  // a shell's startup lines alone (empty once set aside), or ahead of an answer
  'Identity added: /home/u/.ssh/id_ed25519 (user@host)\n', '/Users/a/.profile: line 6: compdef: command not found\n \n', 'Identity added: /home/u/.ssh/id_ed25519 (user@host)\nNo results found.',
  'Error connecting to agent: Operation not permitted\n', 'Could not open a connection to your authentication agent.\nNo results found.');

/**
 * Similar calls of one tool (one character apart) getting one of two answers (so different calls often
 * get the same one); some fail as well, with errors of one class or of different classes.
 */
const answering = fc
  .tuple(
    fc.constantFrom('find . -name parser', 'find . -name parsed', 'find . -name parses', 'grep -rn handler src'),
    fc.boolean(),
    fc.constantFrom(undefined, undefined, 'exit 1 at line 12', 'exit 1 at line 14', 'permission denied: /tmp/x'),
  )
  .map(([command, second, error]) => ({ command, second, error }));

/** Streams that repeat a small pool of answering calls. */
const answerStream = fc
  .tuple(fc.array(answering, { minLength: 1, maxLength: 5 }), answer, answer, fc.array(fc.nat(), { minLength: 2, maxLength: 40 }))
  .map(([pool, first, second, picks]) =>
    picks.map((p): ToolEvent => {
      const c = pool[p % pool.length] as { command: string; second: boolean; error: string | undefined };
      return { tool: 'bash', args: { command: c.command }, result: c.second ? second : first, ...(c.error === undefined ? {} : { error: c.error }) };
    }),
  );

const CORE = { exactRepeat: true, frequency: true, cycle: true, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false } as const;

/** The core detectors with at most one reader of answers (so that a reader left out changes a verdict). */
const oneReader = fc.record({
  detectors: fc.constantFrom<LoopDetectorOptions['detectors']>(
    CORE,
    { ...CORE, stateRepeat: true, deadEnd: { threshold: 2, window: 4, matchClass: false } },
    { ...CORE, semantic: true },
    { ...CORE, semantic: { method: 'exact', sameTool: false, minTokens: 1, threshold: 0.3 } },
    { ...CORE, similarArgs: true },
    { ...CORE, similarArgs: { threshold: 2, window: 3 } },
    { ...CORE, resultRepeat: true },
    { ...CORE, resultRepeat: { masked: false, threshold: 2, window: 3 } },
    { ...CORE, deadEnd: true },
    { ...CORE, deadEnd: { threshold: 2, window: 4 } },
  ),
  policy: fc.record({ progress: fc.constantFrom('suppress' as const, 'ignore' as const, 'slow' as const), minConfidence: fc.constantFrom(0, 0.5) }),
}) as fc.Arbitrary<LoopDetectorOptions>;

/** A reader of answers, off more often than not (so that configurations without any are common). */
function offOr<T>(...on: T[]): fc.Arbitrary<false | T> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(false as const) }, { weight: 2, arbitrary: fc.constantFrom(...on) });
}

/** Any subset of the detectors that read answers, beside the core ones. */
const subsets = fc.record({
  detectors: fc.record({
    exactRepeat: fc.constantFrom(true, { threshold: 2, window: 4 }),
    frequency: fc.constantFrom(true, { threshold: 2, window: 5 }),
    cycle: fc.constantFrom(true, { minPeriod: 2, maxPeriod: 3, repetitions: 2, window: 9 }),
    semantic: offOr<true | object>(true, { method: 'exact' as const }, { sameTool: false, minTokens: 1, threshold: 0.3 }),
    similarArgs: offOr<true | object>(true, { threshold: 2, window: 3 }),
    resultRepeat: offOr<true | object>(true, { masked: false, threshold: 2, window: 3 }),
    deadEnd: offOr<true | object>(true, { threshold: 2, window: 4, matchClass: false }),
    stateRepeat: fc.constantFrom(false, true),
    chanting: fc.constant(false),
  }),
  policy: fc.record({ progress: fc.constantFrom('suppress' as const, 'ignore' as const, 'slow' as const), minConfidence: fc.constantFrom(0, 0.5) }),
}) as fc.Arbitrary<LoopDetectorOptions>;

/** Checks a stream through both engines under some options; returns how many verdicts the reference gave. */
function agree(events: readonly ToolEvent[], o: LoopDetectorOptions): number {
  const ref = new LoopDetector({ ...o, engine: 'reference' });
  const wasm = new LoopDetector({ ...o, engine: 'wasm' });
  let flagged = 0;
  try {
    for (const e of events) {
      const v = ref.check(e);
      if (v !== null) flagged++;
      expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(v));
    }
    expect(wasm.stats()).toEqual(ref.stats());
  } finally {
    wasm.dispose();
  }
  return flagged;
}

describe('answer flags only where a detector reads them', () => {
  it('should give the reference verdicts with one reader of answers or none, on calls that find nothing, acknowledge or fail', () => {
    let flagged = 0;
    fc.assert(
      fc.property(answerStream, oneReader, (events, o) => {
        flagged += agree(events, o);
      }),
      { numRuns: runs(1000) },
    );
    expect(flagged).toBeGreaterThan(1000);
  });

  it('should give the reference verdicts for any subset of the readers on random streams', () => {
    let without = 0;
    let flagged = 0;
    fc.assert(
      fc.property(fc.oneof(stream, answerStream), subsets, (events, o) => {
        if (!readsAnswers(resolveOptions(o).detectors)) without++;
        flagged += agree(events, o);
      }),
      { numRuns: runs(400) },
    );
    // configurations without a reader, and verdicts, must be common, or equality proves little
    expect(without).toBeGreaterThan(30);
    expect(flagged).toBeGreaterThan(500);
  });

  it('should say that a configuration reads answers exactly when one of their readers is on', () => {
    const core = { exactRepeat: true, frequency: true, cycle: true, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: true, chanting: true } as const;
    expect(readsAnswers(resolveOptions({ detectors: core }).detectors)).toBe(false);
    expect(readsAnswers(resolveOptions({ detectors: { ...core, deadEnd: { matchClass: false } } }).detectors)).toBe(false);
    for (const on of [{ semantic: true }, { semantic: { method: 'exact' as const } }, { similarArgs: true }, { resultRepeat: true }, { resultRepeat: { masked: false } }, { deadEnd: true }]) {
      expect(readsAnswers(resolveOptions({ detectors: { ...core, ...on } }).detectors), JSON.stringify(on)).toBe(true);
    }
  });
});
