/**
 * The curve of an evaluation: the presets are points on one trade-off (more loops broken for more false
 * alarms and warnings), and a config (a fitted one, say) is another point. Each point is the overall row
 * of a full evaluation with that policy, one-phase and two-phase:
 *
 * - broken: `step_limit` runs broken (what detection is for);
 * - false alarms: finished work broken (`submitted` runs and `interactive` sessions, genuine loops aside);
 * - warned: finished work warned (a message shown: noise in the model's context);
 * - saved: calls from the first break on, of the calls of runs ended on a limit.
 */
import type { LoopDetectorOptions } from '../options/options.js';
import type { EvalRow } from './eval-row.js';
import { type EvalReport, type EvalSettings, evaluate } from './eval-report.js';
import type { EvalSource } from './eval-source.js';
import { type Share, share } from './wilson.js';

/** The presets on the curve, from the quietest to the loudest. */
export const CURVE_PRESETS: readonly string[] = Object.freeze(['conservative', 'default', 'balanced', 'aggressive']);

/** One replay's point on the curve. */
export interface CurveFigures {
  readonly stepLimitBroken: Share;
  /** Finished work broken: `submitted` runs and `interactive` sessions. */
  readonly finishedBroken: Share;
  /** Finished work warned. */
  readonly finishedWarned: Share;
  readonly savedCalls: number;
  readonly limitCalls: number;
}

/** One policy's point on the curve. */
export interface CurvePoint {
  /** The preset's name, or the config file's path. */
  readonly policy: string;
  readonly onePhase: CurveFigures;
  readonly twoPhase: CurveFigures;
}

/** A policy to place on the curve. */
export interface CurvePolicy {
  readonly name: string;
  readonly options: LoopDetectorOptions;
  /** Its evaluation when it was made already (the report being printed), else it is made here. */
  readonly report?: EvalReport | undefined;
}

/** The curve's figures of one overall row. */
export function curveFigures(r: EvalRow): CurveFigures {
  return {
    stepLimitBroken: r.stepLimitBroken,
    finishedBroken: share(r.submittedBroken.count + r.interactiveBroken.count, r.submittedBroken.of + r.interactiveBroken.of),
    finishedWarned: share(r.submittedWarned.count + r.interactiveWarned.count, r.submittedWarned.of + r.interactiveWarned.of),
    savedCalls: r.savedCalls,
    limitCalls: r.limitCalls,
  };
}

/** The curve of `policies` on `source`, in their order (each evaluated unless its report is given). */
export async function evaluateCurve(source: EvalSource, policies: readonly CurvePolicy[], settings: EvalSettings = {}): Promise<CurvePoint[]> {
  const out: CurvePoint[] = [];
  for (const p of policies) {
    const report = p.report ?? (await evaluate(source, p.options, settings));
    out.push({ policy: p.name, onePhase: curveFigures(report.onePhase.overall), twoPhase: curveFigures(report.twoPhase.overall) });
  }
  return out;
}
