import { describe, expect, it } from 'vitest';
import { FREQUENCY_DEFAULTS } from '../src/index.js';
import { fired, only, run } from './helpers/session.js';

const call = (command: string, result?: string) => ({ tool: 'bash', args: { command }, ...(result === undefined ? {} : { result }) });

describe('frequency detector', () => {
  it(`should detect the same call ${FREQUENCY_DEFAULTS.threshold} times within ${FREQUENCY_DEFAULTS.window} calls, not in a row`, () => {
    const events = [call('cat a'), call('ls'), call('cat a'), call('pwd'), call('git status'), call('cat a')];
    const v = run(only('frequency'), events);
    expect(fired(v)).toEqual([5]);
    expect(v[5]!.kind).toBe('frequency');
    expect(v[5]!.repeatCount).toBe(3);
    expect(v[5]!.loopStart).toBe(0);
  });

  it('should forget occurrences that left the window', () => {
    const filler = Array.from({ length: FREQUENCY_DEFAULTS.window }, (_, i) => call(`echo ${i}`));
    const events = [call('cat a'), call('cat a'), ...filler, call('cat a')];
    expect(fired(run(only('frequency'), events))).toEqual([]);
  });

  it('should not fire on distinct calls', () => {
    const events = Array.from({ length: 40 }, (_, i) => call(`cat file${i}.py`));
    expect(fired(run(only('frequency'), events))).toEqual([]);
  });

  it('should not fire on re-running the tests after each different edit (default policy)', () => {
    const events = [];
    for (let i = 0; i < 6; i++) {
      events.push({ tool: 'edit', args: { path: 'src/app.py', old: `v${i}`, new: `v${i + 1}` }, result: `edited src/app.py (change ${i})` });
      events.push(call('pytest -q', `${5 - i} failed, ${10 + i} passed`));
    }
    expect(fired(run(only('frequency', true, { policy: { progress: 'suppress' } }), events))).toEqual([]);
  });

  it('should still fire when the same call keeps coming back with the same result between the same other calls', () => {
    const events = [call('cat a', 'x'), call('cat b', 'y'), call('cat a', 'x'), call('cat b', 'y'), call('cat a', 'x')];
    const v = run(only('frequency', true, { policy: { progress: 'suppress' } }), events);
    expect(fired(v)).toContain(4);
    expect(v[4]!.progress).toBe('stalled');
  });

  it('should expose the ToolLoopDetector is_stuck view', () => {
    const d = only('frequency');
    for (const e of [call('a'), call('b'), call('a'), call('a'), call('c')]) d.check(e);
    expect(d.isStuck()).toBe(true);
    d.reset();
    expect(d.isStuck()).toBe(false);
  });
});
