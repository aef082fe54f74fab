/**
 * The reference for one session's two-phase calls through a pool whose workers die: the calls the pool
 * answered, replayed on LoopDetectors. A 'sessionLost' event restores the session to a snapshot that held
 * `restoredFrom` checks (records and blocked proposals); proposals that were allowed do not count, so
 * several points of the session's history may hold that many. The oracle keeps one LoopDetector per such
 * point and drops those the pool's next answers disagree with: at least one must always agree. Nothing is
 * recorded without its answer, and a restored session carries on from a point it really went through.
 */
import { expect } from 'vitest';
import { LoopDetector, SessionLostError } from '../../src/index.js';
import type { LiveCall, LostSession } from '../../src/index.js';
import { json } from '../helpers/verdicts.js';

/** `a` around its first difference from `b`. */
function around(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `...${a.slice(Math.max(0, i - 60), i + 140)}`;
}

/** One two-phase call of the session. */
export interface LiveStep {
  readonly phase: 'propose' | 'record';
  readonly call: LiveCall;
}

/** A history the session may have: its calls, and the checks counted after each prefix of them. */
interface Candidate {
  readonly steps: LiveStep[];
  readonly checks: number[];
  readonly detector: LoopDetector;
}

/** The reference of one session. */
export class LiveOracle {
  private candidates: Candidate[];
  /** 'sessionLost' events received and not yet applied. */
  readonly lost: LostSession[] = [];
  /** Answers compared with the reference. */
  compared = 0;

  constructor(readonly id: string) {
    this.candidates = [this.candidate([])];
  }

  private candidate(steps: readonly LiveStep[]): Candidate {
    const detector = new LoopDetector({}, this.id);
    const checks = [0];
    for (const s of steps) {
      if (s.phase === 'propose') detector.propose(s.call);
      else detector.record(s.call);
      checks.push(detector.stats().checks);
    }
    return { steps: [...steps], checks, detector };
  }

  private catchUp(): void {
    for (const e of this.lost.splice(0)) {
      const keep = e.restoredFrom ?? 0;
      const next: Candidate[] = [];
      const seen = new Set<string>();
      for (const c of this.candidates) {
        for (let n = 0; n <= c.steps.length; n++) {
          // an empty restart, or a snapshot holding `keep` checks
          if (e.restoredFrom === null ? n !== 0 : c.checks[n] !== keep) continue;
          const key = json(c.steps.slice(0, n));
          if (seen.has(key)) continue;
          seen.add(key);
          next.push(this.candidate(c.steps.slice(0, n)));
        }
      }
      expect(next.length, `${this.id} restored to a snapshot of ${keep} checks it never had`).toBeGreaterThan(0);
      this.dispose();
      this.candidates = next;
    }
  }

  /** Checks the pool's answer to `step`. */
  answer(step: LiveStep, got: unknown): void {
    this.catchUp();
    if (got instanceof SessionLostError) return;
    if (got instanceof Error) {
      expect(got.message).toMatch(/shard \d+/);
      return;
    }
    const keep: Candidate[] = [];
    const answers: string[] = [];
    for (const c of this.candidates) {
      const want = json(step.phase === 'propose' ? c.detector.propose(step.call) : c.detector.record(step.call));
      answers.push(want);
      if (want === json(got)) {
        c.steps.push(step);
        c.checks.push(c.detector.stats().checks);
        keep.push(c);
      } else c.detector.dispose();
    }
    expect(keep.length, `${this.id}: the pool answered ${around(json(got), answers[0] as string)}, the reference ${answers.map((a) => around(a, json(got))).join(' or ')}`).toBeGreaterThan(0);
    this.candidates = keep;
    this.compared++;
  }

  dispose(): void {
    for (const c of this.candidates) c.detector.dispose();
  }
}
