/**
 * LoopEngine: many sessions in one thread give each session the verdicts its own LoopDetector gives, in
 * any batching; the session lifecycle (end, idle expiry, LRU eviction, snapshots) keeps memory bounded
 * and is counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClosedError, InvalidEventError, LoopDetector, LoopEngine, SnapshotError } from '../src/index.js';
import type { EvictedSession, SessionEvent, ToolEvent, Verdict } from '../src/index.js';
import { options, runs, stream } from './helpers/streams.js';
import { json, perSession } from './helpers/verdicts.js';

/** Events of several sessions, interleaved by `order`. */
const fleet = fc.tuple(fc.array(stream, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 200 })).map(([streams, order]) => {
  const next = streams.map(() => 0);
  const out: SessionEvent[] = [];
  for (const o of order) {
    const s = o % streams.length;
    const events = streams[s] as ToolEvent[];
    const i = next[s] as number;
    if (i >= events.length) continue;
    next[s] = i + 1;
    out.push({ ...events[i], session: `s${s}` } as SessionEvent);
  }
  return out;
});

/** Splits `events` into batches of the given sizes (cycling), and runs them through the engine. */
function batched(engine: LoopEngine, events: readonly SessionEvent[], sizes: readonly number[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (let k = 0; at < events.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length] as number);
    for (const v of engine.checkBatch(events.slice(at, at + n))) out.push(json(v));
    at += n;
  }
  return out;
}

describe('LoopEngine verdicts', () => {
  it('should give every session the verdicts of its own LoopDetector, in any batching', () => {
    fc.assert(
      fc.property(fleet, options, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }), (events, o, sizes) => {
        const want = perSession(events, o);
        const engine = new LoopEngine(o);
        expect(batched(engine, events, sizes)).toEqual(want);
        engine.close();
        const one = new LoopEngine(o);
        expect(events.map((e) => json(one.check(e.session, e)))).toEqual(want);
        one.close();
      }),
      { numRuns: runs(120) },
    );
  });

  it('should put an error in the place of a bad call and check the others', () => {
    const engine = new LoopEngine();
    const call = { tool: 'read', args: { path: 'a' } };
    const out = engine.checkBatch([{ ...call, session: 'a' }, { ...call } as SessionEvent, { session: 'a', tool: '' } as SessionEvent, { ...call, session: 'a' }, { ...call, session: 'a' }]);
    expect(out[1]).toBeInstanceOf(InvalidEventError);
    expect((out[1] as Error).message).toMatch(/events\[1\]\.session must be a non-empty string, received undefined/);
    expect(out[2]).toBeInstanceOf(InvalidEventError);
    expect((out[2] as Error).message).toMatch(/^events\[2\]: event\.tool must be a non-empty string/);
    expect(out[0]).toBeNull();
    expect((out[4] as Verdict).kind).toBe('exact_repeat');
    expect(() => engine.check(7 as unknown as string, call)).toThrow(/sessionId must be a non-empty string/);
    engine.close();
  });
});

describe('LoopEngine session lifecycle', () => {
  const call = (i: number): ToolEvent => ({ tool: 'read', args: { path: `f${i}` } });

  it('should evict the least recently used session at the cap, and count it', () => {
    const evicted: string[] = [];
    const engine = new LoopEngine({ maxSessions: 3, onEvict: (s) => void evicted.push(`${s.sessionId}:${s.reason}:${s.checks}`) });
    for (const id of ['a', 'b', 'c']) engine.check(id, call(0));
    engine.check('a', call(1)); // a is now the most recent: b goes first
    engine.check('d', call(0));
    engine.check('e', call(0));
    expect(evicted).toEqual(['b:evicted:1', 'c:evicted:1']);
    expect([...['a', 'b', 'c', 'd', 'e']].filter((id) => engine.has(id))).toEqual(['a', 'd', 'e']);
    expect(engine.stats()).toMatchObject({ live: 3, created: 5, evicted: 2, expired: 0, ended: 0, checks: 6 });
    engine.close();
  });

  it('should check a batch with more sessions than the cap as one call at a time would', () => {
    const events: SessionEvent[] = [];
    for (let r = 0; r < 6; r++) for (const s of ['a', 'b', 'c', 'a']) events.push({ ...call(r % 2), session: s });
    const single = new LoopEngine({ maxSessions: 2 });
    const want = events.map((e) => json(single.check(e.session, e)));
    const wantStats = single.stats();
    single.close();
    for (const size of [1, 3, 7, events.length]) {
      const engine = new LoopEngine({ maxSessions: 2 });
      const got = batched(engine, events, [size]);
      expect(got.some((v) => v.includes('Error'))).toBe(false);
      expect(got).toEqual(want);
      expect(engine.stats()).toEqual(wantStats);
      engine.close();
    }
  });

  it('should expire idle sessions, offering their snapshot, and restore them elsewhere exactly', () => {
    let now = 0;
    const kept = new Map<string, Uint8Array>();
    const o = { idleTtlMs: 1000, clock: () => now, onEvict: (s: EvictedSession) => void kept.set(s.sessionId, s.snapshot()) };
    const engine = new LoopEngine(o);
    const twin = new LoopDetector();
    const loop: ToolEvent = { tool: 'search', args: { q: 'handler' }, result: 'No results found.' };
    engine.check('idle', loop);
    twin.check(loop);
    now = 600;
    engine.check('busy', call(1));
    now = 1500; // idle for 1500 ms, busy for 900 ms
    engine.check('busy', call(2));
    expect(engine.has('idle')).toBe(false);
    expect(engine.has('busy')).toBe(true);
    expect(engine.stats()).toMatchObject({ expired: 1, live: 1 });
    const other = new LoopEngine();
    other.restore('idle', kept.get('idle') as Uint8Array);
    expect(json(other.check('idle', loop))).toBe(json(twin.check(loop)));
    expect(other.stats()).toMatchObject({ restored: 1, created: 1 });
    now = 5000;
    expect(engine.sweep()).toBe(1);
    expect(engine.size).toBe(0);
    for (const e of [engine, other]) e.close();
    twin.dispose();
  });

  it('should end sessions, give their snapshots, and refuse bad snapshot bytes without changing the session', () => {
    const engine = new LoopEngine();
    engine.check('a', call(0));
    const bytes = engine.snapshot('a') as Uint8Array;
    expect(engine.snapshot('nobody')).toBeNull();
    expect(() => engine.restore('b', bytes.subarray(0, 10))).toThrow(SnapshotError);
    expect(engine.has('b')).toBe(false);
    expect(engine.end('a')).toBe(true);
    expect(engine.end('a')).toBe(false);
    engine.restore('a', bytes);
    expect(engine.check('a', call(0))?.kind).toBe(undefined); // one repeat is below every threshold
    expect(engine.sessionStats('a')?.checks).toBe(2);
    expect(engine.stats()).toMatchObject({ ended: 1, restored: 1, created: 2, live: 1 });
    engine.close();
    expect(() => engine.check('a', call(0))).toThrow(ClosedError);
    expect(() => engine.checkBatch([])).toThrow(/closed/);
  });

  it('should refuse per-session and unknown options clearly', () => {
    expect(() => new LoopEngine({ sessionId: 'x' } as never)).toThrow(/options.sessionId is per session/);
    expect(() => new LoopEngine({ custom: [] } as never)).toThrow(/custom detectors keep state/);
    expect(() => new LoopEngine({ maxSesions: 5 } as never)).toThrow(/did you mean "maxSessions"/);
    expect(() => new LoopEngine({ maxSessions: 0 })).toThrow(/options.maxSessions must be an integer from 1/);
    expect(() => new LoopEngine({ detectors: { cycle: { minPeriod: 1 } } })).toThrow(/options.detectors.cycle.minPeriod/);
  });

  it('should hold 100,000 live sessions, bounded by the cap', () => {
    const engine = new LoopEngine({ maxSessions: 100_000, detectors: { semantic: false, similarArgs: false, chanting: false } });
    const batch: SessionEvent[] = [];
    for (let i = 0; i < 120_000; i++) {
      batch.push({ session: `session-${i}`, tool: 'read', args: { path: `f${i % 3}` } });
      if (batch.length === 4096) batch.length = engine.checkBatch(batch).length * 0;
    }
    engine.checkBatch(batch);
    expect(engine.stats()).toMatchObject({ live: 100_000, created: 120_000, evicted: 20_000 });
    expect(engine.has('session-19999')).toBe(false);
    expect(engine.has('session-20000')).toBe(true);
    engine.close();
  });
});
