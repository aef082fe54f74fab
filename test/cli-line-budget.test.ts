/**
 * The budget of stderr lines a NATS worker's partition moves go through (a start, a join or a stop moves
 * up to 1,024 partitions at once, a flapping fleet again and again): a burst, then a line per refill
 * time; lines over it are counted, and the next line written says how many were left out.
 */
import { describe, expect, it } from 'vitest';
import { LineBudget } from '../src/cli/line-budget.js';

describe('LineBudget', () => {
  it('should write a burst, count what is over it, and say the count on the next line written', () => {
    let t = 0;
    const out: string[] = [];
    const budget = new LineBudget((l) => out.push(l), 3, 1_000, () => t);
    for (let i = 0; i < 10; i++) budget.say(`line ${i}`);
    expect(out).toEqual(['line 0', 'line 1', 'line 2']);
    expect(budget.leftOut).toBe(7);
    t = 999;
    expect(budget.say('early')).toBe(false);
    t = 1_000;
    expect(budget.say('later')).toBe(true);
    expect(out.at(-1)).toBe('later (8 lines before this one left out: more than 3 at once)');
    expect(budget.leftOut).toBe(0);
    t = 100_000; // refilled to the burst, no more
    for (let i = 0; i < 5; i++) budget.say(`again ${i}`);
    expect(out.slice(4)).toEqual(['again 0', 'again 1', 'again 2']);
  });
});
