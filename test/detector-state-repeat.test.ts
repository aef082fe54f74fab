import { describe, expect, it } from 'vitest';
import { STATE_REPEAT_DEFAULTS } from '../src/index.js';
import { fired, only, run } from './helpers/session.js';

describe('state repeat detector', () => {
  it(`should detect the same action reaching the same outcome ${STATE_REPEAT_DEFAULTS.threshold} times, anywhere in the window`, () => {
    const same = { tool: 'git', args: { cmd: 'status' }, result: 'nothing to commit' };
    const events = [same, ...Array.from({ length: 30 }, (_, i) => ({ tool: 'edit', args: { i }, result: `ok ${i}` })), same, { tool: 'x', args: {}, result: 'y' }, same];
    const v = run(only('stateRepeat'), events);
    expect(fired(v)).toEqual([events.length - 1]);
    expect(v.at(-1)!.kind).toBe('state_repeat');
    expect(v.at(-1)!.loopStart).toBe(0);
    expect(v.at(-1)!.progress).toBe('stalled');
  });

  it('should not count the same action with a new outcome, or calls without an outcome', () => {
    const events = [0, 1, 2, 3].map((i) => ({ tool: 'git', args: { cmd: 'log' }, result: `commit ${i}` }));
    expect(fired(run(only('stateRepeat'), events))).toEqual([]);
    expect(fired(run(only('stateRepeat'), [0, 1, 2, 3].map(() => ({ tool: 'git', args: { cmd: 'log' } }))))).toEqual([]);
  });

  it('should use the description as the action when given (corteX style)', () => {
    const events = [1, 2, 3].map((i) => ({ tool: 'code_write', args: { attempt: i }, description: 'Writing user model', result: 'class User(Model): ...' }));
    expect(fired(run(only('stateRepeat'), events))).toEqual([2]);
  });

  it('should forget states that left the window', () => {
    const same = { tool: 'a', args: {}, result: 'r' };
    const filler = Array.from({ length: 10 }, (_, i) => ({ tool: 'b', args: { i }, result: String(i) }));
    expect(fired(run(only('stateRepeat', { threshold: 3, window: 5 }), [same, ...filler, same, ...filler, same]))).toEqual([]);
  });
});
