/**
 * What `loopwatch serve` lets in of a call (call-door.ts) and how it counts what its sessions hold
 * (held-memory.ts): a 3.9 MB argument capped as the hooks cap one, args of many values or characters made
 * one capped string, long values that differ kept apart, and the least recently used sessions evicted past
 * the budget. The server under a small heap: serve-memory-bound.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TEXT } from '../src/hooks/hook-payload.js';
import { admitCall, doorValue } from '../src/serve/call-door.js';
import { HeldMemory, SMALL_CALL } from '../src/serve/held-memory.js';

describe('the door of loopwatch serve', () => {
  it('should cap a 3.9 MB argument as the hooks cap one, keeping long values that differ apart', () => {
    const a = admitCall({ tool: 'bash', args: { command: `echo ${'x'.repeat(3_900_000)} a` } });
    const b = admitCall({ tool: 'bash', args: { command: `echo ${'x'.repeat(3_900_000)} b` } });
    const command = (a.call.args as { command: string }).command;
    expect(command.length).toBeLessThan(MAX_TEXT + 100);
    expect(command).toMatch(/…\[loopwatch: 3900007 characters, xxh64 [0-9a-f]{16}\]$/);
    expect(command).not.toBe((b.call.args as { command: string }).command);
    expect(a.bytes).toBeLessThan(3 * MAX_TEXT);
    // capped again (a hook's codec caps before the door): kept as it is, its marker naming the original
    expect((admitCall(a.call).call.args as { command: string }).command).toBe(command);
  });

  it('should make args of many values, or of many characters in all, one capped string of their JSON', () => {
    const many = doorValue({ rows: Array.from({ length: 100_000 }, (_, i) => ({ i })) });
    expect(typeof many.value).toBe('string');
    expect((many.value as string).startsWith('{"rows":[{"i":0},{"i":1}')).toBe(true);
    expect((many.value as string).length).toBeLessThan(MAX_TEXT + 100);
    const wide = doorValue(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, String(i).repeat(MAX_TEXT)])));
    expect(typeof wide.value).toBe('string');
    // nested 30,000 deep: cut at 64 levels as the hooks cut it; and with many values too, the text of that
    const nested = JSON.parse(`${'['.repeat(30_000)}${']'.repeat(30_000)}`) as unknown;
    expect(JSON.stringify(doorValue(nested).value)).toMatch(/^\[{64}"\[loopwatch: nested too deep\]"\]{64}$/);
    const both = doorValue({ nested, zeros: new Array(5_000).fill(0) });
    expect(both.value).toMatch(/^\{"nested":\[{63}"\[loopwatch: nested too deep\]"\]{63},"zeros":\[0,0/);
    // under both limits, the structure stays (ignoreFields and tool rules still apply)
    const fits = { path: 'a.py', old: 'y'.repeat(MAX_TEXT), new: 'z'.repeat(MAX_TEXT) };
    expect(doorValue(fits).value).toEqual(fits);
  });
});

describe('the memory of loopwatch serve\'s sessions', () => {
  it('should count a session for its last calls and proposals, and evict the least recently used past the budget', () => {
    const evicted: string[] = [];
    const m = new HeldMemory(100_000, 4, 2, (s: string) => void evicted.push(s));
    for (let i = 0; i < 3; i++) m.add('small', 100);
    expect(m.total).toBe(300); // small calls: their sum, at most SMALL_CALL x both windows
    for (let i = 0; i < 60; i++) m.add('small', 100);
    expect(m.total).toBe(6 * SMALL_CALL);
    m.add('big', 30_000);
    m.add('big', 30_000);
    expect(m.total).toBe(6 * SMALL_CALL + 60_000);
    for (let i = 0; i < 4; i++) m.add('big', 10);
    expect(m.total).toBe(6 * SMALL_CALL + 40); // the large calls left the window of 4
    for (let i = 0; i < 3; i++) m.add('big', 20_000, 'proposal');
    expect(m.total).toBe(6 * SMALL_CALL + 40 + 40_000); // proposals: a window of 2 of their own
    m.add('other', 60_000);
    m.add('third', 60_000);
    expect(m.enforce()).toBe(3); // least recently used first, until the total fits
    expect(evicted).toEqual(['small', 'big', 'other']);
    expect(m.total).toBe(60_000);
    m.forget('third');
    expect(m.total).toBe(0);
    // small calls, then a large one: the small ones count SMALL_CALL each in both windows from then on
    for (let i = 0; i < 5; i++) m.add('mixed', 100);
    m.add('mixed', 5_000);
    expect(m.total).toBe(3 * SMALL_CALL + 5_000 + 2 * SMALL_CALL);
  });

  it('should count every session for its fixed cost too, so that many small sessions are evicted within the budget', () => {
    const evicted: string[] = [];
    const m = new HeldMemory(10_000, 4, 2, (s: string) => void evicted.push(s), 3_000);
    for (let i = 0; i < 5; i++) m.add(`s${i}`, 10);
    m.add('s0', 10); // s0 used again: s1 is now the least recently used
    expect(m.total).toBe(5 * 3_000 + 6 * 10);
    expect(m.enforce()).toBe(2);
    expect(evicted).toEqual(['s1', 's2']);
    expect(m.total).toBe(3 * 3_000 + 4 * 10);
    m.forget('s0');
    expect(m.total).toBe(2 * 3_000 + 2 * 10);
  });
});
