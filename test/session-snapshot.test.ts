/**
 * Session snapshots: a session restored from a snapshot and continued gives exactly the verdicts and stats
 * of the uninterrupted session; bytes that are not a good snapshot for these options are refused with a
 * clear SnapshotError and leave the session as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector, SNAPSHOT_VERSION, SnapshotError } from '../src/index.js';
import { OLDEST_READ_VERSION } from '../src/snapshot/snapshot-format.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { options, runs, stream } from './helpers/streams.js';

const json = (v: unknown): string => JSON.stringify(v);

/** Verdicts of the whole stream, with a snapshot taken after `at` calls and restored into a new detector. */
function resumed(o: LoopDetectorOptions, events: readonly ToolEvent[], at: number, text?: string): { verdicts: string[]; stats: string; again: Uint8Array; bytes: Uint8Array } {
  const first = new LoopDetector(o);
  const verdicts = events.slice(0, at).map((e) => json(first.check(e)));
  if (text !== undefined) verdicts.push(json(first.checkText(text)));
  const bytes = first.snapshot();
  first.dispose();
  const second = new LoopDetector(o);
  second.restore(bytes);
  const again = second.snapshot();
  for (const e of events.slice(at)) verdicts.push(json(second.check(e)));
  const stats = json(second.stats());
  second.dispose();
  return { verdicts, stats, again, bytes };
}

function straight(o: LoopDetectorOptions, events: readonly ToolEvent[], at: number, text?: string): { verdicts: string[]; stats: string } {
  const d = new LoopDetector(o);
  const verdicts = events.slice(0, at).map((e) => json(d.check(e)));
  if (text !== undefined) verdicts.push(json(d.checkText(text)));
  for (const e of events.slice(at)) verdicts.push(json(d.check(e)));
  const stats = json(d.stats());
  d.dispose();
  return { verdicts, stats };
}

describe('snapshot and restore', () => {
  it('should continue a restored session exactly as the uninterrupted one, on random streams and options', () => {
    fc.assert(
      fc.property(stream, options, fc.nat(), fc.option(fc.constantFrom('Let me try that again.\n', 'ok\nok\nok\n', 'partial line'), { nil: undefined }), (events, o, cut, text) => {
        const at = cut % (events.length + 1);
        const want = straight(o, events, at, text);
        const got = resumed(o, events, at, text);
        expect(got.verdicts).toEqual(want.verdicts);
        expect(got.stats).toBe(want.stats);
        // A restored session snapshots to the same bytes it came from.
        expect(Buffer.from(got.again).equals(Buffer.from(got.bytes))).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it('should survive several snapshot/restore hops in one stream', () => {
    fc.assert(
      fc.property(stream, options, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (events, o, hops) => {
        const want = straight(o, events, 0).verdicts;
        const cuts = new Set(hops.map((h) => h % (events.length + 1)));
        let d = new LoopDetector(o);
        const got: string[] = [];
        events.forEach((e, i) => {
          if (cuts.has(i)) {
            const bytes = d.snapshot();
            d.dispose();
            d = new LoopDetector(o);
            d.restore(bytes);
          }
          got.push(json(d.check(e)));
        });
        d.dispose();
        expect(got).toEqual(want);
      }),
      { numRuns: runs(100) },
    );
  });

  it('should keep what similar args compares for values JSON cannot hold (Map, BigInt, Date, class instances)', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const argsOf = (i: number): unknown => ({ q: `find handler${i % 2}`, filter: new Map([['k', i % 2]]), big: 10n ** 20n, when: new Date(0), at: new Point(1), nested: { list: [1, 2, { deep: new Set([i % 2]) }] } });
    const events: ToolEvent[] = Array.from({ length: 12 }, (_, i) => ({ tool: 'search', args: argsOf(i), result: 'No results found.' }));
    const o: LoopDetectorOptions = { detectors: { exactRepeat: false, frequency: false, cycle: false, similarArgs: { threshold: 2, window: 5, similarity: 0.5 } }, policy: { minConfidence: 0 } };
    for (let at = 0; at <= events.length; at++) expect(resumed(o, events, at).verdicts).toEqual(straight(o, events, 0).verdicts);
  });

  it('should be compact: a default session of 100 calls fits in a few KiB', () => {
    const d = new LoopDetector();
    for (let i = 0; i < 100; i++) d.check({ tool: 'read_file', args: { path: `/src/file${i % 7}.ts` }, result: `contents ${i % 7}` });
    const bytes = d.snapshot();
    d.dispose();
    expect(bytes.length).toBeLessThan(16 * 1024);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('LWSS');
  });
});

describe('bad snapshots', () => {
  const events: ToolEvent[] = Array.from({ length: 8 }, (_, i) => ({ tool: 'bash', args: { cmd: `pytest -k t${i % 2}` }, error: 'AssertionError' }));
  const taken = (): { bytes: Uint8Array; d: LoopDetector } => {
    const d = new LoopDetector();
    for (const e of events) d.check(e);
    return { bytes: d.snapshot(), d };
  };

  it('should refuse bytes that are not a snapshot', () => {
    const d = new LoopDetector();
    expect(() => d.restore(new TextEncoder().encode('{"not": "a snapshot"}'))).toThrow(/not a loopwatch session snapshot/);
    expect(() => d.restore(new Uint8Array(0))).toThrow(SnapshotError);
    expect(() => d.restore('LWSS' as unknown as Uint8Array)).toThrow(/a snapshot is a Uint8Array/);
    d.dispose();
  });

  it('should refuse another format version, naming both', () => {
    const { bytes, d } = taken();
    const other = bytes.slice();
    new DataView(other.buffer).setUint16(4, SNAPSHOT_VERSION + 1, true);
    expect(() => d.restore(other)).toThrow(`format version ${SNAPSHOT_VERSION + 1}; this loopwatch reads versions ${OLDEST_READ_VERSION} to ${SNAPSHOT_VERSION}`);
    d.dispose();
  });

  it('should refuse every truncation and every flipped byte, and leave the session as it was', () => {
    const { bytes, d } = taken();
    const before = d.snapshot();
    for (let n = 0; n < bytes.length; n += Math.max(1, Math.floor(bytes.length / 97))) expect(() => d.restore(bytes.subarray(0, n))).toThrow(SnapshotError);
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const bad = bytes.slice();
        bad[at] = (bad[at] as number) ^ x;
        expect(() => d.restore(bad)).toThrow(SnapshotError);
      }),
      { numRuns: runs(300) },
    );
    expect(Buffer.from(d.snapshot()).equals(Buffer.from(before))).toBe(true);
    d.dispose();
  });

  it('should refuse a snapshot taken under other options', () => {
    const { bytes, d } = taken();
    d.dispose();
    const other = new LoopDetector({ detectors: { exactRepeat: { threshold: 5, window: 10 } } });
    expect(() => other.restore(bytes)).toThrow(/taken under other detection options/);
    other.dispose();
  });

  it('should say why a session cannot be snapshotted: the reference engine, custom detectors', () => {
    expect(() => new LoopDetector({ engine: 'reference' }).snapshot()).toThrow(/WebAssembly engine/);
    const custom = new LoopDetector({ custom: [{ name: 'mine', record: () => undefined, check: () => null, reset: () => undefined }] });
    expect(() => custom.snapshot()).toThrow(/custom detectors/);
    custom.dispose();
  });

  it('should restore sessions under options that differ only in session id or stats', () => {
    const { bytes, d } = taken();
    const next = d.check(events[0] as ToolEvent);
    d.dispose();
    const other = new LoopDetector({ sessionId: 'elsewhere' });
    other.restore(bytes);
    const v = other.check(events[0] as ToolEvent);
    // the same verdict, told as the restoring session's
    expect(v?.session).toBe('elsewhere');
    expect(json(v === null ? null : { ...v, session: next?.session })).toBe(json(next));
    expect(other.stats().sessionId).toBe('elsewhere');
    other.dispose();
  });
});
