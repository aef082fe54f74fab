/**
 * `loopwatch calibrate`: fits the policy's free parameters to labelled runs and says how the fit does on
 * runs it was not fitted on.
 *
 * ```
 * runs + labels ─> one replay with permissive detectors, signals recorded (record-signals.ts)
 *              ─> K folds by task group (folds.ts)
 *              ─> per fold: fit on the other folds by simulation (search.ts over evaluator.ts)
 *              ─> held-out: each fold replayed for real with its fit (fold-replay.ts, held-out.ts)
 *              ─> the config: fitted on every run, the pooled held-out figures as its expected rates
 * ```
 */
import { dirname } from 'node:path';
import { labelFor } from '../eval/labels.js';
import { type EvalSource, openEvalSource } from '../eval/eval-source.js';
import { type FamilyOverride, familyOf } from '../eval/families.js';
import type { TraceIssue } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { resolveOptions } from '../options/resolve-options.js';
import { type Point, fittedOf, permissiveOptions, spaceFor, withFitted } from './candidate.js';
import { type CalibrationRun, Evaluator } from './evaluator.js';
import { replayFolds, runKey } from './fold-replay.js';
import { assignFolds } from './folds.js';
import { type HeldOutRun, type ReplayFigures, replayFigures } from './held-out.js';
import { type LabelFacts, readLabelFacts } from './label-facts.js';
import { BUDGET_MARGIN, type Budget, type BudgetScope, type Totals, inScope, runClass } from './objective.js';
import { recordSignals } from './record-signals.js';
import { CHANGE_COST, search } from './search.js';
import { DEFAULT_MIN_KIND_WEIGHT, SEARCH_SPACE } from './search-space.js';
import { type RunOutcome, prepareRun } from './simulate.js';

/** What a calibration fits, on what, under which budgets. */
export interface CalibrateSettings {
  /**
   * The folder of runs (as `loopwatch eval` reads it), or several: each with its own label file
   * (`DIR/sessions.jsonl`); a run is matched to the labels of its own folder.
   */
  readonly dir: string | readonly string[];
  /** The label file of a single folder (instead of `DIR/sessions.jsonl`); not with several folders. */
  readonly labels?: string | undefined;
  /** The starting point: the detection options the fit starts from (a preset and a config laid over it). */
  readonly start: LoopDetectorOptions;
  /** Share of finished runs a fit may break, in each replay of `budgetScope`. */
  readonly maxFalseAlarms: number;
  /** Share of finished runs a fit may warn, in each replay of `budgetScope`; undefined: the starting point's own, per replay. */
  readonly maxWarnings?: number | undefined;
  /**
   * The replays the budgets are for and the fit improves: `two-phase` (a live host: hook, serve,
   * propose/record), `one-phase` (`scan`, `check()`), or `both`. A replay outside it is held to the
   * starting point's own shares of finished runs broken and warned (it gets no worse). @default 'two-phase'
   */
  readonly budgetScope?: BudgetScope | undefined;
  /**
   * Hold the replay outside `budgetScope` to the starting point's own shares of finished runs broken and
   * warned (`--hold-other`); by default it has no budget, and its finished runs broken, then warned, only
   * break ties. Held, a fit for the two-phase replay can hardly trade: on the public traces every point
   * that breaks more step-limit runs two-phase breaks more finished runs one-phase. @default false
   */
  readonly holdOther?: boolean | undefined;
  /**
   * The least weight a kind the starting point weighs above 0 may be given (`--min-weight`), so that a fit
   * does not set aside a kind its runs hardly hold loops of. @default DEFAULT_MIN_KIND_WEIGHT (0.8)
   */
  readonly minKindWeight?: number | undefined;
  /** Folds (at least 2). */
  readonly folds: number;
  readonly seed: number;
  /** Restarts of each fit's search from its best point, a few parameters set at random (search.ts). @default 2 */
  readonly restarts?: number | undefined;
  /** Step-limit runs broken each parameter moved off its starting value must earn (`--change-cost`). @default CHANGE_COST (1) */
  readonly changeCost?: number | undefined;
  /** Family overrides (`--family`), for the per-family figures and fits. */
  readonly families?: readonly FamilyOverride[] | undefined;
  /**
   * Fit each family with at least this many labelled runs on its own (`--per-family`; smaller families, and
   * those with fewer task groups than folds or without both step-limit and finished runs, keep the pooled
   * fit). undefined: one pooled fit.
   */
  readonly perFamily?: number | undefined;
  /** Hears what is being done (one line at a time). */
  readonly progress?: ((line: string) => void) | undefined;
}

/** The held-out figures of one family. */
export interface FamilyFigures {
  readonly family: string;
  readonly runs: number;
  readonly onePhase: ReplayFigures;
  readonly twoPhase: ReplayFigures;
}

/** The held-out figures of one fold. */
export interface FoldFigures {
  readonly fold: number;
  readonly runs: number;
  readonly onePhase: ReplayFigures;
  readonly twoPhase: ReplayFigures;
}

/** One run held out: where it is, its fold, how its label counts it, and its replays with the fold's fit. */
export interface HeldOutOutcome {
  readonly file: string;
  readonly session: string;
  readonly fold: number;
  readonly family: string;
  readonly cls: HeldOutRun['cls'];
  readonly resolved: boolean | undefined;
  readonly onePhase: RunOutcome;
  readonly twoPhase: RunOutcome;
}

/** Fitted options as a config file lays them over the starting point. */
export type Fitted = { readonly policy: Readonly<Record<string, unknown>>; readonly detectors: Readonly<Record<string, Readonly<Record<string, number>>>> };

/** What a calibration found. */
export interface Calibration {
  /** The options fitted on every run, as a config file lays them over the starting point. */
  readonly fitted: Fitted;
  /** The options each fold's runs were replayed with (fitted without them), pooled fits, by fold. */
  readonly foldFits: readonly Fitted[];
  /** Per family fitted on its own (`perFamily`): its options, fitted on every run of the family. */
  readonly familyFits: Readonly<Record<string, Fitted>>;
  /** With `perFamily`: the families that kept the pooled fit, and why. */
  readonly pooledFamilies: readonly { readonly family: string; readonly runs: number; readonly why: string }[];
  /** Pooled held-out figures, per replay (the fit's expected rates). */
  readonly heldOut: { readonly onePhase: ReplayFigures; readonly twoPhase: ReplayFigures };
  /** Each labelled run held out: its fold, class and both replays' outcomes with its fold's fit (for a closer look). */
  readonly heldOutRuns: readonly HeldOutOutcome[];
  /** The held-out figures of each fold alone (its runs replayed with the fit made without them). */
  readonly perFold: readonly FoldFigures[];
  /** The same, per family. */
  readonly perFamily: readonly FamilyFigures[];
  /** The starting point on every run (by simulation, which equals a replay: it was not fitted). */
  readonly starting: Totals;
  readonly budget: Budget;
  readonly data: { readonly runs: number; readonly calls: number; readonly stepLimit: number; readonly finished: number; readonly resolved: number; readonly groups: number; readonly unlabelled: number; readonly skipped: number };
  readonly folds: number;
  readonly seed: number;
  readonly search: { readonly evaluations: number; readonly simulations: number };
  readonly millis: { readonly record: number; readonly fit: number; readonly replay: number };
  /** Skipped inputs, lines and labels. */
  readonly issues: readonly TraceIssue[];
}

/** Why a calibration cannot run (no labelled run, too few task groups): one line for the user. */
export class CalibrateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalibrateError';
  }
}

interface Labelled {
  readonly run: CalibrationRun;
  readonly key: string;
  readonly group: string;
  readonly family: string;
  readonly resolved: boolean | undefined;
}

/** The runs and labels of one folder, and the extra facts of its labels. */
interface Folder {
  readonly source: EvalSource;
  readonly facts: ReadonlyMap<string, LabelFacts>;
}

/** The runs that have a label in their own folder (`folderOf` a run file's folder). */
function labelled(folderOf: ReadonlyMap<string, Folder>, runs: readonly ReturnType<typeof prepareRun>[], families: readonly FamilyOverride[]): Labelled[] {
  const out: Labelled[] = [];
  for (const p of runs) {
    const folder = folderOf.get(p.file);
    if (folder === undefined) continue;
    const l = labelFor(folder.source.labels.labels, p.session, dirname(folder.source.labelsPath));
    if (l === undefined) continue;
    const f = folder.facts.get(l.session);
    out.push({
      run: { prepared: p, cls: runClass(l.exitStatus, f?.loop === true) },
      key: runKey(p.file, p.session),
      group: f?.taskGroup ?? `session:${l.session}`,
      family: familyOf(l.agent, families),
      resolved: f?.resolved,
    });
  }
  return out;
}

/**
 * Why a family keeps the pooled fit (`minRuns` runs at least, a task group per fold, step-limit and
 * finished runs both), or null when it is fitted on its own.
 */
function smallFamily(runs: readonly Labelled[], minRuns: number, folds: number): string | null {
  if (runs.length < minRuns) return `${runs.length} runs, fewer than ${minRuns}`;
  const groups = new Set(runs.map((r) => r.group)).size;
  if (groups < folds) return `${groups} task groups, fewer than the ${folds} folds`;
  if (!runs.some((r) => r.run.cls.stuck)) return 'no step-limit run';
  if (!runs.some((r) => r.run.cls.finished)) return 'no finished run';
  return null;
}

/**
 * The budgets of a fit, per replay, from the starting point's totals on its runs: in the scope's replays
 * the false-alarm share given (met with BUDGET_MARGIN) and the warning share given (else the starting
 * point's own); outside the scope, none (100%), or with `holdOther` the starting point's own shares of
 * both (that replay may get no worse).
 */
export function budgetFor(s: Pick<CalibrateSettings, 'maxFalseAlarms' | 'maxWarnings' | 'budgetScope' | 'holdOther'>, start: Totals): Budget {
  const scope = s.budgetScope ?? 'two-phase';
  const share = (n: number, t: Totals['one']): number => (t.finished === 0 ? 0 : n / t.finished);
  const per = (replay: 0 | 1): { broken: number; warned: number } => {
    const t = replay === 0 ? start.one : start.two;
    const own = { broken: share(t.finishedBroken, t), warned: share(t.finishedWarned, t) };
    if (!inScope(scope, replay)) return s.holdOther === true ? own : { broken: 1, warned: 1 };
    return { broken: s.maxFalseAlarms, warned: s.maxWarnings ?? own.warned };
  };
  const one = per(0);
  const two = per(1);
  return { maxFalseAlarms: [one.broken, two.broken], maxWarnings: [one.warned, two.warned], scope, margin: BUDGET_MARGIN };
}

/** Runs a calibration. Throws CalibrateError, and EvalSourceError when the folder or labels are missing. */
export async function calibrate(s: CalibrateSettings): Promise<Calibration> {
  const say = s.progress ?? (() => undefined);
  const dirs = typeof s.dir === 'string' ? [s.dir] : s.dir;
  if (dirs.length === 0) throw new CalibrateError('name the folder of labelled runs');
  if (dirs.length > 1 && s.labels !== undefined) throw new CalibrateError('--labels names the label file of one folder; with several folders each holds its own sessions.jsonl');
  const folders: Folder[] = [];
  for (const d of dirs) {
    const source = await openEvalSource(d, s.labels);
    folders.push({ source, facts: readLabelFacts(source.labelsPath) });
  }
  const folderOf = new Map<string, Folder>();
  for (const f of folders) for (const file of f.source.inputs) if (!folderOf.has(file)) folderOf.set(file, f);
  const inputs = [...folderOf.keys()];
  const space = spaceFor(s.start, SEARCH_SPACE, s.minKindWeight ?? DEFAULT_MIN_KIND_WEIGHT);
  const permissive = resolveOptions(permissiveOptions(s.start, space));
  say(`recording signals of ${inputs.length} run file${inputs.length === 1 ? '' : 's'}`);
  const recording = await recordSignals(inputs, permissive);
  const prepared = recording.runs.map(prepareRun);
  const runs = labelled(folderOf, prepared, s.families ?? []);
  const groups = new Set(runs.map((r) => r.group)).size;
  const labelCount = folders.reduce((n, f) => n + f.source.labels.labels.size, 0);
  const labelFiles = folders.map((f) => f.source.labelsPath).join(', ');
  if (runs.length === 0) throw new CalibrateError(`no run matched a label of ${labelFiles} (${recording.runs.length} runs, ${labelCount} labels); labels are matched by session id`);
  if (groups < s.folds) throw new CalibrateError(`${s.folds} folds need at least ${s.folds} task groups, the labelled runs have ${groups}; lower --folds`);
  const ev = new Evaluator(s.start, space, permissive, runs.map((r) => r.run));
  const fold = assignFolds(runs.map((r) => r.group), s.folds, s.seed);
  const all = runs.map((_, i) => i);
  const starting = ev.evaluate(space.start, all) as Totals;
  const fitStarted = performance.now();
  const fit = (indices: readonly number[]): { point: Point; evaluations: number } => {
    const budget = budgetFor(s, ev.evaluate(space.start, indices) as Totals);
    return search(ev, indices, budget, s.seed, { restarts: s.restarts ?? 2, changeCost: s.changeCost ?? CHANGE_COST });
  };
  const points: Point[] = [];
  let evaluations = 0;
  for (let f = 0; f < s.folds; f++) {
    say(`fold ${f + 1} of ${s.folds}: fitting on the other folds`);
    const r = fit(all.filter((i) => fold[i] !== f));
    points.push(r.point);
    evaluations += r.evaluations;
  }
  say('fitting on every run');
  const final = fit(all);
  evaluations += final.evaluations;
  // per family: its own fold fits and final fit, over its runs only (replayed as option sets after the pooled ones)
  const setOf = runs.map((_, i) => fold[i] as number);
  const foldOptions = points.map((p) => withFitted(s.start, fittedOf(space, p)));
  const familyFits: Record<string, Fitted> = {};
  const pooledFamilies: { family: string; runs: number; why: string }[] = [];
  if (s.perFamily !== undefined) {
    for (const family of [...new Set(runs.map((r) => r.family))].sort()) {
      const mine = all.filter((i) => runs[i]?.family === family);
      const why = smallFamily(mine.map((i) => runs[i] as Labelled), s.perFamily, s.folds);
      if (why !== null) {
        pooledFamilies.push({ family, runs: mine.length, why });
        continue;
      }
      const base = foldOptions.length;
      for (let f = 0; f < s.folds; f++) {
        say(`${family}, fold ${f + 1} of ${s.folds}: fitting on the family's other folds`);
        const r = fit(mine.filter((i) => fold[i] !== f));
        foldOptions.push(withFitted(s.start, fittedOf(space, r.point)));
        evaluations += r.evaluations;
      }
      say(`${family}: fitting on every run of the family`);
      const r = fit(mine);
      evaluations += r.evaluations;
      familyFits[family] = fittedOf(space, r.point);
      for (const i of mine) setOf[i] = base + (fold[i] as number);
    }
  }
  const fitMillis = performance.now() - fitStarted;
  say(`replaying each fold with the fit made without it`);
  const replayStarted = performance.now();
  const foldOf = new Map(runs.map((r, i) => [r.key, setOf[i] as number]));
  const replayed = await replayFolds(inputs, foldOptions, (file, session) => foldOf.get(runKey(file, session)));
  const byKey = new Map(replayed.map((r) => [runKey(r.file, r.session), r]));
  const held: HeldOutRun[] = [];
  const one: RunOutcome[] = [];
  const two: RunOutcome[] = [];
  const fam: string[] = [];
  const heldOutRuns: HeldOutOutcome[] = [];
  for (const [i, r] of runs.entries()) {
    const got = byKey.get(r.key);
    if (got === undefined) continue;
    heldOutRuns.push({ file: got.file, session: got.session, fold: fold[i] as number, family: r.family, cls: r.run.cls, resolved: r.resolved, onePhase: got.onePhase, twoPhase: got.twoPhase });
    held.push({ fold: fold[i] as number, cls: r.run.cls, resolved: r.resolved, calls: got.calls });
    one.push(got.onePhase);
    two.push(got.twoPhase);
    fam.push(r.family);
  }
  const subset = (keep: (i: number) => boolean): { runs: number; onePhase: ReplayFigures; twoPhase: ReplayFigures } => {
    const at = held.flatMap((_, i) => (keep(i) ? [i] : []));
    const pick = <T>(xs: readonly T[]): T[] => at.map((i) => xs[i] as T);
    return { runs: at.length, onePhase: replayFigures(pick(held), pick(one), s.folds), twoPhase: replayFigures(pick(held), pick(two), s.folds) };
  };
  const perFold = points.map((_, f) => ({ fold: f + 1, ...subset((i) => held[i]?.fold === f) }));
  const perFamily = [...new Set(fam)].sort().map((family) => ({ family, ...subset((i) => fam[i] === family) }));
  return {
    fitted: fittedOf(space, final.point),
    foldFits: points.map((p) => fittedOf(space, p)),
    familyFits,
    pooledFamilies,
    heldOut: { onePhase: replayFigures(held, one, s.folds), twoPhase: replayFigures(held, two, s.folds) },
    heldOutRuns,
    perFold,
    perFamily,
    starting,
    budget: budgetFor(s, starting),
    data: {
      runs: runs.length,
      calls: runs.reduce((n, r) => n + r.run.prepared.calls, 0),
      stepLimit: runs.filter((r) => r.run.cls.stuck).length,
      finished: runs.filter((r) => r.run.cls.finished).length,
      resolved: runs.filter((r) => r.resolved === true).length,
      groups,
      unlabelled: recording.runs.length - runs.length,
      skipped: folders.reduce((n, f) => n + f.source.issues.length + f.source.labels.issues.length, 0) + recording.issues.length,
    },
    issues: [...folders.flatMap((f) => [...f.source.issues, ...f.source.labels.issues]), ...recording.issues],
    folds: s.folds,
    seed: s.seed,
    search: { evaluations, simulations: ev.simulations },
    millis: { record: recording.millis, fit: fitMillis, replay: performance.now() - replayStarted },
  };
}
