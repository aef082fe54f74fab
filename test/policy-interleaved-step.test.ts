/**
 * policy.interleavedStep: the rungs climbed by a verdict about a repetition interleaved with new work (an
 * edit before each re-run of the same failing test), by a still-waiting answer (polling), or by results
 * still changing under `progress: 'slow'`. The default, 0.5, is what the policy did before it was an option.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { run } from './helpers/session.js';

/**
 * The same failing test run after each new edit of one file (after edits of different files the failing
 * test is progress: the evidence screen's rule, test/policy-checks-after-edits).
 */
function editAndRetest(times: number): ToolEvent[] {
  const events: ToolEvent[] = [];
  for (let i = 0; i < times; i++) {
    events.push({ tool: 'edit', args: { path: 'src/mod.py', text: `fix ${i}` }, result: 'ok' });
    events.push({ tool: 'bash', args: { command: 'pytest tests/test_core.py' }, error: 'FAILED tests/test_core.py::test_x - AssertionError' });
  }
  return events;
}

/** Index of the first break, or -1. */
const firstBreak = (d: LoopDetector, events: readonly ToolEvent[]): number => run(d, events).findIndex((v) => v?.action === 'break');

describe('policy.interleavedStep', () => {
  it('should climb half a rung by default, so interleaved repetitions break late', () => {
    const events = editAndRetest(12);
    const def = firstBreak(new LoopDetector(), events);
    expect(def).toBe(firstBreak(new LoopDetector({ policy: { interleavedStep: 0.5 } }), events));
    expect(def).toBeGreaterThan(0);
    // a full rung each: the break comes sooner; a quarter: later or never within the run
    const full = firstBreak(new LoopDetector({ policy: { interleavedStep: 1 } }), events);
    expect(full).toBeGreaterThan(0);
    expect(full).toBeLessThan(def);
    const quarter = firstBreak(new LoopDetector({ policy: { interleavedStep: 0.25 } }), events);
    expect(quarter === -1 || quarter > def).toBe(true);
  });

  it('should climb interleavedStep on a still-waiting answer', () => {
    const polls: ToolEvent[] = Array.from({ length: 10 }, () => ({ tool: 'job_status', args: { job_id: 'j-1' }, result: '{"state": "running", "completed_steps": 3}' }));
    // the top rung, where a poll of the world is asked about rather than broken (test/policy-polls-of-the-world)
    const top = (d: LoopDetector): number => run(d, polls).findIndex((v) => v?.action === 'break' || v?.action === 'ask');
    const def = top(new LoopDetector());
    const fast = top(new LoopDetector({ policy: { interleavedStep: 1 } }));
    // half a rung a verdict from the 3rd poll: warn, warn, warn, warn, ask; a rung each: warn, warn, ask
    expect(def).toBe(6);
    expect(fast).toBe(4);
  });
});
