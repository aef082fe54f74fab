/**
 * newuser31: one rule for a session id in every method that takes one (src/engine/session-id.ts). s28 made
 * `check`, `propose` and `record` refuse `''`, but LoopEngine's `end`, `snapshot`, `freshStart`, `stopped`
 * (and `has`, `waiting`, `endTurn`, `evict`, `sessionStats`) found nothing and said so (false, null,
 * undefined): a host whose run id was an unset variable ended, saved or asked about a session that could
 * never exist, in silence. Now each refuses it with the same InvalidEventError; LoopPool's `end`, `snapshot`,
 * `freshStart`, `restore` and `checkText` (which took any string) reject it; LiveGuard says so once and
 * never throws.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LiveGuard, LoopEngine, LoopPool } from '../src/index.js';
import { SESSION_ID_RULE } from '../src/engine/session-id.js';
import { thrown } from './helpers/thrown.js';

const call = { tool: 'bash', args: { command: 'ls' } };

/** Every LoopEngine method that only looks a session up, called with `id`. */
function lookups(engine: LoopEngine, id: unknown): [string, () => unknown][] {
  const s = id as string;
  return [
    ['end', () => engine.end(s)],
    ['snapshot', () => engine.snapshot(s)],
    ['freshStart', () => engine.freshStart(s)],
    ['stopped', () => engine.stopped(s)],
    ['has', () => engine.has(s)],
    ['waiting', () => engine.waiting(s)],
    ['endTurn', () => engine.endTurn(s)],
    ['evict', () => engine.evict(s)],
    ['sessionStats', () => engine.sessionStats(s)],
  ];
}

describe('a session id that is not a non-empty string, given to a method that looks a session up', () => {
  it("should be refused by every LoopEngine method as check refuses it, for '' and for a non-string", () => {
    const engine = new LoopEngine();
    engine.check('a', call);
    for (const [id, received] of [
      ['', '"" (string)'],
      [42, '42 (number)'],
      [undefined, 'undefined'],
    ] as const) {
      const expected = `sessionId ${SESSION_ID_RULE}, received ${received}`;
      expect((thrown(() => engine.check(id as unknown as string, call)) as Error).message).toBe(expected);
      for (const [name, f] of lookups(engine, id)) {
        const e = thrown(f);
        expect(e, name).toBeInstanceOf(InvalidEventError);
        expect((e as Error).message, name).toBe(expected);
      }
    }
    // a good id that is not live is still "not live", not an error
    expect(engine.end('b')).toBe(false);
    expect(engine.snapshot('b')).toBeNull();
    expect(engine.stopped('b')).toBeUndefined();
    expect(engine.sessionIds()).toEqual(['a']);
    engine.close();
  });

  it("should be rejected by LoopPool's end, snapshot, freshStart, restore and checkText", async () => {
    const pool = new LoopPool({ workers: 0, inlineShard: true });
    try {
      await pool.check('a', call);
      const bytes = (await pool.snapshot('a')) as Uint8Array;
      for (const f of [() => pool.end(''), () => pool.snapshot(''), () => pool.freshStart(''), () => pool.restore('', bytes), () => pool.checkText('', 'a thought.')]) {
        const e = await f().then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e).toBeInstanceOf(InvalidEventError);
        expect((e as Error).message).toBe(`sessionId ${SESSION_ID_RULE}, received "" (string)`);
      }
      expect((await pool.stats()).live).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('should make LiveGuard say so once and never throw', () => {
    const errors: Error[] = [];
    const g = new LiveGuard({ onInternalError: (e) => void errors.push(e) });
    expect(g.stopped('')).toBeUndefined();
    g.freshStart('');
    g.end('');
    expect(errors.map((e) => e.message)).toEqual([`sessionId ${SESSION_ID_RULE}, received "" (string)`]);
    expect(errors[0]).toBeInstanceOf(InvalidEventError);
    g.close();
  });
});
