/**
 * newuser30: the decision that stopped a session's run is kept in its snapshot (format 14), so after a
 * restart `guard.stopped(session)` still gives it and an SDK adapter's new run on that session fails with
 * SessionStoppedError at its start. Before, a restored session's stop was undefined until the looping call
 * was stopped again (newuser28). A fresh start forgets it, in the snapshot too; older snapshots restore
 * with none (test/snapshot-old-versions.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { stopOnLoop } from '../src/adapters/ai-sdk.js';
import { LiveGuard, SNAPSHOT_VERSION, SessionStoppedError } from '../src/index.js';
import type { LiveDecision } from '../src/index.js';

const call = { tool: 'bash', args: { command: 'make' } };

/** A guard whose session `s` was stopped for running the same failing build again and again. */
function stoppedGuard(s: string): { guard: LiveGuard; stop: LiveDecision } {
  const guard = new LiveGuard();
  for (let i = 0; i < 12 && guard.stopped(s) === undefined; i++) {
    const d = guard.propose(s, call);
    if (d.action === 'allow' || d.action === 'warn') guard.record(s, { ...call, error: 'make: *** Error 2' });
  }
  const stop = guard.stopped(s);
  expect(stop?.action).toBe('stop');
  return { guard, stop: stop as LiveDecision };
}

describe('a stopped session restored from its snapshot', () => {
  it('should still give its stop decision, equal to the one the run got', () => {
    const { guard, stop } = stoppedGuard('run-1');
    const bytes = guard.engine.snapshot('run-1') as Uint8Array;
    expect(Buffer.from(bytes).readUInt16LE(4)).toBe(SNAPSHOT_VERSION);
    guard.close();
    const after = new LiveGuard();
    expect(after.stopped('run-1')).toBeUndefined();
    after.engine.restore('run-1', bytes);
    expect(after.stopped('run-1')).toEqual(stop);
    expect(Object.isFrozen(after.stopped('run-1'))).toBe(true);
    // and on from there: snapshotted again, the stop is still there
    const third = new LiveGuard();
    third.engine.restore('run-1', after.engine.snapshot('run-1') as Uint8Array);
    expect(third.stopped('run-1')).toEqual(stop);
    after.close();
    third.close();
  });

  it('should make an AI SDK run started on it fail at its first step with SessionStoppedError', async () => {
    const { guard } = stoppedGuard('run-2');
    const bytes = guard.engine.snapshot('run-2') as Uint8Array;
    guard.close();
    const after = new LiveGuard();
    after.engine.restore('run-2', bytes);
    const { prepareStep } = stopOnLoop(after, 'run-2', { stopWhen: [] });
    await expect(prepareStep({ stepNumber: 0 })).rejects.toThrow(SessionStoppedError);
    after.close();
  });

  it('should name the session it was restored as', () => {
    const { guard, stop } = stoppedGuard('run-3');
    const bytes = guard.engine.snapshot('run-3') as Uint8Array;
    guard.close();
    const after = new LiveGuard();
    after.engine.restore('run-3b', bytes);
    expect(after.stopped('run-3b')).toEqual({ ...stop, session: 'run-3b' });
    after.close();
  });

  it('should forget it after a fresh start, in the snapshot too', () => {
    const { guard } = stoppedGuard('run-4');
    const after = new LiveGuard();
    after.engine.restore('run-4', guard.engine.snapshot('run-4') as Uint8Array);
    after.freshStart('run-4');
    expect(after.stopped('run-4')).toBeUndefined();
    const third = new LiveGuard();
    third.engine.restore('run-4', after.engine.snapshot('run-4') as Uint8Array);
    expect(third.stopped('run-4')).toBeUndefined();
    // a session never stopped restores with none
    guard.propose('quiet', call);
    third.engine.restore('quiet', guard.engine.snapshot('quiet') as Uint8Array);
    expect(third.stopped('quiet')).toBeUndefined();
    for (const g of [guard, after, third]) g.close();
  });
});
