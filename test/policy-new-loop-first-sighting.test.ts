/**
 * A rung is earned by a loop: once one loop has climbed the ladder to break, a different loop that began
 * after the last verdict (another call, all its repetitions after that verdict) is warned at its first
 * sighting, not broken; its next sighting breaks, and the loop that climbed the ladder keeps breaking.
 * Seen on a real gemini-cli session: CI polls asked about, then the first failed edit after a read was
 * blocked. Ladder unit, then one-phase and two-phase on both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, liveActions } from './helpers/verdicts.js';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { Ladder } from '../src/policy/ladder.js';

const LS: ToolEvent = { tool: 'bash', args: { command: 'ls -la' }, result: 'a.py b.py' };
const CAT: ToolEvent = { tool: 'bash', args: { command: 'cat setup.cfg' }, result: '[metadata]\nname = demo' };
const quiet = (n: number): ToolEvent[] => Array.from({ length: n }, (_, i): ToolEvent => ({ tool: 'bash', args: { command: `echo ${i}` }, result: String(i) }));

/** Exact repeats only, so each verdict's loop is plain. */
const ONLY_EXACT = { frequency: false, stateRepeat: false, resultRepeat: false, cycle: false } as const;

/** A two-phase replay with exact repeats only: each call proposed, then recorded unless blocked. */
const live = (events: readonly ToolEvent[], engine: Engine): string[] =>
  liveActions(events, engine, { labelled: true, detector: { detectors: ONLY_EXACT } });

function verdicts(events: readonly ToolEvent[], engine: Engine): Verdict[] {
  const d = new LoopDetector({ engine, detectors: ONLY_EXACT });
  try {
    return events.map((e) => d.check(e)).filter((v): v is Verdict => v !== null);
  } finally {
    d.dispose();
  }
}

describe('the ladder and a new loop', () => {
  const A = 11;
  const B = 22;
  const climbed = (): Ladder => {
    const l = new Ladder(['warn', 'warn', 'break'], 10);
    l.climb(2, A, 3, 5);
    l.climb(1, A, 3, 6);
    return l;
  };

  it('should warn a different loop begun after the last verdict at its first sighting', () => {
    expect(climbed().peek(B, 8)).toBe('warn');
  });

  it('should break the loop that climbed, a loop begun before the last verdict, and an unkeyed verdict', () => {
    const l = climbed();
    expect(l.peek(A, 9)).toBe('break');
    expect(l.peek(B, 6)).toBe('break');
    expect(l.peek(0, 8)).toBe('break');
  });

  it('should break the new loop at its next sighting', () => {
    const l = climbed();
    l.climb(1, B, 8, 10);
    expect(l.peek(B, 8)).toBe('break');
  });

  it('should leave a ladder that breaks on its first rung as it is', () => {
    const l = new Ladder(['break'], 10);
    l.climb(1, A, 3, 5);
    expect(l.peek(B, 8)).toBe('break');
  });
});

describe.each(ENGINES)('a new loop after another climbed to break (%s engine)', (engine) => {
  it('should warn, then break, a different repeated call begun after the last verdict (one-phase)', () => {
    const v = verdicts([LS, LS, LS, LS, ...quiet(3), CAT, CAT, CAT, CAT], engine);
    expect(v.map((x) => `${x.index}:${x.action}`)).toEqual(['2:warn', '3:break', '9:warn', '10:break']);
  });

  it('should still break the same call looping again after a few quiet calls (one-phase)', () => {
    const v = verdicts([LS, LS, LS, LS, ...quiet(3), LS, LS, LS], engine);
    expect(v.map((x) => `${x.index}:${x.action}`)).toEqual(['2:warn', '3:break', '9:break']);
  });

  it('should warn, not block, the first proposal of a new loop, and block its next (two-phase)', () => {
    // ls's third run climbs the ladder to break when recorded; cat then loops, begun after that verdict
    const a = live([LS, LS, LS, ...quiet(3), CAT, CAT, CAT, CAT], engine);
    expect(a).toEqual(['P2:warn', 'P8:warn', 'P9:deny']);
  });

  it('should still block the call that climbed the ladder when it is proposed again (two-phase)', () => {
    expect(live([LS, LS, LS, ...quiet(3), LS, LS, LS], engine)).toContain('P8:deny');
  });
});
