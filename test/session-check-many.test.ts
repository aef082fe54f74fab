/** LoopDetector.checkMany: several calls of one session in one crossing, with check()'s verdicts and errors. */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector } from '../src/index.js';
import type { Detector, LoopDetectorOptions, ObservedCall, ToolEvent } from '../src/index.js';
import { sharedCore } from '../src/wasm/wasm-core.js';

const same: ToolEvent = { tool: 'search', args: { q: 'handleSubmit' }, result: 'No results found.' };

describe.each(['wasm', 'reference'] as const)('checkMany (%s engine)', (engine) => {
  it('should flag a repeated call at the same position as check() does', () => {
    const one = new LoopDetector({ engine });
    const many = new LoopDetector({ engine });
    const events = [same, same, same, same];
    const expected = events.map((e) => one.check(e));
    const got = many.checkMany(events);
    expect(got.map((v) => v?.kind ?? null)).toEqual(expected.map((v) => v?.kind ?? null));
    expect(got[0]).toBeNull();
    expect(got.some((v) => v?.kind === 'exact_repeat')).toBe(true);
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    one.dispose();
    many.dispose();
  });

  it('should record nothing and name the position when one event is invalid', () => {
    const d = new LoopDetector({ engine });
    expect(() => d.checkMany([same, { tool: 42 } as unknown as ToolEvent])).toThrow(InvalidEventError);
    expect(() => d.checkMany([same, { tool: 42 } as unknown as ToolEvent])).toThrow(/events\[1\]/);
    expect(d.stats().checks).toBe(0);
    expect(() => d.checkMany('nope' as unknown as ToolEvent[])).toThrow(/must be an array/);
    d.dispose();
  });

  it('should skip exempt tools and count them, as check() does', () => {
    const d = new LoopDetector({ engine, tools: { heartbeat: { exempt: true } } });
    const got = d.checkMany([same, { tool: 'heartbeat' }, same, { tool: 'heartbeat' }, same]);
    expect(got[1]).toBeNull();
    expect(got[3]).toBeNull();
    expect(d.stats().checks).toBe(5);
    expect(d.stats().skipped).toBe(2);
    d.dispose();
  });

  it('should let custom detectors see every call in order', () => {
    const seen: number[] = [];
    const spy: Detector = { name: 'spy', record: (c: ObservedCall) => void seen.push(c.index), check: () => null, reset: () => undefined };
    const d = new LoopDetector({ engine, custom: [spy] });
    d.checkMany([same, { tool: 'read', args: { p: 1 } }, same]);
    d.checkMany([same]);
    expect(seen).toEqual([0, 1, 2, 3]);
    d.dispose();
  });

  it('should return an empty array for no events', () => {
    const d = new LoopDetector({ engine });
    expect(d.checkMany([])).toEqual([]);
    d.dispose();
  });
});

describe('LoopDetector.checkBatch', () => {
  it('should answer each call of many interleaved sessions as check() would', () => {
    const sessions = Array.from({ length: 50 }, (_, s) => new LoopDetector({ engine: s % 3 === 0 ? 'reference' : 'wasm' }));
    const twins = sessions.map(() => new LoopDetector({ engine: 'reference' }));
    const entries: { detector: LoopDetector; event: ToolEvent }[] = [];
    const expected: string[] = [];
    for (let round = 0; round < 6; round++) {
      sessions.forEach((d, s) => {
        const event: ToolEvent = { tool: 'search', args: { q: `topic ${s % 7}`, page: round % (1 + (s % 3)) } };
        entries.push({ detector: d, event });
        expected.push(JSON.stringify((twins[s] as LoopDetector).check(event)));
      });
    }
    const before = sharedCore().crossings;
    const got = LoopDetector.checkBatch(entries);
    // 198 WebAssembly calls of 33 sessions, split only by the reference calls between them: 17 runs a round
    expect(sharedCore().crossings - before).toBe(6 * 17);
    expect(got.map((v) => JSON.stringify(v))).toEqual(expected);
    expect(got.filter((v) => v !== null).length).toBeGreaterThan(0);
    for (const d of sessions) d.dispose();
  });

  it('should take calls of many WebAssembly sessions into the module together', () => {
    const run = (o: LoopDetectorOptions): { crossings: number; flagged: number } => {
      const sessions = Array.from({ length: 100 }, () => new LoopDetector(o));
      // four rounds: every session repeats its call four times
      const entries = Array.from({ length: 400 }, (_, i) => ({ detector: sessions[i % 100] as LoopDetector, event: { tool: 'bash', args: { command: `ls ${(i % 100) % 7}` } } }));
      const before = sharedCore().crossings;
      const got = LoopDetector.checkBatch(entries);
      const crossings = sharedCore().crossings - before;
      expect(got.some((v) => v instanceof Error)).toBe(false);
      for (const d of sessions) d.dispose();
      return { crossings, flagged: got.filter((v) => v !== null).length };
    };
    // module detectors only, and no failing-again rule (it goes with dead end): all 400 calls in one crossing
    expect(run({ detectors: { similarArgs: false, deadEnd: false } })).toEqual({ crossings: 1, flagged: 200 });
    // similar args keeps its window's ring words on the host, so one crossing too (it read the session's rings
    // after each of its calls before: one crossing per round of sessions, 4)
    expect(run({ detectors: { deadEnd: false } })).toEqual({ crossings: 1, flagged: 200 });
    // every detector: the failing-again rule reads the host's words too (src/state/recent-words.ts), so one
    // crossing (it read a session's rings after each of its recorded calls before: one crossing per round, 4)
    expect(run({})).toEqual({ crossings: 1, flagged: 200 });
  });

  it('should put an error in the place of a bad call and go on with the rest', () => {
    const a = new LoopDetector();
    const b = new LoopDetector();
    b.dispose();
    const got = LoopDetector.checkBatch([
      { detector: a, event: same },
      { detector: a, event: { tool: '' } },
      { detector: 'nope' as unknown as LoopDetector, event: same },
      { detector: b, event: same },
      { detector: a, event: same },
      null as unknown as { detector: LoopDetector; event: ToolEvent },
      { detector: a, event: same },
    ]);
    expect(got[0]).toBeNull();
    expect(got[1]).toBeInstanceOf(InvalidEventError);
    expect((got[1] as Error).message).toMatch(/calls\[1\]\.event/);
    expect((got[2] as Error).message).toMatch(/calls\[2\]\.detector must be a LoopDetector/);
    expect((got[3] as Error).message).toMatch(/disposed/);
    expect(got[4]).toBeNull();
    expect(got[5]).toBeInstanceOf(InvalidEventError);
    expect((got[6] as { kind: string }).kind).toBe('exact_repeat');
    expect(a.stats().checks).toBe(3);
    expect(() => LoopDetector.checkBatch({} as unknown as [])).toThrow(/must be an array/);
    a.dispose();
  });

  it('should report a custom detector that throws for its call only', () => {
    let n = 0;
    const flaky: Detector = { name: 'flaky', record: () => void n++, check: () => { if (n === 2) throw new Error('boom'); return null; }, reset: () => undefined };
    const a = new LoopDetector({ custom: [flaky] });
    const b = new LoopDetector();
    const got = LoopDetector.checkBatch([{ detector: a, event: same }, { detector: b, event: same }, { detector: a, event: same }, { detector: b, event: same }, { detector: b, event: same }]);
    expect(got[2]).toBeInstanceOf(Error);
    expect((got[2] as Error).message).toMatch(/flaky.*boom/);
    expect((got[4] as { kind: string }).kind).toBe('exact_repeat');
    a.dispose();
    b.dispose();
  });

  it('should give the same verdicts when a verdict listener checks other sessions in the middle of a batch', () => {
    const calls = (tag: string): ToolEvent[] => Array.from({ length: 8 }, (_, i) => ({ tool: 'read', args: { path: `${tag}${i % 2}` }, result: `body ${i % 2}` }));
    // what each session says alone
    const alone = (events: ToolEvent[]): string => {
      const d = new LoopDetector();
      const out = JSON.stringify(events.map((e) => d.check(e)));
      d.dispose();
      return out;
    };
    const inner = new LoopDetector();
    const innerOut: unknown[] = [];
    let nested = 0;
    // the listener runs while the outer batch is still going: its own batch must not disturb the outer one
    const outer = new LoopDetector({
      onDetection: () => {
        nested++;
        innerOut.push(...LoopDetector.checkBatch(calls('in').slice(0, 2).map((event) => ({ detector: inner, event }))));
      },
    });
    const other = new LoopDetector();
    const batch = calls('out').flatMap((event, i) => [{ detector: outer, event }, { detector: other, event: calls('x')[i] as ToolEvent }]);
    const got = LoopDetector.checkBatch(batch);
    expect(nested).toBeGreaterThan(0);
    expect(JSON.stringify(got.filter((_, k) => k % 2 === 0))).toBe(alone(calls('out')));
    expect(JSON.stringify(got.filter((_, k) => k % 2 === 1))).toBe(alone(calls('x')));
    expect(JSON.stringify(innerOut)).toBe(alone(Array.from({ length: nested }, () => calls('in').slice(0, 2)).flat()));
    for (const d of [inner, outer, other]) d.dispose();
  });
});
