/**
 * The config file a calibration writes: the starting point (its preset, its config's options) with the
 * fitted options laid over it, so `--config FILE` in every command (and the library, given its options)
 * reproduces the fit; and two notes every reader ignores (detection-options.ts CONFIG_NOTES):
 *
 * - `expected`: the pooled held-out figures per replay (rate, 95% Wilson interval, fold range), what runs
 *   like the data should see;
 * - `fitted`: the command that made it, when, on what data, with which folds, seed, replays fitted for
 *   (`budgetScope`) and budgets (per replay);
 *
 * and, fitted per family (`--per-family`), a `families` section: each family's fitted options, which every
 * reader lays over the pooled ones for that family's sessions (presets/config-families.ts).
 */
import type { LoopDetectorOptions } from '../options/options.js';
import type { Calibration } from './calibrate.js';
import { withFitted } from './candidate.js';
import type { Figure, ReplayFigures } from './held-out.js';

/** Where a calibration started: the preset named (if any) and a config file's options (if any). */
export interface StartingPoint {
  readonly preset?: string | undefined;
  readonly options?: LoopDetectorOptions | undefined;
}

const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 10000) / 10000);

function figureNote(f: Figure): Record<string, unknown> {
  return { rate: round(f.rate), low: round(f.low), high: round(f.high), foldMin: round(f.min), foldMax: round(f.max), count: f.count, of: f.of };
}

function replayNote(r: ReplayFigures): Record<string, unknown> {
  return {
    stepLimitBroken: figureNote(r.stepLimitBroken),
    stepLimitWarned: figureNote(r.stepLimitWarned),
    finishedBroken: figureNote(r.finishedBroken),
    finishedWarned: figureNote(r.finishedWarned),
    ...(r.resolvedBroken === null ? {} : { resolvedBroken: figureNote(r.resolvedBroken) }),
    savedCalls: figureNote(r.savedCalls),
  };
}

/** The config of calibration `c` over `start`, made by `command` at `date`. */
export function calibratedConfig(c: Calibration, start: StartingPoint, command: string, date: Date): Record<string, unknown> {
  const options = withFitted(start.options ?? {}, c.fitted);
  return {
    ...(start.preset === undefined || start.preset === 'default' ? {} : { preset: start.preset }),
    ...options,
    ...(Object.keys(c.familyFits).length === 0 ? {} : { families: c.familyFits }),
    expected: { onePhase: replayNote(c.heldOut.onePhase), twoPhase: replayNote(c.heldOut.twoPhase) },
    fitted: {
      command,
      date: date.toISOString(),
      data: { runs: c.data.runs, calls: c.data.calls, stepLimit: c.data.stepLimit, finished: c.data.finished, resolved: c.data.resolved, taskGroups: c.data.groups },
      folds: c.folds,
      seed: c.seed,
      budgetScope: c.budget.scope,
      maxFalseAlarms: { onePhase: round(c.budget.maxFalseAlarms[0]), twoPhase: round(c.budget.maxFalseAlarms[1]) },
      maxWarnings: { onePhase: round(c.budget.maxWarnings[0]), twoPhase: round(c.budget.maxWarnings[1]) },
    },
  };
}
