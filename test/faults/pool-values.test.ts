/**
 * Answers do not depend on the runner. A LoopPool sends a call's values to a worker thread: JSON data as
 * they are, other values by structured clone, and errors as their text. Whenever a pool answers a call,
 * its answer is the engine's; a value a worker could not receive unchanged (a function, a symbol, a Proxy,
 * a class instance whose toJSON stays behind, an Error's own fields, a 100,000-deep value) is refused, and
 * an engine with `strictValues: true` refuses exactly those, with the same message.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidEventError, LoopEngine, LoopPool } from '../../src/index.js';
import type { LoopDetectorOptions, SessionEvent } from '../../src/index.js';
import { json } from '../helpers/verdicts.js';
import { HOSTILE_VALUES } from './hostile.js';
import { settles } from './settle.js';

class Query {
  constructor(readonly q: string) {}
}
class Serialised {
  constructor(readonly q: string) {}
  toJSON(): string {
    return `query:${this.q}`;
  }
}
class NotFound extends Error {
  readonly code = 'ENOENT';
}

/** Values beyond JSON data: some reach a worker unchanged, some do not. */
const VALUES: Record<string, () => unknown> = {
  'a Map': () => new Map<unknown, unknown>([['k', 1], [{ o: 1 }, [2]]]),
  'a Set': () => new Set([1, 'a']),
  'a Date': () => new Date(0),
  'a BigInt': () => 10n ** 20n,
  'NaN and -0': () => ({ a: NaN, b: -0 }),
  'a class instance': () => new Query('x'),
  'a class instance with toJSON': () => new Serialised('x'),
  'a Buffer': () => Buffer.from('abc'),
  'a Uint8Array': () => new Uint8Array([1, 2, 3]),
  'an Error with its own fields': () => Object.assign(new Error('gone'), { code: 'ENOENT', path: '/x' }),
  'an Error subclass': () => new NotFound('gone'),
  'a null-prototype object': () => Object.assign(Object.create(null) as object, { a: 1 }),
  'a sparse array': () => [1, , 3], // eslint-disable-line no-sparse-arrays
  'a boxed string': () => new String('ab'), // eslint-disable-line no-new-wrappers
  'a RegExp': () => /a+/g,
  'a cyclic object': () => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = o;
    return o;
  },
  'a Proxy that behaves': () => new Proxy({ a: 1 }, {}),
  'a function inside an object': () => ({ a: 1, f: () => 1 }),
  ...HOSTILE_VALUES,
};

/** The same call four times, then another: enough for verdicts to come. */
function calls(session: string, field: string, make: () => unknown): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 0; i < 4; i++) out.push({ session, tool: 'query', args: { q: 'same' }, result: 'No results found.', [field]: make() } as SessionEvent);
  out.push({ session, tool: 'other', args: { q: 'x' } });
  return out;
}

/** Answers as text; a refusal as its field and message without the batch position. */
const text = (v: unknown): string => (v instanceof Error ? `${v.name} (${(v as InvalidEventError).field}): ${v.message.replace(/^events\[\d+\]: /, '')}` : json(v));

const pools: LoopPool[] = [];
const pool = (o: ConstructorParameters<typeof LoopPool>[0]): LoopPool => {
  const p = new LoopPool(o);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => settles(p.close(), 10_000, 'close()')));
});

describe('answers whatever runs them', () => {
  const options: LoopDetectorOptions = { policy: { minConfidence: 0 } };
  const inWorker = pool({ ...options, workers: 1 });
  const inThread = pool({ ...options, workers: 0, inlineShard: true });

  for (const field of ['args', 'result', 'error']) {
    it.each(Object.keys(VALUES))(`should give the engine's answers in a pool, or refuse in the pool and in a strict engine alike, for %s in ${field}`, async (name) => {
      const make = VALUES[name] as () => unknown;
      const events = calls(`s-${field}-${name}`, field, make);
      const engine = new LoopEngine(options);
      const strict = new LoopEngine({ ...options, strictValues: true });
      const plain = engine.checkBatch(calls(`s-${field}-${name}`, field, make)).map(text);
      const strictly = strict.checkBatch(calls(`s-${field}-${name}`, field, make)).map(text);
      engine.close();
      strict.close();
      const worker = ((await settles(inWorker.checkBatch(events), 10_000, 'worker pool')).value as unknown[]).map(text);
      const thread = ((await settles(inThread.checkBatch(calls(`s-${field}-${name}`, field, make)), 10_000, 'calling-thread pool')).value as unknown[]).map(text);
      expect(thread).toEqual(worker);
      expect(strictly).toEqual(worker);
      worker.forEach((a, i) => {
        if (a.startsWith('InvalidEventError') && !(plain[i] as string).startsWith('InvalidEventError')) expect(a).toMatch(/cannot be sent to a worker thread/);
        else expect(a).toBe(plain[i]);
      });
    });
  }
});
