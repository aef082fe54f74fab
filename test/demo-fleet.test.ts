/**
 * The demo's synthetic fleet: the same for a seed on every run, another for another seed, the planned mix
 * of loops and legitimate patterns in every block, truth that matches the calls, and options checked.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEED,
  DEFAULT_SESSIONS,
  INJECTED_KINDS,
  LEGIT_PATTERNS,
  PLAN_BLOCK,
  SESSION_CALLS,
  fleetSession,
  generateFleet,
  iterateFleet,
  type FleetSession,
} from '../src/demo/fleet/index.js';
import { MIN_LOOP_CALLS } from '../src/demo/fleet/inject.js';
import { MIN_PREFIX } from '../src/demo/fleet/session.js';
import { OptionRangeError, OptionTypeError } from '../src/errors.js';

const SMALL = 400;
const fleet = generateFleet({ sessions: SMALL });
const whole = generateFleet();

describe('demo fleet generation', () => {
  it('should give the same fleet for the same seed', () => {
    expect(JSON.stringify(generateFleet({ sessions: SMALL }))).toBe(JSON.stringify(fleet));
    expect(JSON.stringify(generateFleet({ seed: DEFAULT_SEED, sessions: SMALL }))).toBe(JSON.stringify(fleet));
  });

  it('should give another fleet for another seed', () => {
    const other = generateFleet({ seed: 7, sessions: SMALL });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(fleet));
    const same = other.filter((s, i) => JSON.stringify(s) === JSON.stringify(fleet[i])).length;
    expect(same).toBe(0);
  });

  it('should make each session the same alone, lazily or in the whole fleet', () => {
    for (const i of [0, 1, 39, 40, 123, SMALL - 1]) expect(JSON.stringify(fleetSession(i))).toBe(JSON.stringify(fleet[i]));
    const lazy: FleetSession[] = [];
    for (const s of iterateFleet({ sessions: SMALL })) lazy.push(s);
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(fleet));
    expect(JSON.stringify(whole.slice(0, SMALL))).toBe(JSON.stringify(fleet));
  });

  it('should default to the documented seed and size', () => {
    expect(whole).toHaveLength(DEFAULT_SESSIONS);
    expect(new Set(whole.map((s) => s.session)).size).toBe(DEFAULT_SESSIONS);
  });

  it('should inject every loop kind in every block, 35% of the sessions in all', () => {
    for (let b = 0; b + PLAN_BLOCK.size <= whole.length; b += PLAN_BLOCK.size) {
      const block = whole.slice(b, b + PLAN_BLOCK.size);
      const kinds = new Set(block.flatMap((s) => (s.injected === null ? [] : [s.injected.kind])));
      expect([...kinds].sort()).toEqual([...INJECTED_KINDS].sort());
      expect(block.filter((s) => s.injected !== null)).toHaveLength(PLAN_BLOCK.injected);
    }
    expect(whole.filter((s) => s.injected !== null).length / whole.length).toBeCloseTo(0.35, 5);
  });

  it('should build clean sessions around every legitimate pattern, in the styles that have it', () => {
    for (const p of LEGIT_PATTERNS) expect(whole.some((s) => s.legit === p)).toBe(true);
    expect(whole.filter((s) => s.legit === 'batch_edit' || s.legit === 'test_reruns' || s.legit === 'range_reads').every((s) => s.style === 'coding')).toBe(true);
    expect(whole.filter((s) => s.legit === 'several_orders').every((s) => s.style === 'support')).toBe(true);
    expect(whole.filter((s) => s.injected === null && s.legit === null).length).toBeGreaterThan(0);
  });

  it('should keep clean sessions free of injected truth and looping sessions free of a pattern', () => {
    for (const s of whole) {
      if (s.legit !== null) expect(s.injected).toBeNull();
      if (s.injected !== null) expect(s.legit).toBeNull();
    }
  });

  it('should start each loop after some ordinary work and run it to the end of the session', () => {
    for (const s of whole) {
      if (s.injected === null) continue;
      expect(s.injected.startIndex).toBeGreaterThanOrEqual(MIN_PREFIX);
      expect(s.events.length - s.injected.startIndex).toBeGreaterThanOrEqual(MIN_LOOP_CALLS[s.injected.kind]);
    }
  });

  it('should make sessions of 15 to 80 calls, numbered by step, of both styles', () => {
    for (const s of whole) {
      expect(s.events.length).toBeGreaterThanOrEqual(SESSION_CALLS.min);
      expect(s.events.length).toBeLessThanOrEqual(SESSION_CALLS.max);
      expect(s.events.map((e) => e.step)).toEqual(s.events.map((_, i) => i + 1));
      expect(s.session.startsWith(s.style)).toBe(true);
      for (const e of s.events) expect(typeof e.tool === 'string' && e.tool.length > 0).toBe(true);
    }
    expect(new Set(whole.map((s) => s.style))).toEqual(new Set(['coding', 'support']));
  });

  it('should show the loop in the calls from its start: the same call again for an exact repeat', () => {
    for (const s of whole) {
      if (s.injected?.kind !== 'exact_repeat') continue;
      const loop = s.events.slice(s.injected.startIndex).map((e) => `${e.tool} ${JSON.stringify(e.args)}`);
      expect(new Set(loop).size).toBe(1);
    }
  });

  it('should refuse options that are not a seed and a session count, naming them', () => {
    expect(() => generateFleet({ seed: 1.5 })).toThrow(OptionTypeError);
    expect(() => generateFleet({ seed: 1.5 })).toThrow(/options\.seed must be an integer, received 1\.5 \(number\)/);
    expect(() => generateFleet({ sessions: -1 })).toThrow(OptionRangeError);
    expect(() => generateFleet({ sessions: 2_000_000 })).toThrow(/options\.sessions/);
    expect(() => generateFleet({ size: 3 } as never)).toThrow(/size/);
    expect(generateFleet({ sessions: 0 })).toEqual([]);
  });
});
