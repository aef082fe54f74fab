import { describe, expect, it } from 'vitest';
import { CYCLE_DEFAULTS } from '../src/index.js';
import { fired, only, run } from './helpers/session.js';

const A = { tool: 'read_file', args: { path: 'a.py' } };
const B = { tool: 'edit_file', args: { path: 'a.py', old: 'x', new: 'y' } };
const C = { tool: 'bash', args: { command: 'pytest' } };

describe('cycle detector', () => {
  it('should detect A-B-A-B', () => {
    const v = run(only('cycle'), [A, B, A, B]);
    expect(fired(v)).toEqual([3]);
    expect(v[3]!.kind).toBe('cycle');
    expect(v[3]!.repeatCount).toBe(CYCLE_DEFAULTS.repetitions);
    expect(v[3]!.unit.map((c) => c.tool)).toEqual(['read_file', 'edit_file']);
    expect(v[3]!.pattern).toContain('→');
    expect(v[3]!.pattern).toContain('period 2');
  });

  it('should detect A-B-C-A-B-C and report where the loop began', () => {
    const X = { tool: 'ls', args: {} };
    const v = run(only('cycle'), [X, A, B, C, A, B, C]);
    expect(fired(v)).toEqual([6]);
    expect(v[6]!.loopStart).toBe(1);
    expect(v[6]!.unit.map((c) => c.index)).toEqual([4, 5, 6]);
  });

  it('should count further repetitions and extend the start back over partial units', () => {
    const v = run(only('cycle'), [A, B, A, B, A, B]);
    expect(v[5]!.repeatCount).toBe(3);
    expect(v[5]!.loopStart).toBe(0);
    expect(v[5]!.confidence).toBeGreaterThan(v[3]!.confidence);
  });

  it('should leave A-A-A-A to the exact repeat detector (a unit must be primitive)', () => {
    expect(fired(run(only('cycle'), [A, A, A, A, A, A]))).toEqual([]);
  });

  it('should not fire on A-B-A-C or on a unit repeated fewer times than required', () => {
    expect(fired(run(only('cycle'), [A, B, A, C, A, B]))).toEqual([]);
    expect(fired(run(only('cycle', { repetitions: 3 }), [A, B, A, B, C, A, B, A, B]))).toEqual([]);
  });

  it('should ignore periods outside [minPeriod, maxPeriod]', () => {
    const D = { tool: 'd', args: {} };
    expect(fired(run(only('cycle', { minPeriod: 2, maxPeriod: 3 }), [A, B, C, D, A, B, C, D]))).toEqual([]);
    expect(fired(run(only('cycle', { minPeriod: 4, maxPeriod: 4, window: 8 }), [A, B, C, D, A, B, C, D]))).toEqual([7]);
  });

  it('should compare tool names only with key "tool" (oscillation of action types)', () => {
    const read = (p: string) => ({ tool: 'read', args: { p } });
    const write = (p: string) => ({ tool: 'write', args: { p } });
    const events = [read('1'), write('2'), read('3'), write('4')];
    expect(fired(run(only('cycle'), events))).toEqual([]);
    expect(fired(run(only('cycle', { key: 'tool' }), events))).toEqual([3]);
  });

  it('should not fire on read-edit cycles whose results keep changing (default policy)', () => {
    const events = [];
    for (let i = 0; i < 4; i++) {
      events.push({ ...A, result: `content version ${i}` });
      events.push({ ...B, result: `edited, now version ${i + 1}` });
    }
    expect(fired(run(only('cycle', true, { policy: { progress: 'suppress' } }), events))).toEqual([]);
  });

  it('should fire on a cycle whose results repeat, and call it stalled', () => {
    const events = [];
    for (let i = 0; i < 2; i++) events.push({ ...A, result: 'same' }, { ...B, error: 'old_str not found' });
    const v = run(only('cycle', true, { policy: { progress: 'suppress' } }), events);
    expect(fired(v)).toEqual([3]);
    expect(v[3]!.progress).toBe('stalled');
  });
});
