/**
 * A host that never gives outcomes (a proxy seeing only call requests, as Gemini CLI's loop detection
 * does) leaves the repetition itself as the evidence a block needs (src/live/evidence.ts,
 * repeatedWithoutOutcomes): the 5th identical call is denied, as one-phase breaks it and Gemini CLI stops
 * it. Fewer runs, or runs with an outcome, are judged as before.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { UNKNOWN_OUTCOME_RUNS } from '../src/live/evidence.js';
import { ENGINES } from './helpers/verdicts.js';

const call = { tool: 'testTool', args: { param: 'value' } };

/** Proposes each call and records the allowed ones with `outcome`; the proposals' actions. */
function proposals(n: number, engine: (typeof ENGINES)[number], outcome: (i: number) => { result?: string } = () => ({})): string[] {
  const d = new LoopDetector({ engine });
  try {
    return Array.from({ length: n }, (_, i) => {
      const p = d.propose({ id: `c${i}`, ...call });
      if (p.action !== 'deny' && p.action !== 'stop') d.record({ id: `c${i}`, ...call, ...outcome(i) });
      return p.action;
    });
  } finally {
    d.dispose();
  }
}

describe.each(ENGINES)('identical calls whose outcomes are never given, two-phase, %s engine', (engine) => {
  it('should deny the call that would be its 5th run, and stop the next', () => {
    expect(UNKNOWN_OUTCOME_RUNS).toBe(4);
    expect(proposals(6, engine)).toEqual(['allow', 'allow', 'warn', 'warn', 'deny', 'stop']);
  });

  it('should never deny four runs', () => {
    expect(proposals(4, engine)).not.toContain('deny');
  });

  it('should judge calls with changing outcomes by their outcomes, not their count', () => {
    expect(proposals(8, engine, (i) => ({ result: `{"state": "running", "completed_steps": ${i + 1}}` }))).not.toContain('deny');
  });

  it('should not count runs without an outcome once one run of the call gave one', () => {
    // the first run answered (and the others changed nothing known): no stall shown, no block
    expect(proposals(6, engine, (i) => (i === 0 ? { result: 'first answer' } : {}))).not.toContain('deny');
  });
});
