/**
 * The whole demo run in one pass: sessions made one at a time, each scanned by a fresh LoopDetector and
 * let go (only its truth and verdicts are kept), then the score. What `loopwatch demo` prints.
 */
import type { LoopDetectorOptions } from '../../options/options.js';
import { resolveOptions } from '../../options/resolve-options.js';
import { LoopDetector } from '../../session/loop-detector.js';
import { iterateFleet } from './fleet.js';
import { type ScanVerdict, scanEvents } from './scan.js';
import { type FleetScore, type ScoreOptions, scoreFleet } from './score.js';
import type { FleetOptions, SessionTruth } from './truth.js';

/** Options of {@link evaluateFleet}: the fleet's, the detectors' and the scoring's. */
export interface EvaluateOptions extends FleetOptions {
  /** Options of every session's LoopDetector. @default {} (the defaults) */
  readonly detector?: LoopDetectorOptions;
  /** How verdicts are scored. @default SCORE_DEFAULTS */
  readonly score?: ScoreOptions;
}

/** A demo run: the score, how much was scanned and how long it took. */
export interface FleetEvaluation {
  readonly score: FleetScore;
  readonly sessions: number;
  readonly calls: number;
  /** Milliseconds spent making the sessions. */
  readonly generateMs: number;
  /** Milliseconds spent in the detectors. */
  readonly scanMs: number;
}

/** Makes, scans and scores the fleet, one session at a time. */
export function evaluateFleet(options: EvaluateOptions = {}): FleetEvaluation {
  const { detector = {}, score = {}, ...fleet } = options;
  const resolved = resolveOptions(detector);
  const truths: SessionTruth[] = [];
  const verdicts = new Map<string, ScanVerdict[]>();
  let calls = 0;
  let generateMs = 0;
  let scanMs = 0;
  const sessions = iterateFleet(fleet);
  for (;;) {
    const t0 = performance.now();
    const next = sessions.next();
    const t1 = performance.now();
    generateMs += t1 - t0;
    if (next.done === true) break;
    const s = next.value;
    const d = new LoopDetector(resolved, s.session);
    try {
      verdicts.set(s.session, scanEvents(d, s.events));
    } finally {
      d.dispose();
    }
    scanMs += performance.now() - t1;
    calls += s.events.length;
    truths.push({ session: s.session, style: s.style, injected: s.injected, legit: s.legit, variant: s.variant });
  }
  return { score: scoreFleet(truths, verdicts, score), sessions: truths.length, calls, generateMs, scanMs };
}
