/**
 * Properties of the two-phase API on random streams: a proposal is rolled back exactly (it never changes
 * what later calls are told), the WebAssembly and reference engines decide alike, and a snapshot taken
 * with proposals waiting continues as the uninterrupted session would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall, LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { options, runs, stream } from './helpers/streams.js';

/** How a stream is replayed: per call, whether it is proposed first, and whether it carries an id. */
const plan = fc.array(fc.record({ propose: fc.boolean(), id: fc.boolean(), skipRecord: fc.nat(9) }), { minLength: 40, maxLength: 40 });

type Step = { readonly propose: boolean; readonly id: boolean; readonly skipRecord: number };

/** The call with its id, and without its outcome (as proposed). */
const asCall = (e: ToolEvent, i: number, withId: boolean): LiveCall => ({ ...e, ...(withId ? { id: `call-${i}` } : {}) });

/** Replays `events` by `steps` (propose then record; one record in ten left out), returning every decision as text. */
function live(d: LoopDetector, events: readonly ToolEvent[], steps: readonly Step[]): string[] {
  const out: string[] = [];
  events.forEach((e, i) => {
    const s = steps[i % steps.length] as Step;
    const call = asCall(e, i, s.id);
    if (s.propose) {
      const p = d.propose(call);
      out.push(JSON.stringify(p));
      if (p.action === 'deny' || p.action === 'stop' || s.skipRecord === 0) return;
    }
    out.push(JSON.stringify(d.record(call)));
  });
  return out;
}

describe('two-phase properties', () => {
  it('should leave every later verdict as check() alone gives it: a proposal is rolled back exactly (both engines)', () => {
    fc.assert(
      fc.property(stream, options, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), fc.constantFrom('wasm' as const, 'reference' as const), (events, o, proposeAt, engine) => {
        // a ladder without break never blocks, so every call runs and is recorded in order
        const opts: LoopDetectorOptions = { ...o, engine, policy: { ...o.policy, ladder: ['warn', 'ask'] } };
        const plain = new LoopDetector(opts, 's');
        const recordOnly = new LoopDetector(opts, 's');
        const twoPhase = new LoopDetector(opts, 's');
        try {
          events.forEach((e, i) => {
            const want = JSON.stringify(plain.check(e));
            expect(JSON.stringify(recordOnly.record(asCall(e, i, true)).verdict)).toBe(want);
            if (proposeAt[i % proposeAt.length] === true) twoPhase.propose(asCall(e, i, true));
            expect(JSON.stringify(twoPhase.record(asCall(e, i, true)).verdict)).toBe(want);
          });
          expect(twoPhase.stats()).toEqual(plain.stats());
          // the whole state, byte for byte, as if no call had been proposed
          if (engine === 'wasm') expect(Buffer.from(twoPhase.snapshot()).equals(Buffer.from(recordOnly.snapshot()))).toBe(true);
        } finally {
          plain.dispose();
          recordOnly.dispose();
          twoPhase.dispose();
        }
      }),
      { numRuns: runs(250) },
    );
  });

  it('should leave a session without verdicts byte for byte as it was after a proposal that found signals', () => {
    // the found case: the proposal weighs signals, which must not make the action ladder (made by the first verdict)
    const o: LoopDetectorOptions = { detectors: { exactRepeat: { threshold: 2, window: 4 } }, policy: { progress: 'suppress', minConfidence: 0, ladder: ['warn', 'ask'] } };
    const call: LiveCall = { tool: 'bash', error: 'HTTP 429 Too Many Requests', id: 'x' };
    const recordOnly = new LoopDetector(o, 's');
    const twoPhase = new LoopDetector(o, 's');
    for (const d of [recordOnly, twoPhase]) d.record(call);
    twoPhase.propose(call);
    for (const d of [recordOnly, twoPhase]) d.record(call);
    expect(Buffer.from(twoPhase.snapshot()).equals(Buffer.from(recordOnly.snapshot()))).toBe(true);
    recordOnly.dispose();
    twoPhase.dispose();
  });

  it('should decide a proposal alike when the history is longer than the windows comparing whole calls', () => {
    // a cycle of tool names keeps 10 calls of history, the other detectors fewer: the evidence for a break
    // compares signatures over the whole history, which the module must keep (it read a ring of 6 as 10)
    const o: LoopDetectorOptions = { detectors: { exactRepeat: { threshold: 2, window: 4 }, frequency: { threshold: 2, window: 5 }, cycle: { key: 'tool', window: 10 }, semantic: { threshold: 0.3, window: 5, minSimilar: 1, maxTokens: 8, maxTextLength: 40 }, similarArgs: false, resultRepeat: { masked: false, threshold: 2, window: 3 }, deadEnd: { threshold: 2, window: 4, matchClass: false } }, policy: { minConfidence: 0 } };
    const events: ToolEvent[] = [{ tool: 'bash' }, { tool: 'search', args: { q: 'x' }, error: 'No match for x' }, ...Array.from({ length: 6 }, () => ({ tool: 'bash' }))];
    const steps = events.map((_, i): Step => ({ propose: i === 7, id: false, skipRecord: 1 }));
    const ref = new LoopDetector({ ...o, engine: 'reference' }, 's');
    const wasm = new LoopDetector({ ...o, engine: 'wasm' }, 's');
    expect(live(wasm, events, steps)).toEqual(live(ref, events, steps));
    wasm.dispose();
  });

  it('should decide alike on the WebAssembly and reference engines, proposals, blocks and late records included', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(stream, options, plan, (events, o, steps) => {
        const ref = new LoopDetector({ ...o, engine: 'reference' }, 's');
        const wasm = new LoopDetector({ ...o, engine: 'wasm' }, 's');
        try {
          const a = live(ref, events, steps);
          const b = live(wasm, events, steps);
          expect(b).toEqual(a);
          expect(wasm.stats()).toEqual(ref.stats());
          for (const line of a) seen.add((JSON.parse(line) as { action: string }).action);
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
    // the streams must reach every decision, or equality proves little
    for (const a of ['allow', 'warn', 'deny', 'stop']) expect(seen.has(a), a).toBe(true);
  });

  it('should continue from a snapshot taken with proposals waiting exactly as the uninterrupted session', () => {
    fc.assert(
      fc.property(stream, options, plan, fc.nat(39), (events, o, steps, cut) => {
        const whole = new LoopDetector(o, 's');
        const first = new LoopDetector(o, 's');
        const second = new LoopDetector(o, 's');
        try {
          const at = cut % events.length;
          const want = live(whole, events, steps);
          // the same replay, cut in two: the second half on a session restored from the first's snapshot
          const head = live(first, events.slice(0, at), steps);
          second.restore(first.snapshot());
          const tail: string[] = [];
          events.slice(at).forEach((e, k) => {
            const i = at + k;
            const s = steps[i % steps.length] as Step;
            const call = asCall(e, i, s.id);
            if (s.propose) {
              const p = second.propose(call);
              tail.push(JSON.stringify(p));
              if (p.action === 'deny' || p.action === 'stop' || s.skipRecord === 0) return;
            }
            tail.push(JSON.stringify(second.record(call)));
          });
          expect([...head, ...tail]).toEqual(want);
        } finally {
          whole.dispose();
          first.dispose();
          second.dispose();
        }
      }),
      { numRuns: runs(150) },
    );
  });
});
