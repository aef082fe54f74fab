/** LoopDetector.checkMany: several calls of one session in one crossing, with check()'s verdicts and errors. */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector } from '../src/index.js';
import type { Detector, ObservedCall, ToolEvent } from '../src/index.js';

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
