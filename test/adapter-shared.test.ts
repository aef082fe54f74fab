/**
 * What the SDK adapters share (src/adapters/shared.ts): any tool result becomes capped text without throwing,
 * a call runs between its proposal and its record whatever the tool does, notes reach a thrown error, and
 * remembered proposals stay bounded, and a wrapped class instance keeps its prototype.
 */
import { describe, expect, it } from 'vitest';
import { MAX_OUTCOME_CHARS, MAX_REMEMBERED_CALLS, ProposalMemo, UNREADABLE_OUTCOME, errorWithNotes, outcomeText, runChecked, withOwn } from '../src/adapters/shared.js';
import { SpyGuard } from './helpers/sdk-runs.js';

describe('outcomeText', () => {
  it('should turn any value into text, never throwing', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const hostile = { toJSON: () => { throw new Error('boom'); }, toString: () => { throw new Error('boom'); } };
    expect(outcomeText('plain')).toBe('plain');
    expect(outcomeText({ b: [1, 2] })).toBe('{"b":[1,2]}');
    expect(outcomeText(new TypeError('bad'))).toBe('TypeError: bad');
    expect(outcomeText(10n)).toBe('10');
    expect(outcomeText(circular)).toBe('[object Object]');
    expect(outcomeText(hostile)).toBe('[object Object]');
    expect(outcomeText(undefined)).toBe('undefined');
    // hostile6: a revoked Proxy answers no question, Object.prototype.toString included (it threw)
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(outcomeText(proxy)).toBe(UNREADABLE_OUTCOME);
  });

  it('should cut long outcomes before anything reads them', () => {
    expect(outcomeText('x'.repeat(MAX_OUTCOME_CHARS * 3))).toHaveLength(MAX_OUTCOME_CHARS);
    expect(outcomeText({ big: 'y'.repeat(MAX_OUTCOME_CHARS) })).toHaveLength(MAX_OUTCOME_CHARS);
  });
});

describe('runChecked', () => {
  it('should record what the tool returned or threw, and give back the error instead of throwing', async () => {
    const spy = new SpyGuard();
    const ok = await runChecked(spy, 's', { id: 'a', tool: 'read', args: { p: 1 } }, async () => ({ rows: 3 }));
    expect(ok).toMatchObject({ failed: false, value: { rows: 3 }, notes: [] });
    const err = new Error('disk full');
    const bad = await runChecked(spy, 's', { id: 'b', tool: 'write', args: {} }, () => {
      throw err;
    });
    expect(bad).toMatchObject({ failed: true, error: err });
    expect(spy.decisions.filter((d) => d.phase === 'record').map((d) => d.id)).toEqual(['a', 'b']);
    spy.inner.close();
  });

  it('should give back what a tool returned or threw when it is a revoked Proxy, never throwing (hostile6)', async () => {
    const spy = new SpyGuard();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    // one returned cannot be awaited (its `then` cannot be read): it fails as it would in the SDK, and resolves
    const ok = await runChecked(spy, 's', { id: 'a', tool: 'read', args: {} }, () => proxy);
    expect(ok).toMatchObject({ failed: true });
    // before: one thrown made runChecked reject (the error's text threw), into the agent's loop
    const bad = await runChecked(spy, 's', { id: 'b', tool: 'read', args: {} }, () => {
      throw proxy;
    });
    expect(bad).toMatchObject({ failed: true });
    expect((bad as { error: unknown }).error).toBe(proxy);
    expect(withOwn(proxy, { note: 'x' })).toBe(proxy);
    const unreadable = Object.defineProperty(new Error('x'), 'message', {
      get(): never {
        throw new Error('getter boom');
      },
    });
    for (const error of [proxy, unreadable]) {
      const e = errorWithNotes(error, ['a note']) as Error;
      expect(e).toBeInstanceOf(Error);
      expect(e.message).toContain('a note');
      expect(e.cause).toBe(error);
    }
    spy.inner.close();
  });
});

describe('errorWithNotes', () => {
  it('should keep the tool error when there is nothing to add, else append the notes with the original as cause', () => {
    const err = new RangeError('out of range');
    expect(errorWithNotes(err, [])).toBe(err);
    const withNote = errorWithNotes(err, ['[loopwatch] note']) as Error;
    expect(withNote.message).toBe('out of range\n\n[loopwatch] note');
    expect(withNote.cause).toBe(err);
    expect((errorWithNotes('text error', ['n']) as Error).message).toBe('text error\n\nn');
  });
});

describe('ProposalMemo', () => {
  it('should propose a call once, find it again by id, and forget the oldest beyond its bound', () => {
    const spy = new SpyGuard();
    const memo = new ProposalMemo(spy, 's');
    const first = memo.propose({ id: 'c0', tool: 'read', args: { i: 0 } });
    expect(memo.propose({ id: 'c0', tool: 'read', args: { i: 0 } })).toBe(first);
    expect(spy.proposals()).toHaveLength(1);
    for (let i = 1; i <= MAX_REMEMBERED_CALLS; i++) memo.propose({ id: `c${i}`, tool: 'read', args: { i } });
    expect(memo.take('c0')).toBeUndefined();
    expect(memo.take(`c${MAX_REMEMBERED_CALLS}`)).toBeDefined();
    expect(memo.take(`c${MAX_REMEMBERED_CALLS}`)).toBeUndefined();
    spy.inner.close();
  });
});

describe('withOwn', () => {
  it('should copy a plain object, and wrap a class instance without losing its methods, state or private fields', () => {
    const plain = { name: 'a', run: () => 1 };
    const copy = withOwn(plain, { run: () => 2 });
    expect(copy).toEqual({ name: 'a', run: expect.any(Function) });
    expect(copy.run()).toBe(2);
    expect(plain.run()).toBe(1);
    class Counter {
      count = 0;
      #secret = 'kept';
      get secret(): string {
        return this.#secret;
      }
      bump(): number {
        return ++this.count;
      }
      run(): string {
        return `${this.bump()} ${this.#secret}`;
      }
    }
    const original = new Counter();
    const wrapped = withOwn(original, { run: () => `wrapped ${original.run()}` });
    expect(wrapped).toBeInstanceOf(Counter);
    expect(wrapped.run()).toBe('wrapped 1 kept');
    // the original's methods and getters, whoever calls them, on the original's state and private fields
    expect(wrapped.bump()).toBe(2);
    expect(wrapped.secret).toBe('kept');
    wrapped.count = 10;
    expect(original.count).toBe(10);
    expect('run' in wrapped && 'bump' in wrapped).toBe(true);
  });
});
