/**
 * How the two moments of a call are paired and counted: by id (calls run in parallel), by tool without
 * ids, calls whose outcome never comes, late records, blocked calls, and what stats and listeners see.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector, PENDING_PROPOSALS } from '../src/index.js';
import type { Detector, LiveCall, ObservedCall, Verdict } from '../src/index.js';

const failing: LiveCall = { tool: 'bash', args: { command: 'make' } };
const failed = { ...failing, error: 'make: *** [all] Error 2' };

describe('pairing proposals with records', () => {
  it('should pair by id calls proposed together and recorded in any order (parallel tool calls)', () => {
    const d = new LoopDetector({}, 's');
    const calls = ['a', 'b', 'c'].map((f, i) => ({ id: `t${i}`, tool: 'read', args: { path: `${f}.py` } }));
    for (const c of calls) expect(d.propose(c).action).toBe('allow');
    for (const c of [calls[2], calls[0], calls[1]] as LiveCall[]) expect(d.record({ ...c, result: 'ok' }).late).toBeUndefined();
    expect(d.stats().checks).toBe(3);
    d.dispose();
  });

  it('should record a proposal without outcome when the next call is proposed and its record never came (no ids)', () => {
    const seen: ObservedCall[] = [];
    const spy: Detector = { name: 'spy', record: (c) => void seen.push(c), check: () => null, reset: () => undefined };
    const d = new LoopDetector({ custom: [spy] }, 's');
    d.propose({ tool: 'bash', args: { command: 'sleep 999' } }); // the tool crashed: no record
    expect(seen).toHaveLength(0); // custom detectors never see a proposal
    d.propose({ tool: 'read', args: { path: 'x' } });
    expect(seen.map((c) => [c.index, c.tool, c.event.result, c.event.error])).toEqual([[0, 'bash', undefined, undefined]]);
    d.record({ tool: 'read', args: { path: 'x' }, result: 'text' });
    expect(seen.map((c) => c.tool)).toEqual(['bash', 'read']);
    d.dispose();
  });

  it(`should wait ${PENDING_PROPOSALS} proposals for a call with an id, then record it without outcome and ignore its late record`, () => {
    const d = new LoopDetector({}, 's');
    d.propose({ id: 'slow', tool: 'bash', args: { command: 'npm test' } });
    for (let i = 0; i < PENDING_PROPOSALS; i++) {
      d.propose({ id: `r${i}`, tool: 'read', args: { path: `f${i}` } });
      d.record({ id: `r${i}`, tool: 'read', args: { path: `f${i}` }, result: `text ${i}` });
    }
    expect(d.stats().checks).toBe(PENDING_PROPOSALS);
    d.propose({ id: 'next', tool: 'read', args: { path: 'g' } });
    expect(d.stats().checks).toBe(PENDING_PROPOSALS + 1); // 'slow' recorded without outcome
    const late = d.record({ id: 'slow', tool: 'bash', args: { command: 'npm test' }, result: 'passed' });
    expect(late).toMatchObject({ action: 'allow', late: true, verdict: null });
    expect(d.stats().checks).toBe(PENDING_PROPOSALS + 1); // counted once
    d.dispose();
  });

  it('should record a call that was never proposed (a hook installed mid-session), and count each call once', () => {
    const d = new LoopDetector({}, 's');
    for (let i = 0; i < 3; i++) d.record({ ...failed, id: `x${i}` });
    expect(d.stats().checks).toBe(3);
    const p = d.propose({ ...failing, id: 'x3' });
    expect(['warn', 'deny']).toContain(p.action);
    d.dispose();
  });

  it('should warn after the call ran only when the record says something its proposal did not show', () => {
    const d = new LoopDetector({}, 's');
    const steps = Array.from({ length: 3 }, (_, i) => {
      const p = d.propose({ ...failing, id: `m${i}` });
      return [p, d.record({ ...failed, id: `m${i}` })] as const;
    });
    const [p2, r2] = steps[2]!;
    expect(p2.action).toBe('warn');
    expect(r2.verdict?.kind).toBe(p2.verdict?.kind);
    expect(r2.action).toBe('allow'); // already shown before the call ran
    // a record without a proposal says what it has to say
    const e = new LoopDetector({}, 's');
    const recs = Array.from({ length: 3 }, () => e.record(failed));
    expect(recs[2]!.action).toBe('warn');
    expect(recs[2]!.message).toBe(recs[2]!.verdict?.message);
    d.dispose();
    e.dispose();
  });
});

describe('blocked calls', () => {
  it('should block the same failing call once it ran and failed, never record it, and stop the run the next time', () => {
    const published: Verdict[] = [];
    const d = new LoopDetector({ onDetection: (v) => void published.push(v) }, 's');
    const got: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = d.propose(failing);
      got.push(p.action);
      if (p.action === 'allow' || p.action === 'warn') d.record(failed);
    }
    expect(got).toEqual(['allow', 'allow', 'warn', 'deny', 'stop', 'stop']);
    const s = d.stats();
    expect(s.blocked).toBe(3);
    expect(s.checks).toBe(3 + 3);
    // one verdict per call: the blocked ones at proposal, the others when recorded
    expect(published.map((v) => v.action)).toEqual(['warn', 'break', 'break', 'break']);
    expect(published.every((v) => v.session === 's')).toBe(true);
    d.dispose();
  });

  it('should stop at the first break with policy.stopAfter 1, and forget blocks after cooldown quiet calls', () => {
    const d = new LoopDetector({ policy: { stopAfter: 1, cooldown: 3 } }, 's');
    for (let i = 0; i < 3; i++) if (d.propose(failing).action !== 'stop') d.record(failed);
    expect(d.propose(failing).action).toBe('stop');
    for (let i = 0; i < 3; i++) {
      d.propose({ tool: 'read', args: { path: `new-${i}` } });
      d.record({ tool: 'read', args: { path: `new-${i}` }, result: `${i}` });
    }
    // recovered: the ladder and the strikes start over, so the old call is allowed to run once more
    expect(d.propose(failing).action).not.toBe('stop');
    d.dispose();
  });

  it('should only warn before a call runs when nothing that ran shows the loop (similar but different calls)', () => {
    const d = new LoopDetector({}, 's');
    const got: string[] = [];
    for (let i = 0; i < 10; i++) {
      const call = { tool: 'search', args: { query: `handleSubmitForm${'x'.repeat(i % 3)}${i}` } };
      const p = d.propose(call);
      got.push(p.action);
      d.record({ ...call, result: 'No results found.' });
    }
    expect(got).not.toContain('deny');
    expect(got).not.toContain('stop');
    expect(got).toContain('warn');
    d.dispose();
  });
});

describe('two-phase input', () => {
  it('should refuse a bad call id with InvalidEventError naming the field, recording nothing', () => {
    const d = new LoopDetector({}, 's');
    for (const id of ['', 7, 'x'.repeat(513), null]) {
      expect(() => d.propose({ tool: 'bash', id } as unknown as LiveCall)).toThrow(InvalidEventError);
      expect(() => d.record({ tool: 'bash', id } as unknown as LiveCall)).toThrow(/call\.id must be a non-empty string/);
    }
    expect(d.stats().checks).toBe(0);
    d.dispose();
  });

  it('should refuse a call whose values cannot be read, recording nothing, and keep its proposal waiting for a readable record', () => {
    for (const engine of ['wasm', 'reference'] as const) {
      const d = new LoopDetector({ engine }, 's');
      // args of any kind are read (a getter that throws is fingerprinted as unreadable): answered, not recorded
      const hostile = { get command(): string { throw new Error('no'); } };
      expect(d.propose({ tool: 'bash', args: hostile }).action).toBe('allow');
      expect(d.stats().checks).toBe(0);
      d.propose({ id: 'k', tool: 'bash', args: { command: 'ls' } });
      const badError = { get message(): string { throw new Error('no'); } };
      expect(d.stats().checks).toBe(1); // the call with hostile args, recorded without outcome at this proposal
      expect(() => d.record({ id: 'k', tool: 'bash', args: { command: 'ls' }, error: badError })).toThrow(InvalidEventError);
      expect(d.stats().checks).toBe(1);
      expect(d.record({ id: 'k', tool: 'bash', args: { command: 'ls' }, result: 'a b' }).late).toBeUndefined();
      expect(d.stats().checks).toBe(2);
      d.dispose();
    }
  });

  it('should allow exempt tools before they run, and record nothing for them', () => {
    const d = new LoopDetector({ tools: { todo: { exempt: true } } }, 's');
    for (let i = 0; i < 5; i++) {
      expect(d.propose({ tool: 'todo', args: {} }).action).toBe('allow');
      d.record({ tool: 'todo', args: {}, result: 'ok' });
    }
    expect(d.stats()).toMatchObject({ checks: 5, skipped: 5, detections: 0 });
    d.dispose();
  });

  it('should leave out a proposal\'s result, error and text (the call has not run)', () => {
    const d = new LoopDetector({}, 's');
    for (let i = 0; i < 2; i++) d.record(failed);
    // a proposal that (wrongly) carries an outcome is still judged as not yet run
    const p = d.propose({ ...failed, text: 'I will try again. '.repeat(20) });
    expect(p.verdict?.kind).toBe('exact_repeat');
    expect(p.verdict?.progress).toBe('stalled');
    d.dispose();
  });
});

describe('declined calls', () => {
  it('should count a call a human declined as blocked, not run, so the same call proposed again is blocked', () => {
    const d = new LoopDetector({ policy: { ladder: ['ask', 'ask', 'break'] } }, 's');
    for (let i = 0; i < 2; i++) {
      d.propose({ ...failing, id: `a${i}` });
      d.record({ ...failed, id: `a${i}` });
    }
    const asked = d.propose({ ...failing, id: 'a2' });
    expect(asked.action).toBe('ask');
    d.decline({ ...failing, id: 'a2' });
    expect(d.stats()).toMatchObject({ checks: 3, blocked: 1 });
    expect(d.propose({ ...failing, id: 'a3' }).action).toBe('stop');
    // a decline with nothing proposed changes nothing
    d.decline({ tool: 'never-proposed' });
    expect(d.stats().checks).toBe(4);
    d.dispose();
  });
});
