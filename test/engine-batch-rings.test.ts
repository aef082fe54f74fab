/**
 * A batch puts many calls of one session through the module in one crossing when no host detector reads the
 * rings (similar args off): by the time the host builds call k's verdict, the session's rings hold the calls
 * after it, and with small windows they have wrapped over call k. Verdicts must still be those of the calls
 * checked one by one: everything the host needs of call k comes from the module's output for it, never from
 * the rings. (A host read of the rings here once made two rules disagree between batches and single calls.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine } from '../src/index.js';
import type { LoopDetectorOptions, SessionEvent } from '../src/index.js';
import { PROMPT_LOOP_POINT } from './helpers/calibrate-runs.js';
import { runs, stream } from './helpers/streams.js';
import { json } from './helpers/verdicts.js';

/** Small windows (rings of a few calls) and no detector that makes the host read the rings. */
const smallRings = fc.record({
  detectors: fc.record({
    exactRepeat: fc.constantFrom(true, { threshold: 2, window: 3 }),
    frequency: fc.constantFrom({ threshold: 2, window: 4 }, { threshold: 3, window: 5 }),
    cycle: fc.constantFrom({ window: 6, maxPeriod: 3 }, { key: 'tool' as const, window: 6, maxPeriod: 3 }),
    semantic: fc.constantFrom(false, { window: 4, minSimilar: 1, threshold: 0.4 }),
    similarArgs: fc.constant(false),
    resultRepeat: fc.constantFrom(true, { threshold: 2, window: 6 }, { threshold: 3, window: 4, masked: false }),
    deadEnd: fc.constantFrom({ threshold: 2, window: 3 }, { threshold: 3, window: 4, matchClass: false }),
    stateRepeat: fc.constantFrom({ threshold: 2, window: 5 }, true),
    chanting: fc.constant(false),
  }),
  policy: fc.record({ minConfidence: fc.constantFrom(0, 0.5), progress: fc.constantFrom('suppress' as const, 'slow' as const) }),
}) as fc.Arbitrary<LoopDetectorOptions>;

const LISTING = 'README.md\npackage.json\nsrc/\ntest/\ndocs/\nbuild/\nassembly/\nscripts/';

/** Varied commands all answering the same listing, and a recurring failure: the shapes the newer rules read. */
const sameAnswers = fc.array(
  fc.oneof(
    fc.constantFrom('ls', 'ls -la', 'ls src/..', 'find . -maxdepth 1').map((command) => ({ tool: 'bash', args: { command }, result: LISTING })),
    fc.constant({ tool: 'bash', args: { command: 'make' }, error: 'make: *** [all] Error 2' }),
    fc.nat(9).map((n) => ({ tool: 'read', args: { path: `f${n}.py` }, result: `contents of f${n}, long enough not to be a brief acknowledgement of any kind` })),
  ),
  { minLength: 5, maxLength: 30 },
);

describe('engine batches of one session over small rings', () => {
  it('should give the verdicts of the calls checked one by one, whatever the rings hold by then', () => {
    fc.assert(
      fc.property(stream, sameAnswers, stream, smallRings, (a, m, b, o) => {
        const events: SessionEvent[] = [...a, ...m, ...b].map((e) => ({ ...e, session: 's' }));
        const d = new LoopDetector(o, 's');
        const want = events.map((e) => json(d.check(e)));
        d.dispose();
        const engine = new LoopEngine(o);
        const got = engine.checkBatch(events).map(json);
        engine.close();
        expect(got).toEqual(want);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should keep the signals about a loop begun before a fresh start as one by one, once the call ran twice since', () => {
    // devset 98743092's shape: a file read among other work, a prompt, then read again and again with a few
    // searches between, so that by the time a read's verdict is built the batch's later calls have wrapped
    // the module's rings over the runs since the fresh start (afterFreshStart once read them there)
    const read = (f: string): SessionEvent => ({ session: 's', tool: 'Read', args: { file_path: f }, result: `line 1\nline 2 of ${f}` });
    const grep = (q: string): SessionEvent => ({ session: 's', tool: 'Grep', args: { pattern: q }, result: `no matches for ${q}` });
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 60 }), fc.integer({ min: 2, max: 4 }), fc.constantFrom<LoopDetectorOptions>({}, PROMPT_LOOP_POINT), (n, every, o) => {
        const before = [read('a.py'), grep('x'), read('p.py'), grep('y'), read('p.py'), read('b.py'), read('p.py'), grep('z')];
        const after = [read('p.py'), read('p.py'), grep('w'), ...Array.from({ length: n }, (_, i) => (i % every === every - 1 ? grep(`q${i}`) : read('p.py')))];
        for (const engine of ['wasm', 'reference'] as const) {
          const d = new LoopDetector({ ...o, engine }, 's');
          const want = before.map((e) => json(d.check(e)));
          d.freshStart();
          want.push(...after.map((e) => json(d.check(e))));
          d.dispose();
          const batched = new LoopEngine({ ...o, engine });
          const got = batched.checkBatch(before).map(json);
          batched.freshStart('s');
          got.push(...batched.checkBatch(after).map(json));
          batched.close();
          expect(got, engine).toEqual(want);
        }
      }),
      { numRuns: runs(40) },
    );
  });
});

