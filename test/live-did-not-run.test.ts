/**
 * LoopDetector.didNotRun: a proposed call that did not run for a reason not the loop's (a permission rule,
 * Claude Code's PermissionDenied) is never recorded as run and no longer waits beside later proposals, so
 * the calls after it are decided as if it had never been proposed; one never proposed is ignored.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';

const failing = (id: string) => ({ id, tool: 'bash', args: { command: 'npm test' } });

/** The actions of `n` proposals of the same failing call, each run and recorded. */
function runFailing(d: LoopDetector, n: number): string[] {
  const actions: string[] = [];
  for (let i = 0; i < n; i++) {
    const before = d.propose(failing(`run-${i}`));
    actions.push(before.action);
    if (before.action === 'deny' || before.action === 'stop') continue;
    d.record({ ...failing(`run-${i}`), error: 'npm ERR! Test failed. See above for more details.' });
  }
  return actions;
}

describe('LoopDetector.didNotRun', () => {
  it('should decide the calls after a denied proposal as if it had never been proposed', () => {
    const denied = new LoopDetector({ sessionId: 'denied' });
    denied.propose(failing('denied-0'));
    denied.didNotRun(failing('denied-0'));
    const fresh = new LoopDetector({ sessionId: 'fresh' });
    const got = runFailing(denied, 7);
    expect(got).toEqual(runFailing(fresh, 7));
    // the failures are seen: the repeats are warned, then blocked
    expect(got).toContain('warn');
    expect(got.some((a) => a === 'deny' || a === 'stop')).toBe(true);
    denied.dispose();
    fresh.dispose();
  });

  it('should keep a proposal that waits for its outcome beside the later ones when nothing says it did not run', () => {
    // the contrast: without didNotRun the first proposal is taken as in flight beside the runs after it
    const waiting = new LoopDetector({ sessionId: 'waiting' });
    waiting.propose(failing('waiting-0'));
    const fresh = new LoopDetector({ sessionId: 'fresh2' });
    expect(runFailing(waiting, 7)).not.toEqual(runFailing(fresh, 7));
    waiting.dispose();
    fresh.dispose();
  });

  it('should ignore a call that was never proposed, and one said twice', () => {
    const d = new LoopDetector({ sessionId: 'ignored' });
    d.didNotRun(failing('never-proposed'));
    d.propose(failing('twice'));
    d.didNotRun(failing('twice'));
    d.didNotRun(failing('twice'));
    const fresh = new LoopDetector({ sessionId: 'fresh3' });
    expect(runFailing(d, 5)).toEqual(runFailing(fresh, 5));
    d.dispose();
    fresh.dispose();
  });
});
