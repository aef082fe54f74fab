/**
 * The semantic detector's action text (src/text/action-text.ts) reads at most MAX_TEXT_NODES values of the
 * args, whatever an array's `length` says: its loops stop once the text can take nothing more, so a sparse
 * array of 2^32-1 holes costs the cap, not its length (hostile22 measured 4.3 s for 2^26 holes in the
 * reference engine's semantic detector before). The text itself is what it was.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { MAX_TEXT_NODES, actionText } from '../src/text/action-text.js';
import { MAX_WALK_ELEMENTS } from '../src/fingerprint/element-budget.js';

/** A sparse array of `length` behind a Proxy that counts the elements read from it. */
function counted(length: number, values: Record<number, unknown>): { value: unknown[]; reads: () => number } {
  let reads = 0;
  const a: unknown[] = [];
  a.length = length;
  for (const [i, v] of Object.entries(values)) a[Number(i)] = v;
  const value = new Proxy(a, {
    get(t, k, r) {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
  return { value, reads: () => reads };
}

describe('the action text of huge arrays', () => {
  it('should read at most MAX_TEXT_NODES elements of an array of 4M, and give the text it gave before', () => {
    const c = counted(4_194_304, { 1: 'first', 5: 'second' });
    const text = actionText('run', { argv: c.value }, undefined, 2048);
    expect(text).toBe('run\nfirst\nsecond');
    expect(c.reads()).toBeLessThanOrEqual(MAX_TEXT_NODES);
  });

  it('should stop an array once the text is long enough, reading no element past it', () => {
    const c = counted(4_194_304, Object.fromEntries(Array.from({ length: 100 }, (_, i) => [i, 'x'.repeat(100)])));
    const text = actionText('run', c.value, undefined, 1000);
    expect(text.length).toBeGreaterThan(1000);
    expect(c.reads()).toBeLessThan(20);
  });

  it('should keep the reference engine with semantic on within the walks\' budgets for a sparse array of 4M', () => {
    const c = counted(4_194_304, { 3: 'x' });
    const d = new LoopDetector({ engine: 'reference' });
    try {
      d.check({ tool: 't', args: { a: c.value } });
    } finally {
      d.dispose();
    }
    // the canonical walks (element budget each) and the action text (its node cap), never the length
    expect(c.reads()).toBeLessThanOrEqual(4 * MAX_WALK_ELEMENTS + MAX_TEXT_NODES);
  });

  it('should give the same text for Maps, Sets and objects as a full walk would below the cap', () => {
    const args = { m: new Map([['k', 'v']]), s: new Set(['a', 'b']), o: { x: 'y', n: 1 }, arr: ['p', , 'q'] };
    expect(actionText('t', args, undefined, 4096)).toBe('t\nk\nv\na\nb\ny\np\nq');
  });
});
