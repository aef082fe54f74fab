/**
 * newuser31: a session's stop is kept in one place. s28 kept it twice: in LiveGuard's own map (MAX_STOPPED
 * sessions) and in the engine's session (newuser30, kept in its snapshot). The two disagreed: the engine
 * forgot the stop when it evicted the session (and a call of that id started it again unstopped, so its next
 * snapshot had none), while the guard's map outlived the snapshot's word (a session restored from a snapshot
 * without a stop was still stopped for the guard). Now the engine keeps the stop of a session it drops
 * (evicted or expired) and gives it back when the id starts again (src/engine/dropped-stops.ts), bounded; the
 * guard asks the engine.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopEngine, MAX_STOPPED } from '../src/index.js';
import type { LiveDecision } from '../src/index.js';
import { DroppedStops } from '../src/engine/dropped-stops.js';

const call = { tool: 'bash', args: { command: 'make' } };

/** Stops session `s` of `guard` for running the same failing build again and again; its stop decision. */
function stop(guard: LiveGuard, s: string): LiveDecision {
  for (let i = 0; i < 12 && guard.stopped(s) === undefined; i++) {
    const d = guard.propose(s, call);
    if (d.action === 'allow' || d.action === 'warn') guard.record(s, { ...call, error: 'make: *** Error 2' });
  }
  const d = guard.stopped(s);
  expect(d?.action).toBe('stop');
  return d as LiveDecision;
}

describe("a stopped session the engine drops", () => {
  it('should keep its stop after an eviction, in the engine, and have it again (and in its snapshot) when its id starts again', () => {
    const guard = new LiveGuard({ maxSessions: 1 });
    const d = stop(guard, 'a');
    guard.propose('b', { tool: 'read', args: { path: 'x' } }); // evicts a
    expect(guard.engine.has('a')).toBe(false);
    expect(guard.engine.stopped('a')).toEqual(d);
    expect(guard.stopped('a')).toEqual(d);
    // a's id starts again (b is evicted for it): stopped, and its snapshot says so
    guard.propose('a', { tool: 'read', args: { path: 'y' } });
    expect(guard.engine.has('a')).toBe(true);
    expect(guard.stopped('a')).toEqual(d);
    const after = new LiveGuard();
    after.engine.restore('a', guard.engine.snapshot('a') as Uint8Array);
    expect(after.stopped('a')).toEqual(d);
    guard.close();
    after.close();
  });

  it('should keep its stop after an idle expiry', () => {
    let now = 0;
    const engine = new LoopEngine({ idleTtlMs: 1000, clock: () => now });
    const guard = new LiveGuard(engine);
    const d = stop(guard, 'a');
    now = 5000;
    expect(engine.sweep()).toBe(1);
    expect(guard.stopped('a')).toEqual(d);
    guard.close();
  });

  it('should forget it on a fresh start, an end, or a restore of a snapshot that has none', () => {
    const guard = new LiveGuard({ maxSessions: 1 });
    const quiet = new LiveGuard();
    quiet.propose('c', { tool: 'read', args: { path: 'x' } });
    const none = quiet.engine.snapshot('c') as Uint8Array;
    for (const forget of [(s: string) => guard.freshStart(s), (s: string) => guard.end(s), (s: string) => guard.engine.restore(s, none)]) {
      stop(guard, 'a');
      guard.propose('b', { tool: 'read', args: { path: 'x' } }); // evicts a
      expect(guard.stopped('a')).toBeDefined();
      forget('a');
      expect(guard.stopped('a')).toBeUndefined();
      guard.end('a');
    }
    guard.close();
    quiet.close();
  });

  it('should be bounded: past MAX_STOPPED dropped stops, the one dropped first is forgotten', () => {
    const guard = new LiveGuard({ maxSessions: 1 });
    const d = stop(guard, 'a');
    const stops = new DroppedStops();
    for (let i = 0; i <= MAX_STOPPED; i++) stops.keep(`s${i}`, d);
    expect(stops.size).toBe(MAX_STOPPED);
    expect(stops.get('s0')).toBeUndefined();
    expect(stops.get('s1')).toBe(d);
    // kept again, a stop is the newest: the oldest other one goes first
    stops.keep('s1', d);
    stops.keep('t', d);
    expect(stops.get('s1')).toBe(d);
    expect(stops.get('s2')).toBeUndefined();
    guard.close();
  });
});

describe('a stopped session restored from a snapshot without its stop', () => {
  it('should not be stopped for the guard either (one memory of the stop: the session\'s)', () => {
    const guard = new LiveGuard();
    stop(guard, 'a');
    // a person gave the run a fresh start elsewhere (another process), and its snapshot came back
    const elsewhere = new LiveGuard();
    elsewhere.engine.restore('a', guard.engine.snapshot('a') as Uint8Array);
    elsewhere.freshStart('a');
    guard.engine.restore('a', elsewhere.engine.snapshot('a') as Uint8Array);
    expect(guard.engine.stopped('a')).toBeUndefined();
    expect(guard.stopped('a')).toBeUndefined();
    guard.close();
    elsewhere.close();
  });
});
