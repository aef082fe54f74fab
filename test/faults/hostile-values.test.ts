/**
 * Fault injection, values: getters and Proxy traps that throw, revoked Proxies, null-prototype and cyclic
 * objects, errors whose message cannot be read, toJSON that throws, symbols, functions, BigInt, a
 * 100,000-deep value, and events whose own fields throw, injected anywhere in random streams. Every call
 * is answered (a verdict or null) or refused with an InvalidEventError naming the field, never a raw
 * error; a refused call is not recorded (not counted, no phantom call moving later indices); and the
 * WebAssembly and reference engines answer every call identically, one call at a time or in a batch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector, LoopEngine, isLoopwatchError } from '../../src/index.js';
import type { LoopDetectorOptions, SessionEvent, ToolEvent } from '../../src/index.js';
import { options, runs, stream } from '../helpers/streams.js';
import { json } from '../helpers/verdicts.js';
import { HOSTILE_VALUES, boom, revoked, trapsThrow } from './hostile.js';

/** Events whose own fields throw as they are read. */
const HOSTILE_EVENTS: Record<string, () => unknown> = {
  'an event whose tool getter throws': () => ({ get tool(): never { return boom('tool')(); } }),
  'an event whose result getter throws': () => ({ tool: 'read', get result(): never { return boom('result')(); } }),
  'an event whose error getter throws': () => ({ tool: 'read', get error(): never { return boom('error')(); } }),
  'an event that is a Proxy whose traps throw': () => trapsThrow(),
  'an event that is a revoked Proxy': revoked,
};

/** A stream position made hostile: a value put in one field, or a whole hostile event. */
const injection = fc.oneof(
  fc.record({ at: fc.nat(60), field: fc.constantFrom('args', 'result', 'error'), value: fc.constantFrom(...Object.keys(HOSTILE_VALUES)) }),
  fc.record({ at: fc.nat(60), field: fc.constant('event'), value: fc.constantFrom(...Object.keys(HOSTILE_EVENTS)) }),
);

type Injection = { readonly at: number; readonly field: string; readonly value: string };

/** The stream with the injections, as makers of fresh events (a Proxy may be used once only by a test). */
function makers(events: readonly ToolEvent[], injections: readonly Injection[]): (() => unknown)[] {
  const out: (() => unknown)[] = events.map((e) => () => e);
  for (const inj of injections) {
    const at = Math.min(inj.at, out.length);
    const base = events[at % Math.max(1, events.length)] ?? { tool: 'read' };
    out.splice(at, 0, inj.field === 'event' ? (HOSTILE_EVENTS[inj.value] as () => unknown) : () => ({ ...base, [inj.field]: (HOSTILE_VALUES[inj.value] as () => unknown)() }));
  }
  return out;
}

/** An answer as text: the verdict's JSON, or the refusal's class and field. */
function answer(v: unknown): string {
  if (v instanceof Error) {
    expect(isLoopwatchError(v), `a raw ${v.name}: ${v.message}`).toBe(true);
    expect(v).toBeInstanceOf(InvalidEventError);
    return `${v.name} (${(v as InvalidEventError).field})`;
  }
  return json(v);
}

/** Each call checked one at a time; the answers and the calls counted. */
function oneByOne(o: LoopDetectorOptions, calls: readonly (() => unknown)[]): { answers: string[]; checks: number } {
  const d = new LoopDetector(o, 's'); // the engine's batch names its session 's' too
  const answers = calls.map((make) => {
    try {
      return answer(d.check(make() as ToolEvent));
    } catch (err) {
      return answer(err);
    }
  });
  const checks = d.stats().checks;
  d.dispose();
  return { answers, checks };
}

/** The calls as one engine batch of one session. */
function asBatch(o: LoopDetectorOptions, calls: readonly (() => unknown)[]): string[] {
  const e = new LoopEngine(o);
  const events = calls.map((make) => {
    const ev = make();
    // a hostile event cannot be given a session by spreading it: the engine reads its session through it
    return (typeof ev === 'object' && ev !== null && !isHostileEvent(ev) ? { ...ev, session: 's' } : ev) as SessionEvent;
  });
  const out = e.checkBatch(events).map(answer);
  e.close();
  return out.map(refusedOrNot);
}

/** An answer with a refusal's field left out (a hostile event cannot be given its session, so it is refused for that). */
const refusedOrNot = (a: string): string => (a.startsWith('InvalidEventError') ? 'InvalidEventError' : a);

function isHostileEvent(ev: object): boolean {
  try {
    Object.keys(ev).forEach((k) => (ev as Record<string, unknown>)[k]);
    return false;
  } catch {
    return true;
  }
}

describe('hostile values', () => {
  it('should answer or refuse with InvalidEventError every call, record nothing refused, and answer identically in both engines, one by one and in a batch', () => {
    fc.assert(
      fc.property(options, stream, fc.array(injection, { minLength: 1, maxLength: 4 }), (o, events, injections) => {
        const calls = makers(events, injections);
        const wasm = oneByOne({ ...o, engine: 'wasm' }, calls);
        const reference = oneByOne({ ...o, engine: 'reference' }, calls);
        expect(wasm.answers).toEqual(reference.answers);
        expect(wasm.checks).toBe(wasm.answers.filter((a) => !a.startsWith('InvalidEventError')).length);
        expect(reference.checks).toBe(wasm.checks);
        for (const engine of ['wasm', 'reference'] as const) expect(asBatch({ ...o, engine }, calls)).toEqual(wasm.answers.map(refusedOrNot));
      }),
      { numRuns: runs(150) },
    );
  });

  it.each(Object.keys(HOSTILE_VALUES))('should answer the same in both engines, and record the call only when it is answered, for %s in each field', (name) => {
    for (const field of ['args', 'result', 'error']) {
      const calls = [() => ({ tool: 'read', args: { p: 1 }, result: 'ok' }), () => ({ tool: 'read', [field]: (HOSTILE_VALUES[name] as () => unknown)() }), () => ({ tool: 'read', args: { p: 1 }, result: 'ok' }), () => ({ tool: 'read', args: { p: 1 }, result: 'ok' })];
      const wasm = oneByOne({ policy: { minConfidence: 0 } }, calls);
      const reference = oneByOne({ engine: 'reference', policy: { minConfidence: 0 } }, calls);
      expect(wasm.answers).toEqual(reference.answers);
      expect(wasm.checks).toBe(wasm.answers.filter((a) => !a.startsWith('InvalidEventError')).length);
      expect(reference.checks).toBe(wasm.checks);
      if (field !== 'error') expect(wasm.answers[1]).not.toMatch(/InvalidEventError/);
    }
  });

  it.each(Object.keys(HOSTILE_EVENTS))('should refuse %s with an InvalidEventError, recording nothing, in both engines', (name) => {
    for (const engine of ['wasm', 'reference'] as const) {
      const r = oneByOne({ engine }, [(HOSTILE_EVENTS[name] as () => unknown), () => ({ tool: 'read' })]);
      expect(r.answers[0]).toMatch(/^InvalidEventError/);
      expect(r.checks).toBe(1);
    }
  });
});
