/**
 * Calls given as bytes (`checkLines`): an engine and pools of every shape give the verdicts checkBatch gives
 * for the calls the lines hold, whatever the worker count; a line that holds no call has its error in
 * its place and the others go on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopEngine, type SessionEvent } from '../src/engine/loop-engine.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import { lineRouteSession } from '../src/formats/line-route.js';
import { runs } from './helpers/streams.js';
import { traceDir, traceEventsText } from './helpers/traces.js';

const record = fc.record(
  {
    session: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    tool: fc.constantFrom('read', 'edit', 'run'),
    args: fc.constantFrom({ path: '/x.py' }, { path: '/y.py' }, { cmd: 'pytest -q' }, ['a', 1]),
    result: fc.oneof(fc.constantFrom('ok', 'No matches found', 'line 1\n"line" 2\n', 'still running'), fc.string({ maxLength: 30 }), fc.constant({ rows: 0 })),
    error: fc.constantFrom(undefined, null, 'Traceback: boom'),
    text: fc.constantFrom(undefined, 'Let me try again.'),
    step: fc.nat(50),
  },
  { requiredKeys: ['session', 'tool'] },
);
/** Lines: mostly records read from their bytes, some parsed (outside ASCII), some holding no call. */
const line = fc.oneof(
  { weight: 10, arbitrary: record.map((r) => JSON.stringify(r)) },
  { weight: 2, arbitrary: record.map((r) => JSON.stringify({ ...r, text: 'déjà vu' })) },
  { weight: 1, arbitrary: fc.constantFrom('{"tool":"read"}', '{"session":"a","tool":""}', 'not json', '{"session":"a","tool":"read","step":"x"}', '\u00ff') },
);

/** What checkBatch gives for the calls the lines hold (the lines parsed in the test), errors as their kind. */
function expected(lines: readonly string[]): string[] {
  const engine = new LoopEngine({ maxSessions: 10_000 });
  const out = lines.map((l): string | SessionEvent => {
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      return 'error';
    }
    const r = v as Record<string, unknown>;
    if (typeof r.session !== 'string' || typeof r.tool !== 'string' || r.tool === '' || (r.step !== undefined && typeof r.step !== 'number')) return 'error';
    const failed = r.error !== undefined && r.error !== null && r.error !== false && r.error !== '';
    return { session: r.session, tool: r.tool, args: r.args, result: r.result, error: failed ? r.error : undefined, text: (r.text ?? undefined) as string | undefined, step: (r.step ?? undefined) as number | undefined } as SessionEvent;
  });
  const events = out.filter((x): x is SessionEvent => typeof x !== 'string');
  const verdicts = engine.checkBatch(events);
  engine.close();
  let k = 0;
  return out.map((x) => (typeof x === 'string' ? x : show(verdicts[k++] ?? null)));
}

function show(v: unknown): string {
  return v instanceof Error ? 'error' : JSON.stringify(v);
}

const bytes = (lines: readonly string[]): Buffer[] => lines.map((l) => Buffer.from(l, 'utf8'));

/** Every shape of pool: workers only (one, two), and one worker beside a shard in the calling thread. */
const POOL_SHAPES = [
  { workers: 1, inlineShard: false },
  { workers: 2, inlineShard: false },
  { workers: 1, inlineShard: true },
] as const;

describe('checkLines: calls given as bytes', () => {
  it('an engine (both kinds) gives checkBatch\'s verdicts for the calls the lines hold', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 80 }), (lines) => {
        const want = expected(lines);
        for (const kind of ['wasm', 'reference'] as const) {
          const engine = new LoopEngine({ maxSessions: 1000, engine: kind });
          expect(engine.checkLines(bytes(lines)).map(show)).toEqual(want);
          engine.close();
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('pools of every shape give the same verdicts as the engine', async () => {
    const pools = POOL_SHAPES.map((s) => new LoopPool({ ...s, maxSessions: 1000 }));
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 80 }), async (lines) => {
          const want = expected(lines);
          // every pool starts afresh: end the sessions the lines name
          for (const pool of pools) {
            const got = (await pool.checkLines(bytes(lines))).map(show);
            expect(got).toEqual(want);
            await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => pool.end(s)));
          }
        }),
        { numRuns: runs(40) },
      );
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it('pools give what an engine gives, error messages included, for lines routed by their first bytes and lines that must be read whole', async () => {
    // lines that open with their session, and ones where another member names it (twice, or spelled with
    // an escape), that hold no call, or that are not JSON: a pool routes the first kind without reading them
    const tricky = fc.oneof(
      record.map((r) => JSON.stringify(r)),
      fc.tuple(record, fc.constantFrom('a', 'b', 'c')).map(([r, other]) => JSON.stringify(r).replace(/}$/, `,"session":"${other}"}`)),
      fc.tuple(record, fc.constantFrom('a', 'b', 'c')).map(([r, other]) => JSON.stringify(r).replace(/}$/, `,"sess\\u0069on":"${other}"}`)),
      record.map((r) => JSON.stringify(r).replace(/}$/, ',"args2":{"session":"z"}}')),
      record.map((r) => JSON.stringify(r).replace(/"tool":"[a-z]+"/, '"tool":""')),
      record.map((r) => JSON.stringify(r).replace(/}$/, ',"step":"x"}')),
      record.map((r) => JSON.stringify(r).replace(/}$/, ',}')),
      record.map((r) => JSON.stringify({ ...r, result: 'caf\u00e9 \u001b[0m' })),
      record.map((r) => `${JSON.stringify(r).slice(0, -1)},"text":"déjà vu"}`),
    );
    const full = (v: unknown): string => (v instanceof Error ? `${v.name} ${(v as { field?: string }).field ?? ''}: ${v.message}` : JSON.stringify(v));
    const pools = POOL_SHAPES.map((s) => new LoopPool({ ...s, maxSessions: 1000 }));
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(tricky, { minLength: 1, maxLength: 60 }), async (lines) => {
          const engine = new LoopEngine({ maxSessions: 1000 });
          const want = engine.checkLines(bytes(lines)).map(full);
          engine.close();
          for (const pool of pools) {
            expect((await pool.checkLines(bytes(lines))).map(full)).toEqual(want);
            await Promise.all(['a', 'b', 'c', 'd', 'e', 'z'].map((s) => pool.end(s)));
          }
        }),
        { numRuns: runs(40) },
      );
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it('names the line that holds no call, and checks the others', async () => {
    const lines = ['{"session":"s","tool":"read","args":{"p":1},"result":"x"}', 'not json', '{"tool":"read"}', '{"session":"s","tool":"read","args":{"p":1},"result":"x"}'];
    const pool = new LoopPool({ workers: 1 });
    try {
      const out = await pool.checkLines(bytes(lines));
      expect(out[0]).toBeNull();
      expect((out[1] as Error).message).toMatch(/^lines\[1\]: the record is not JSON/);
      expect((out[2] as Error).message).toMatch(/^lines\[2\]: the record names no session/);
      expect(out[3]).toBeNull();
    } finally {
      await pool.close();
    }
    const engine = new LoopEngine();
    expect((engine.checkLines([Buffer.from('{"session":"s"}')])[0] as Error).message).toMatch(/^lines\[0\]: "tool" must be a non-empty string/);
    expect(() => engine.checkLines('x' as unknown as Uint8Array[])).toThrow(/lines must be an array/);
    engine.close();
  });

  it('a line routed by its first bytes and then broken (invalid UTF-8, cut short, over 1 MiB) gets the engine\'s error in its place', async () => {
    const ok = Buffer.from('{"session":"s","tool":"read","args":{"p":1},"result":"x"}');
    const lines = [
      ok,
      Buffer.concat([Buffer.from('{"session":"s","tool":"read","result":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      Buffer.from('{"session":"s","tool":"read","args":{"p":'),
      Buffer.from(`{"session":"s","tool":"read","result":"${'x'.repeat((1 << 20) + 10)}"}`),
      Buffer.from('{"session":"s","tool":"","result":"x"}'),
      ok,
    ];
    // the broken ones but the longest go to their worker unread
    expect(lines.map((l) => lineRouteSession(l))).toEqual(['s', 's', 's', null, 's', 's']);
    const engine = new LoopEngine();
    const want = engine.checkLines(lines).map((v) => (v instanceof Error ? v.message : JSON.stringify(v)));
    engine.close();
    expect(want[1]).toMatch(/^lines\[1\]: the record is not valid UTF-8/);
    expect(want[2]).toMatch(/^lines\[2\]: the record is not JSON/);
    expect(want[4]).toMatch(/^lines\[4\]: /);
    for (const shape of POOL_SHAPES) {
      const pool = new LoopPool(shape);
      try {
        expect((await pool.checkLines(lines)).map((v) => (v instanceof Error ? v.message : JSON.stringify(v)))).toEqual(want);
      } finally {
        await pool.close();
      }
    }
  });

  it.skipIf(traceDir === null)('gives checkBatch\'s verdicts on the real traces, in an engine and in a pool', async () => {
    const text = traceEventsText();
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const want = expected(lines);
    const engine = new LoopEngine({ maxSessions: 10_000 });
    expect(engine.checkLines(bytes(lines)).map(show)).toEqual(want);
    engine.close();
    const pool = new LoopPool({ workers: 1, inlineShard: true, maxSessions: 10_000 });
    try {
      expect((await pool.checkLines(bytes(lines))).map(show)).toEqual(want);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
