/**
 * The next step recommended to the model. `ladder`: escalate once the action is ask or break, backtrack
 * from a dead end, replan otherwise. `confidence` (corteX's rule): escalate above `escalateConfidence` or
 * `escalateRepeats`, backtrack from a dead end, replan otherwise.
 */
import type { PolicyOptions } from '../options/options.js';
import type { LoopAction, LoopKind, Recommendation } from '../types.js';

/** Chooses the recommended next step. */
export function recommend(p: PolicyOptions, action: LoopAction, kind: LoopKind, confidence: number, repeatCount: number): Recommendation {
  if (p.recommend === 'confidence') {
    if (confidence > p.escalateConfidence || repeatCount > p.escalateRepeats) return 'escalate';
  } else if (action !== 'warn') {
    return 'escalate';
  }
  return kind === 'dead_end' ? 'backtrack' : 'replan';
}
