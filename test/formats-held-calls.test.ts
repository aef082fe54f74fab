/**
 * Calls of the streamed formats are held only until their outcome is known and released in call order;
 * at most MAX_HELD_CALLS wait, so a call whose result never comes holds back no more than that.
 */
import { describe, expect, it } from 'vitest';
import { HeldCalls, MAX_HELD_CALLS } from '../src/formats/held-calls.js';

const at = (line: number) => ({ tool: `t${line}`, file: 'f', line });

describe('held calls', () => {
  it('should release calls in call order once each has its outcome, pairing results by id oldest first', () => {
    const h = new HeldCalls('s');
    h.hold('a', at(1));
    h.hold('b', at(2));
    h.hold('a', at(3));
    expect([...h.release()]).toEqual([]);
    expect(h.settle('b', { result: 'B', errorInfo: 'absent' })).toBe(true);
    expect([...h.release()]).toEqual([]);
    expect(h.settle('a', { result: 'A1', error: 'boom', errorInfo: 'known' })).toBe(true);
    expect([...h.release()].map((c) => [c.event.tool, c.event.result, c.event.error, c.errorInfo])).toEqual([
      ['t1', 'A1', 'boom', 'known'],
      ['t2', 'B', undefined, 'absent'],
    ]);
    expect(h.settle('c', { result: 'C', errorInfo: 'absent' })).toBe(false);
    expect([...h.releaseAll()].map((c) => [c.event.tool, c.errorInfo, c.session])).toEqual([['t3', 'unknown', 's']]);
    expect(h.size).toBe(0);
  });

  it('should release the oldest call without its outcome once more than the limit wait, and then call its result unpaired', () => {
    const h = new HeldCalls('s');
    const released = [];
    for (let i = 0; i <= MAX_HELD_CALLS; i++) {
      h.hold(`id${i}`, at(i));
      released.push(...h.release());
    }
    expect(released.map((c) => [c.line, c.errorInfo])).toEqual([[0, 'unknown']]);
    expect(h.size).toBe(MAX_HELD_CALLS);
    expect(h.settle('id0', { result: 'late', errorInfo: 'absent' })).toBe(false);
    expect(h.settle('id1', { result: 'on time', errorInfo: 'absent' })).toBe(true);
    expect([...h.release()].map((c) => c.event.result)).toEqual(['on time']);
  });

  it('should hold a call given its outcome at once behind the calls still waiting', () => {
    const h = new HeldCalls('s');
    h.hold('a', at(1));
    h.hold(undefined, at(2), { result: 'now', errorInfo: 'unknown' });
    expect([...h.release()]).toEqual([]);
    h.settle('a', { result: 'A', errorInfo: 'absent' });
    expect([...h.release()].map((c) => c.line)).toEqual([1, 2]);
  });
});
