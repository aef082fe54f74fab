/**
 * The two-phase API on many sessions (LoopEngine.propose/record/decideBatch) and as hosts run it
 * (LiveGuard): the same decisions as one LoopDetector per session; a guard that never throws, fails open
 * and says so once, and remembers why a run stopped.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LiveGuard, LoopDetector, LoopEngine, LoopStoppedError, isLoopwatchError } from '../src/index.js';
import type { LiveDecision, SessionLiveCall } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';

/** Every scenario's calls, interleaved round-robin over sessions, in two-phase order (denied calls not recorded). */
function interleaved(): { calls: SessionLiveCall[]; want: string[] } {
  const scenarios = [...LEGITIMATE, ...STUCK];
  const detectors = scenarios.map((_, k) => new LoopDetector({}, `s${k}`));
  const calls: SessionLiveCall[] = [];
  const want: string[] = [];
  const longest = Math.max(...scenarios.map((s) => s.calls.length));
  for (let i = 0; i < longest; i++) {
    scenarios.forEach((s, k) => {
      const c = s.calls[i];
      if (c === undefined) return;
      const call = { session: `s${k}`, id: `c${i}`, tool: c.tool, args: c.args };
      const d = detectors[k] as LoopDetector;
      const p = d.propose(call);
      calls.push({ ...call, phase: 'propose' });
      want.push(JSON.stringify(p));
      if (p.action === 'deny' || p.action === 'stop') return;
      const rec = { ...call, ...(c.error === undefined ? { result: c.result } : { error: c.error }) };
      calls.push({ ...rec, phase: 'record' });
      want.push(JSON.stringify(d.record(rec)));
    });
  }
  for (const d of detectors) d.dispose();
  return { calls, want };
}

describe('LoopEngine two-phase calls', () => {
  it('should decide as one LoopDetector per session, call by call and in batches', () => {
    const { calls, want } = interleaved();
    const one = new LoopEngine();
    expect(calls.map((c) => JSON.stringify(c.phase === 'propose' ? one.propose(c.session, c) : one.record(c.session, c)))).toEqual(want);
    for (const size of [1, 7, 1000]) {
      const e = new LoopEngine();
      const got: string[] = [];
      for (let i = 0; i < calls.length; i += size) got.push(...e.decideBatch(calls.slice(i, i + size)).map((d) => JSON.stringify(d)));
      expect(got).toEqual(want);
      e.close();
    }
    one.close();
  });

  it('should hold an error in the place of a bad call of a batch and go on with the others', () => {
    const e = new LoopEngine();
    const out = e.decideBatch([
      { session: 'a', phase: 'propose', tool: 'read' },
      { session: 'a', phase: 'later', tool: 'read' } as unknown as SessionLiveCall,
      { session: 7, phase: 'record', tool: 'read' } as unknown as SessionLiveCall,
      { session: 'a', phase: 'record', tool: '' },
      { session: 'a', phase: 'record', tool: 'read', result: 'ok' },
    ]);
    expect((out[0] as LiveDecision).action).toBe('allow');
    expect(out[1]).toBeInstanceOf(InvalidEventError);
    expect((out[1] as Error).message).toMatch(/calls\[1\]\.phase must be "propose" or "record"/);
    expect((out[2] as Error).message).toMatch(/calls\[2\]\.session must be a non-empty string/);
    expect((out[3] as Error).message).toMatch(/^calls\[3\]: event\.tool must be a non-empty string/);
    expect((out[4] as LiveDecision).session).toBe('a');
    expect(e.stats().checks).toBe(1);
    e.close();
  });

  it('should start no session for a call whose id is refused, nor for streamed text that is not a string', () => {
    const e = new LoopEngine({ maxSessions: 1 });
    try {
      e.check('old', { tool: 'read', args: { path: 'a' } });
      const bad = { tool: 'read', args: { path: 'b' }, id: '' };
      expect(() => e.propose('p', bad)).toThrow(/call\.id must be a non-empty string/);
      expect(() => e.record('r', { ...bad, text: 'a thought.' })).toThrow(/call\.id must be a non-empty string/);
      expect(() => e.decline('d', bad)).toThrow(InvalidEventError);
      expect(() => e.didNotRun('n', bad)).toThrow(InvalidEventError);
      const out = e.decideBatch([{ session: 'b', phase: 'record', ...bad }]);
      expect((out[0] as Error).message).toMatch(/^calls\[0\]: call\.id must be a non-empty string/);
      expect(() => e.checkText('t', 42 as unknown as string)).toThrow(/text must be a string, received/);
      // none started, and so the one live session (of a cap of one) was not evicted for them
      expect(e.sessionIds()).toEqual(['old']);
      expect(e.stats().evicted).toBe(0);
    } finally {
      e.close();
    }
  });
});

describe('LiveGuard', () => {
  // a per-tool identity function that throws: an error inside the check, as a bug would be
  const boom = { bash: { identity: (): never => { throw new Error('identity bug'); } } };

  it('should fail open on an internal error: allow the call, say so once, and never throw', () => {
    const errors: Error[] = [];
    const g = new LiveGuard({ tools: boom, onInternalError: (e) => void errors.push(e) });
    for (let i = 0; i < 5; i++) {
      expect(g.propose('s', { tool: 'bash', args: { command: 'ls' } }).action).toBe('allow');
      const r = g.record('s', { tool: 'bash', args: { command: 'ls' }, result: 'a b c' });
      expect(r).toMatchObject({ action: 'allow', failedOpen: true, verdict: null, session: 's', phase: 'record' });
    }
    // a call loopwatch cannot read is let through the same way
    expect(g.propose('s', { tool: '' }).failedOpen).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/identity bug/);
    g.close();
  });

  it('should deny instead when set to fail closed, and survive a reporter that throws', () => {
    const g = new LiveGuard({ failClosed: true, onInternalError: () => { throw new Error('reporter bug'); } });
    const d = g.propose('s', { tool: '' });
    expect(d.action).toBe('deny');
    expect(d.message).toMatch(/fail closed/);
    // records are never denied: the call already ran
    expect(g.record('s', { tool: '' }).action).toBe('allow');
    g.close();
  });

  it('should remember the stop decision of a run, so a stop condition can ask for it', () => {
    const g = new LiveGuard();
    const call = { tool: 'bash', args: { command: 'make' } };
    let last: LiveDecision | undefined;
    for (let i = 0; i < 8 && g.stopped('run') === undefined; i++) {
      last = g.propose('run', call);
      if (last.action === 'allow' || last.action === 'warn') g.record('run', { ...call, error: 'make: *** Error 2' });
    }
    const stop = g.stopped('run');
    expect(stop?.action).toBe('stop');
    expect(stop).toBe(last);
    const err = new LoopStoppedError(stop as LiveDecision);
    expect(isLoopwatchError(err) && err.code).toBe('ERR_LOOPWATCH_LOOP_STOPPED');
    expect(err.message).toBe(stop?.message);
    g.end('run');
    expect(g.stopped('run')).toBeUndefined();
    g.close();
  });
});
