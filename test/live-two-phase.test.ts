/**
 * Two-phase checks (LoopDetector.propose before a call runs, record after): legitimate repetitive work is
 * never denied, stuck loops are warned and then denied, with evidence from calls that ran. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import { actions, replay } from './helpers/live-replay.js';

describe.each(['wasm', 'reference'] as const)('two-phase checks (%s engine)', (engine) => {
  describe('must not break: legitimate work checked before each call runs', () => {
    it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', (_name, s) => {
      for (const ids of [true, false]) {
        const d = new LoopDetector({ engine }, 's');
        const steps = replay(d, s.calls, ids);
        expect(steps.filter((x) => x.propose.action === 'deny' || x.propose.action === 'stop')).toEqual([]);
        // every call ran and was recorded once
        expect(d.stats().checks).toBe(s.calls.length);
        d.dispose();
      }
    });
  });

  describe('must warn, then break: stuck loops', () => {
    it.each(STUCK.map((s) => [s.name, s] as const))('should warn, then deny %s', (_name, s) => {
      const d = new LoopDetector({ engine }, 's');
      const steps = replay(d, s.calls);
      const got = actions(steps);
      const firstWarn = steps.findIndex((x) => x.propose.action === 'warn');
      const firstDeny = steps.findIndex((x) => x.propose.action === 'deny');
      expect(firstWarn, got.join(' ')).toBeGreaterThanOrEqual(0);
      expect(firstDeny, got.join(' ')).toBeGreaterThan(firstWarn);
      // the deny names the loop and says the call did not run
      const deny = steps[firstDeny]!.propose;
      expect(deny.message).toMatch(/^\[loopwatch\] You appear to be in a loop/);
      expect(deny.message).toContain('This call was blocked and did not run.');
      expect(deny.verdict?.action).toBe('break');
      // the next break-level proposal stops the run
      const stop = steps.findIndex((x) => x.propose.action === 'stop');
      expect(stop, got.join(' ')).toBeGreaterThan(firstDeny);
      expect(steps[stop]!.propose.message).toContain('The run is being stopped.');
      // a denied call is not recorded as run: checks count the recorded calls and the blocked ones
      const ran = steps.filter((x) => x.record !== null).length;
      const blocked = steps.length - ran;
      expect(d.stats().blocked).toBe(blocked);
      expect(d.stats().checks).toBe(ran + blocked);
      d.dispose();
    });
  });
});
