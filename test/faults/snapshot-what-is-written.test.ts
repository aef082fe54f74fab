/**
 * Fault injection, snapshots: what snapshot() writes, restore() reads, whatever the args held (more than
 * 2^20 array elements, getters and Proxies that throw, cycles, 100,000-deep values), and a restored
 * session goes on with exactly the verdicts of the uninterrupted one. A session that cannot be captured
 * is refused at snapshot() with a SnapshotError, and an eviction that cannot persist its session is
 * reported (onEvictError, else a LoopwatchEvictWarning), never dropped in silence.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopDetector, LoopEngine, SnapshotError, WasmTrapError } from '../../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../../src/index.js';
import { armTrapForTesting } from '../../src/wasm/wasm-core.js';
import { options, runs, stream } from '../helpers/streams.js';
import { json } from '../helpers/verdicts.js';
import { HOSTILE_VALUES } from './hostile.js';

/** Verdicts of `calls` straight through, and with a snapshot after `at` calls restored into a new detector. */
function bothWays(o: LoopDetectorOptions, calls: readonly (() => ToolEvent)[], at: number): { straight: string[]; resumed: string[] } {
  const a = new LoopDetector(o);
  const straight = calls.map((make) => json(a.check(make())));
  a.dispose();
  const b = new LoopDetector(o);
  const resumed = calls.slice(0, at).map((make) => json(b.check(make())));
  const bytes = b.snapshot();
  b.dispose();
  const c = new LoopDetector(o);
  c.restore(bytes);
  for (const make of calls.slice(at)) resumed.push(json(c.check(make())));
  c.dispose();
  return { straight, resumed };
}

const similar: LoopDetectorOptions = { detectors: { similarArgs: { threshold: 2, window: 6 } }, policy: { minConfidence: 0 } };

describe('snapshots of sessions that saw odd args', () => {
  it('should restore a session whose args held more than 2^20 array elements, and go on exactly', () => {
    const big = new Array<number>(2 ** 20 + 1).fill(7);
    // the same rows, a query with one letter changed, no results: similar args compares the rows element by element
    const calls = ['handleSubmitForm', 'handleSubmitF0rm', 'handleSubmitFrom'].map((q) => () => ({ tool: 'load', args: { rows: big, q }, result: 'No results found.' }));
    const { straight, resumed } = bothWays(similar, calls, 2);
    expect(resumed).toEqual(straight);
    expect(straight[2]).toMatch(/similar_args/);
  });

  it('should snapshot a session whose args held a nested Proxy that throws, and go on exactly', () => {
    const proxyArgs = (): ToolEvent => ({ tool: 'query', args: { where: { field: (HOSTILE_VALUES['a Proxy whose every trap throws'] as () => unknown)() }, limit: 5 } });
    const { straight, resumed } = bothWays(similar, [proxyArgs, proxyArgs, proxyArgs, proxyArgs], 2);
    expect(resumed).toEqual(straight);
  });

  it('should restore and go on exactly whatever odd values the args and results held (property)', () => {
    const hostile = fc.constantFrom(...Object.keys(HOSTILE_VALUES));
    fc.assert(
      fc.property(options, stream, fc.array(fc.record({ at: fc.nat(40), name: hostile, field: fc.constantFrom('args', 'result'), nested: fc.boolean() }), { minLength: 1, maxLength: 4 }), fc.nat(40), (o, events, odd, after) => {
        const calls: (() => ToolEvent)[] = events.map((e) => () => e);
        for (const x of odd) {
          const make = HOSTILE_VALUES[x.name] as () => unknown;
          const base = events[x.at % events.length] as ToolEvent;
          calls.splice(Math.min(x.at, calls.length), 0, () => ({ ...base, [x.field]: x.nested ? { q: 'same', inner: [make()] } : make() }));
        }
        // the snapshot is taken after the first odd call, when the session holds it
        const first = Math.min(...odd.map((x) => x.at), calls.length - 1);
        const { straight, resumed } = bothWays(o, calls, Math.min(calls.length, first + 1 + (after % 4)));
        expect(resumed).toEqual(straight);
      }),
      { numRuns: runs(60) },
    );
  });

  it('should refuse to snapshot a session it cannot capture with a SnapshotError (quarantined after a trap)', () => {
    const d = new LoopDetector();
    d.check({ tool: 'read', args: { p: 1 } });
    armTrapForTesting((d as unknown as { pipeline: { slot: number } }).pipeline.slot);
    expect(() => d.check({ tool: 'read', args: { p: 2 } })).toThrow(WasmTrapError);
    expect(() => d.snapshot()).toThrow(SnapshotError);
    d.dispose();
  });
});

describe('evictions that cannot persist their session', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** An engine of one session whose session "q" is quarantined, so its snapshot cannot be taken. */
  function engineWithQuarantined(extra: object): LoopEngine {
    const e = new LoopEngine({ maxSessions: 1, onEvict: (s) => void s.snapshot(), ...extra });
    e.check('q', { tool: 'read', args: { p: 1 } });
    const d = (e as unknown as { table: { peek(id: string): LoopDetector } }).table.peek('q');
    armTrapForTesting((d as unknown as { pipeline: { slot: number } }).pipeline.slot);
    expect(() => e.check('q', { tool: 'read', args: { p: 2 } })).toThrow(WasmTrapError);
    return e;
  }

  it('should report an eviction whose snapshot cannot be taken to onEvictError, naming the session', () => {
    const reports: { sessionId: string; reason: string; error: unknown }[] = [];
    const e = engineWithQuarantined({ onEvictError: (error: Error, s: { sessionId: string; reason: string }) => reports.push({ sessionId: s.sessionId, reason: s.reason, error }) });
    e.check('next', { tool: 'read' }); // evicts "q"
    expect(reports.length).toBe(1);
    expect(reports[0]?.sessionId).toBe('q');
    expect(reports[0]?.reason).toBe('evicted');
    expect(reports[0]?.error).toBeInstanceOf(SnapshotError);
    expect(e.stats().evicted).toBe(1);
    e.close();
  });

  it('should report it even when onEvict swallowed the error, and by a LoopwatchEvictWarning when there is no onEvictError', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const e = engineWithQuarantined({
      onEvict: (s: { snapshot(): Uint8Array }) => {
        try {
          s.snapshot();
        } catch {
          // lost in silence, were it not reported
        }
      },
    });
    e.check('next', { tool: 'read' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/session "q" was evicted without being persisted/);
    expect(warn.mock.calls[0]?.[1]).toBe('LoopwatchEvictWarning');
    e.close();
  });
});
