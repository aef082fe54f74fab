/**
 * A call that reached a break when it last ran meets that break when it is proposed again (issue 27,
 * two-phase): a reproduction script printing the same failure after each edit of one file is a state
 * repeat, found only with the script's output, so its proposals carry no signal; its record reaches break,
 * which cannot stop a call that already ran, and before this rule the next proposal of the same script ran.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall, LiveDecision, LoopDetectorOptions } from '../src/index.js';

const SAME = 'Traceback (most recent call last):\n  File "/workspace/repro.py", line 4\nAssertionError: marker missing from class Child';

/** The reproduction script: a new failure at each of its first three runs, then the same one. */
const run = (k: number): LiveCall => ({ tool: 'python3', args: { command: 'python3 /workspace/repro.py' }, result: k < 3 ? `AssertionError: case ${k} failed` : SAME });

/** An edit of the one file the agent keeps changing. */
const edit = (k: number): LiveCall => ({
  tool: 'str_replace_editor',
  args: { command: 'str_replace', path: '/workspace/src/marks.py', old_str: `v${k}`, new_str: `v${k + 1}` },
  result: 'The file /workspace/src/marks.py has been edited.',
});

/** Proposes then records `call` (id `c<i>`), returning both decisions; a blocked call is not recorded. */
function step(d: LoopDetector, call: LiveCall, i: number): { proposal: LiveDecision; record: LiveDecision | null } {
  const proposal = d.propose({ ...call, id: `c${i}` });
  if (proposal.action === 'deny' || proposal.action === 'stop') return { proposal, record: null };
  return { proposal, record: d.record({ ...call, id: `c${i}` }) };
}

/** Edit, run, edit, run... until the script's record reaches break; returns the number of calls made. */
function untilRecordBreaks(d: LoopDetector): number {
  let i = 0;
  for (let k = 0; k < 20; k++) {
    step(d, edit(k), i++);
    const r = step(d, run(k), i++);
    expect(r.proposal.action, `proposal of run ${k}`).not.toBe('deny');
    if (r.record?.verdict?.action === 'break') return i;
  }
  throw new Error('the record never reached break');
}

describe.each(['wasm', 'reference'] as const)('a call proposed again after it broke when it ran (%s engine)', (engine) => {
  const options: LoopDetectorOptions = { engine };

  it('should block the same call proposed again, its proposal carrying the break of its last run', () => {
    const d = new LoopDetector(options, 's');
    try {
      let i = untilRecordBreaks(d);
      // one more edit, then the script again: its proposals never had a signal of their own (the loop shows
      // only in its output), so without the break of its last run it would run
      expect(step(d, edit(50), i++).proposal.action).toBe('allow');
      const again = d.propose({ ...run(99), id: `c${i}` });
      expect(again.action).toBe('deny');
      expect(again.verdict?.kind).toBe('state_repeat');
      expect(again.verdict?.signals.map((s) => s.detector)).toEqual(['broke_when_ran']);
      expect(again.message).toContain('reached a break when it last ran');
    } finally {
      d.dispose();
    }
  });

  // snapshots need the WebAssembly engine
  it.skipIf(engine !== 'wasm')('should block it in a session restored from a snapshot taken after the break', () => {
    const d = new LoopDetector(options, 's');
    const copy = new LoopDetector(options, 's');
    try {
      let i = untilRecordBreaks(d);
      step(d, edit(50), i++);
      copy.restore(d.snapshot());
      const again = copy.propose({ ...run(99), id: `c${i}` });
      expect(again.action).toBe('deny');
      expect(again.verdict?.signals.map((s) => s.detector)).toEqual(['broke_when_ran']);
    } finally {
      d.dispose();
      copy.dispose();
    }
  });

  it('should not block other work proposed after the break', () => {
    const d = new LoopDetector(options, 's');
    try {
      const i = untilRecordBreaks(d);
      const read: LiveCall = { tool: 'str_replace_editor', args: { command: 'view', path: '/workspace/src/other.py' }, id: `c${i}` };
      expect(d.propose(read).action).toBe('allow');
    } finally {
      d.dispose();
    }
  });

  it('should forget the break after `cooldown` quiet calls', () => {
    const d = new LoopDetector(options, 's');
    try {
      let i = untilRecordBreaks(d);
      for (let k = 0; k < 10; k++) {
        const r = step(d, { tool: 'str_replace_editor', args: { command: 'view', path: `/workspace/src/file${k}.py` }, result: `contents ${k}` }, i++);
        expect(r.record?.verdict ?? null).toBeNull();
      }
      step(d, edit(50), i++);
      const later = d.propose({ ...run(99), id: `c${i}` });
      expect(later.verdict?.signals.map((s) => s.detector) ?? []).not.toContain('broke_when_ran');
    } finally {
      d.dispose();
    }
  });
});
