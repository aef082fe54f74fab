import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector, isLoopwatchError } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';

describe('events in', () => {
  it('should reject what is not a tool call with an InvalidEventError naming the field, recording nothing', () => {
    const d = new LoopDetector();
    const bad: unknown[] = [null, undefined, 42, 'bash', [], {}, { tool: '' }, { tool: 7 }, { tool: 't', text: 5 }, { tool: 't', step: 'one' }, { tool: 't', round: NaN }, { tool: 't', description: {} }];
    for (const e of bad) {
      let err: unknown;
      try {
        d.check(e as ToolEvent);
      } catch (x) {
        err = x;
      }
      expect(err).toBeInstanceOf(InvalidEventError);
      expect(isLoopwatchError(err)).toBe(true);
      expect((err as InvalidEventError).code).toBe('ERR_LOOPWATCH_INVALID_EVENT');
      expect((err as Error).message).toMatch(/event/);
    }
    expect(d.stats().checks).toBe(0);
    expect(d.check({ tool: 't', args: {} })?.index ?? 0).toBe(0);
  });

  it('should accept odd args without throwing: huge, deeply nested, cyclic, BigInt, invalid JSON text, binary', () => {
    const cyc: Record<string, unknown> = {};
    cyc.me = cyc;
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const odd: unknown[] = ['x'.repeat(2_000_000), deep, cyc, { n: 10n ** 30n }, '{"unterminated": ', '\ud800\udfff\ud800', new Uint8Array(1000), new Map([[{}, []]]), Symbol('s'), () => 1, new Date(NaN), Object.create(null)];
    const d = new LoopDetector();
    for (const args of odd) expect(() => d.check({ tool: 'weird', args, result: args, error: typeof args === 'string' ? args : undefined })).not.toThrow();
  });

  it('should never throw on random JSON events and always answer null or a well-formed verdict', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool: fc.constantFrom('a', 'b', 'c'), args: fc.jsonValue({ maxDepth: 3 }), result: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }), error: fc.option(fc.constantFrom('boom', 'HTTP 503', 'x'), { nil: undefined }), text: fc.option(fc.string({ maxLength: 60 }), { nil: undefined }) }), { maxLength: 60 }),
        (events) => {
          const d = new LoopDetector();
          events.forEach((e, i) => {
            const v = d.check(e);
            if (v !== null) {
              expect(v.index).toBe(i);
              expect(v.confidence).toBeGreaterThanOrEqual(0.5);
              expect(v.confidence).toBeLessThanOrEqual(1);
              expect(v.loopStart).toBeLessThanOrEqual(i);
              expect(['warn', 'ask', 'break']).toContain(v.action);
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should give the same verdicts for the same input, every time', () => {
    const events: ToolEvent[] = [];
    for (let i = 0; i < 200; i++) events.push({ tool: ['a', 'b', 'c'][i % 3]!, args: { k: i % 7, s: `q${i % 5}` }, result: `r${i % 4}`, ...(i % 9 === 0 ? { error: `E${i % 2}` } : {}) });
    const runOnce = () => {
      const d = new LoopDetector();
      return JSON.stringify(events.map((e) => d.check(e)));
    };
    expect(runOnce()).toBe(runOnce());
  });

  it('should skip exempt tools entirely and use per-tool identity functions', () => {
    const d = new LoopDetector({ tools: { heartbeat: { exempt: true }, search: { identity: (a) => (a as { q: string }).q.trim().toLowerCase() } } });
    expect(d.check({ tool: 'heartbeat', args: {} })).toBeNull();
    const v = ['Cats', ' cats', 'CATS '].map((q, i) => d.check({ tool: 'search', args: { q, page_token: i } }));
    expect(v[2]?.kind).toBe('exact_repeat');
    expect(v[2]?.unit[0]?.index).toBe(2);
  });

  it('should ignore listed fields for every tool or one tool', () => {
    const d = new LoopDetector({ ignoreFields: ['request_id'], tools: { fetch: { ignoreFields: ['nonce'] } } });
    const v = [1, 2, 3].map((i) => d.check({ tool: 'fetch', args: { url: 'https://x', request_id: i, nonce: `n${i}` } }));
    expect(v[2]?.kind).toBe('exact_repeat');
  });
});
