/**
 * What a session keeps of its callers' args: without custom detectors, only the previews a later message
 * can name, those of calls that repeat the call a cycle period before them; nothing of a session that is
 * not looping; similar args keeps bounded summaries of its window's args, never the args. Letting the
 * others go never changes a verdict (both engines, snapshots included), and what is kept stays within the
 * window.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { Detector, LoopDetectorOptions, ToolEvent } from '../src/index.js';
import type { CallLog } from '../src/state/call-log.js';
import type { SummaryRing } from '../src/state/summary-ring.js';
import { SUMMARY_MAX_BYTES } from '../src/text/args-summary.js';
import { ENGINES, json, verdictsOf } from './helpers/verdicts.js';
import { options, runs, stream } from './helpers/streams.js';

/** A custom detector that never fires: with one, a session keeps every call's args (custom detectors may read them later). */
const keepsEverything = (): Detector => ({ name: 'noop', record() {}, check: () => null, reset() {} });

const logOf = (d: LoopDetector): CallLog => (d as unknown as { pipeline: { log: CallLog } }).pipeline.log;

/**
 * Calls that repeat by signature while their previews differ (an ignored field that changes), in cycles
 * of 2 to 4 calls broken now and then, so units are named whose calls were seen with other args.
 */
const cycling = fc
  .tuple(fc.integer({ min: 2, max: 4 }), fc.array(fc.nat(9), { minLength: 1, maxLength: 40 }), fc.boolean())
  .map(([period, breaks, asText]) =>
    breaks.map((b, i): ToolEvent => {
      const target = b === 0 ? `new-${i}` : `file-${i % period}`;
      const args = { path: target, ts: `t${i}` };
      return { tool: i % period === 1 ? 'read' : 'edit', args: asText ? JSON.stringify(args) : args, result: b === 1 ? `changed ${i}` : 'same page' };
    }),
  );

const verdictText = (events: readonly ToolEvent[], o: LoopDetectorOptions): string[] => verdictsOf(events, o).map(json);

describe('args a session keeps', () => {
  it('should give the verdicts of a session that keeps every call, on random streams and options, on both engines', () => {
    fc.assert(
      fc.property(fc.oneof(stream, cycling), options, fc.constantFrom(...ENGINES), fc.boolean(), (events, o, engine, similar) => {
        const base: LoopDetectorOptions = { ...o, engine, ignoreFields: ['ts'], detectors: { ...o.detectors, ...(similar ? {} : { similarArgs: false }) } };
        expect(verdictText(events, base)).toEqual(verdictText(events, { ...base, custom: [keepsEverything()] }));
      }),
      { numRuns: runs(300) },
    );
  });

  it('should continue a restored session as the uninterrupted one when calls were let go', () => {
    fc.assert(
      fc.property(cycling, fc.nat(), (events, cut) => {
        const o: LoopDetectorOptions = { ignoreFields: ['ts'], detectors: { similarArgs: false } };
        const at = cut % (events.length + 1);
        const want = verdictText(events, o);
        const first = new LoopDetector(o);
        const got = events.slice(0, at).map((e) => json(first.check(e)));
        const bytes = first.snapshot();
        first.dispose();
        const second = new LoopDetector(o);
        second.restore(bytes);
        for (const e of events.slice(at)) got.push(json(second.check(e)));
        expect(Buffer.from(second.snapshot()).length).toBeGreaterThan(0);
        second.dispose();
        expect(got).toEqual(want);
      }),
      { numRuns: runs(200) },
    );
  });

  it('should hold no args of a session that is not looping, after each check', () => {
    for (const engine of ENGINES) {
      for (const detectors of [{ similarArgs: false }, { semantic: false, similarArgs: false, deadEnd: false, stateRepeat: false, chanting: false }] as const) {
        const d = new LoopDetector({ engine, detectors });
        for (let i = 0; i < 100; i++) {
          d.check({ tool: 'edit', args: { path: `src/file-${i}.ts`, body: 'x'.repeat(500) }, result: `ok ${i}` });
          expect(logOf(d).heldArgs()).toEqual([]);
        }
        d.dispose();
      }
    }
  });

  it('should hold the args of a cycle unit (the calls its message names), and no more than the longest period', () => {
    for (const engine of ENGINES) {
      const d = new LoopDetector({ engine, detectors: { similarArgs: false } });
      const calls = ['a', 'b', 'c'].map((p): ToolEvent => ({ tool: 'read', args: { path: p } }));
      for (let i = 0; i < 30; i++) d.check(calls[i % 3] as ToolEvent);
      const held = logOf(d).heldArgs();
      expect(held).toEqual([25, 26, 27, 28, 29]);
      expect(held.length).toBeLessThanOrEqual(logOf(d).argsWindow);
      d.dispose();
    }
  });

  it('should keep no args with similar args on, only its bounded summaries of the window', () => {
    for (const engine of ENGINES) {
      const d = new LoopDetector({ engine, detectors: { similarArgs: { window: 4 } } });
      for (let i = 0; i < 50; i++) d.check({ tool: 'search', args: { q: `query ${i}`, body: 'x'.repeat(100_000) } });
      expect(logOf(d).heldArgValues()).toEqual([]);
      const ring = (d as unknown as { pipeline: { similar?: { ring: SummaryRing }; detectors?: { ring?: SummaryRing }[] } }).pipeline;
      const summaries = ring.similar?.ring ?? (ring.detectors?.find((x) => x.ring !== undefined)?.ring as SummaryRing);
      expect([44, 45, 46, 47, 48, 49].map((i) => summaries.has(i))).toEqual([false, true, true, true, true, true]);
      expect(summaries.heldBytes()).toBeLessThan(5 * SUMMARY_MAX_BYTES);
      d.dispose();
    }
  });
});
