/**
 * LoopDetector.freshStart, the way back after a stop every door shares (hooks, service, SDK guards): the
 * ladder back on its first rung, blocked calls forgotten, the first runs of a call of before judged as
 * new, the history kept (a loop that comes back is found again); a new edit after a block
 * (ToolRule.changesWorkspace) gives the same; a snapshot keeps where the fresh start was.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard, type LiveAction, LoopDetector, LoopEngine } from '../src/index.js';

const build = { tool: 'bash', args: { command: 'make' } };
const failed = { ...build, error: 'make: *** [all] Error 1' };

let n = 0;
/** Proposes `call` and, when allowed, records it with its outcome; returns the proposal's action. */
function step(d: LoopDetector, call: { tool: string; args: unknown }, outcome: { result?: unknown; error?: unknown } = { result: 'ok' }): LiveAction {
  const id = `c${n++}`;
  const p = d.propose({ id, ...call });
  if (p.action !== 'deny' && p.action !== 'stop') d.record({ id, ...call, ...outcome });
  return p.action;
}

function stopped(d: LoopDetector): void {
  const actions = Array.from({ length: 5 }, () => step(d, build, failed));
  expect(actions).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
}

describe('LoopDetector.freshStart', () => {
  it('should let a stopped call run again, then find the loop again from the first rung', () => {
    const d = new LoopDetector({}, 's');
    stopped(d);
    expect(step(d, build, failed)).toBe('stop');
    d.freshStart();
    const again = Array.from({ length: 6 }, () => step(d, build, failed));
    expect(again.slice(0, 2)).toEqual(['allow', 'allow']);
    const first = again.findIndex((a) => a !== 'allow');
    expect(again[first]).toBe('warn');
    // a denial before the run is stopped again: the session's earlier blocks were forgotten
    expect(again).toContain('deny');
    if (again.includes('stop')) expect(again.indexOf('deny')).toBeLessThan(again.indexOf('stop'));
    d.dispose();
  });

  it('should keep where the fresh start was in a snapshot', () => {
    const d = new LoopDetector({}, 's');
    stopped(d);
    d.freshStart();
    const copy = new LoopDetector({}, 's');
    copy.restore(d.snapshot());
    expect(step(copy, build, failed)).toBe('allow');
    d.dispose();
    copy.dispose();
  });

  it('should give a fresh start on a new edit after a block, and only then', () => {
    const edit = (i: number): { tool: string; args: unknown } => ({ tool: 'edit', args: { path: `src/m${i}.c`, old: 'a', new: 'b' } });
    const d = new LoopDetector({ tools: { edit: { changesWorkspace: true } } }, 's');
    stopped(d);
    expect(step(d, edit(1))).toBe('allow');
    expect(step(d, build, failed)).toBe('allow');
    const plain = new LoopDetector({}, 's');
    stopped(plain);
    expect(step(plain, edit(1))).toBe('allow');
    expect(step(plain, build, failed)).toBe('stop');
    // a failed edit is no change
    const failing = new LoopDetector({ tools: { edit: { changesWorkspace: true } } }, 's');
    stopped(failing);
    expect(step(failing, edit(2), { error: 'old_string not found' })).toBe('allow');
    expect(step(failing, build, failed)).toBe('stop');
    for (const x of [d, plain, failing]) x.dispose();
  });
});

describe('LoopEngine.freshStart and LiveGuard.freshStart', () => {
  it('should forget the stop of a live session, and start none', () => {
    const guard = new LiveGuard();
    for (let i = 0; i < 5; i++) {
      const p = guard.propose('run', { id: `g${i}`, ...build });
      if (p.action !== 'deny' && p.action !== 'stop') guard.record('run', { id: `g${i}`, ...failed });
    }
    expect(guard.stopped('run')?.action).toBe('stop');
    guard.freshStart('run');
    expect(guard.stopped('run')).toBeUndefined();
    expect(guard.propose('run', { id: 'g9', ...build }).action).toBe('allow');
    guard.close();
    const engine = new LoopEngine();
    expect(engine.freshStart('nobody')).toBe(false);
    expect(engine.size).toBe(0);
    engine.close();
  });
});
