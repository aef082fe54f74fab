import { describe, expect, it } from 'vitest';
import { EXACT_REPEAT_DEFAULTS } from '../src/index.js';
import { fired, only, run, times } from './helpers/session.js';

const ls = { tool: 'bash', args: { command: 'ls' } };

describe('exact repeat detector', () => {
  it(`should detect the same call ${EXACT_REPEAT_DEFAULTS.threshold} times in a row`, () => {
    const v = run(only('exactRepeat'), times(EXACT_REPEAT_DEFAULTS.threshold, ls));
    expect(fired(v)).toEqual([EXACT_REPEAT_DEFAULTS.threshold - 1]);
    const last = v.at(-1)!;
    expect(last.kind).toBe('exact_repeat');
    expect(last.repeatCount).toBe(EXACT_REPEAT_DEFAULTS.threshold);
    expect(last.loopStart).toBe(0);
    expect(last.unit.map((c) => c.tool)).toEqual(['bash']);
    expect(last.pattern).toContain('bash {"command":"ls"}');
  });

  it('should keep firing, with a growing count, while the run goes on', () => {
    const v = run(only('exactRepeat'), times(6, ls));
    expect(fired(v)).toEqual([2, 3, 4, 5]);
    expect(v.map((x) => x?.repeatCount ?? 0)).toEqual([0, 0, 3, 4, 5, 6]);
    expect(v[5]!.confidence).toBeGreaterThan(v[2]!.confidence);
  });

  it('should count args as equal whatever their key order or form', () => {
    const events = [
      { tool: 'read', args: { path: 'a', limit: 10 } },
      { tool: 'read', args: '{"limit": 10.0, "path": "a"}' },
      { tool: 'read', args: { limit: 10, path: 'a' } },
    ];
    expect(fired(run(only('exactRepeat'), events))).toEqual([2]);
  });

  it('should not fire when another call breaks the run', () => {
    const other = { tool: 'bash', args: { command: 'pwd' } };
    expect(fired(run(only('exactRepeat'), [ls, ls, other, ls, ls, other, ls]))).toEqual([]);
  });

  it('should not fire on calls that differ only in args', () => {
    const events = ['ls', 'ls -a', 'ls -la'].map((command) => ({ tool: 'bash', args: { command } }));
    expect(fired(run(only('exactRepeat'), events))).toEqual([]);
  });

  it('should cap the run it reports at the window', () => {
    const v = run(only('exactRepeat', { threshold: 2, window: 4 }), times(8, ls));
    expect(v.at(-1)!.repeatCount).toBe(4);
    expect(v.at(-1)!.loopStart).toBe(4);
  });

  it('should not fire on polling whose output changes (default policy)', () => {
    const poll = Array.from({ length: 12 }, (_, i) => ({ tool: 'job_status', args: { id: 'j-1' }, result: `running: ${i * 8}% done` }));
    const d = only('exactRepeat', true, { policy: { progress: 'suppress' } });
    expect(fired(run(d, poll))).toEqual([]);
    expect(d.stats().tolerated).toBeGreaterThan(0);
  });

  it('should fire on polling whose output never changes', () => {
    const poll = times(4, { tool: 'job_status', args: { id: 'j-1' }, result: 'pending' });
    const v = run(only('exactRepeat', true, { policy: { progress: 'suppress' } }), poll);
    expect(fired(v)).toEqual([2, 3]);
    expect(v[2]!.progress).toBe('stalled');
  });
});
