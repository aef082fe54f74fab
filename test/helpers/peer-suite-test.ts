/**
 * The test every peer suite runs: each of its loops caught (broken where the peer stops the run), each of its
 * legitimate sequences never broken, one-phase and two-phase; a summary line per phase.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type PeerCase, type Phase, replayCase, summaryLine, tally } from './peer-cases.js';

const PHASES: readonly Phase[] = ['one-phase', 'two-phase'];

/** Registers the suite's tests: one per case and phase, and the summary. */
export function peerSuiteTests(suite: string, cases: readonly PeerCase[]): void {
  describe(`${suite}'s test suite as loopwatch input`, () => {
    for (const phase of PHASES) {
      describe(phase, () => {
        for (const c of cases) {
          const name = c.mirrors.slice(c.mirrors.indexOf(': "') + 2);
          if (c.differs?.phases.includes(phase) === true) {
            it(`differs on ${name}: ${c.differs.why}`, () => {
              const o = replayCase(c, phase);
              if (c.loop) expect(o.caught && (!c.peerStops || o.broken), o.actions.join(' ')).toBe(false);
              else expect(o.broken, o.actions.join(' ')).toBe(true);
            });
          } else if (c.loop) {
            it(`should catch ${name}${c.peerStops ? ' and break it' : ''}`, () => {
              const o = replayCase(c, phase);
              expect(o.caught, o.actions.join(' ')).toBe(true);
              if (c.peerStops) expect(o.broken, o.actions.join(' ')).toBe(true);
            });
          } else {
            it(`should never break ${name}`, () => {
              const o = replayCase(c, phase);
              expect(o.broken, o.actions.join(' ')).toBe(false);
            });
          }
        }
      });
    }
    afterAll(() => {
      for (const phase of PHASES) console.log(summaryLine(suite, phase, tally(cases, phase)));
    });
  });
}
