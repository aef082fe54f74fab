/**
 * An evaluation of loopwatch on labelled runs: the runs replayed one-phase (each call checked after it
 * ran) and two-phase (proposed before, recorded after), judged against their labels, and tabled per
 * family (or per agent) and overall; the runs behind each false alarm (a `submitted` run or an `interactive`
 * session broken), each warning on an interactive session, each miss (a `step_limit` run never warned) and
 * each resolved run broken (correct work, whatever its exit), in either replay.
 */
import { dirname } from 'node:path';
import type { TraceIssue, TraceNote } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { type EvalTable, INTERACTIVE, JUDGED_STATUSES, type JudgedRun, evalTable } from './eval-row.js';
import type { EvalSource } from './eval-source.js';
import { type FamilyOverride, familyOf } from './families.js';
import { labelFor } from './labels.js';
import { type Replay, type RunJudge, replayOnePhase } from './trace-eval.js';
import { replayTwoPhase } from './two-phase-eval.js';

/** How an evaluation runs. */
export interface EvalSettings {
  /** Threads of the one-phase scan (0: this thread). @default 0 */
  readonly workers?: number;
  /** Family overrides, tried before the built-in rules. @default none */
  readonly families?: readonly FamilyOverride[];
  /** Rows per family, or per agent name as labelled. @default 'family' */
  readonly by?: 'family' | 'agent';
  /**
   * Options per family (a config's `families`, config-families.ts): the runs of such a family are replayed
   * with its options (one more pass over the inputs per family the labels hold), the others with `options`.
   * @default none
   */
  readonly familyOptions?: ReadonlyMap<string, LoopDetectorOptions>;
}

/** A run behind a false alarm or a miss, as each replay saw it (null: not one there). */
export interface ListedRun {
  readonly session: string;
  readonly file: string;
  readonly family: string;
  readonly calls: number;
  readonly onePhase: JudgedRun | null;
  readonly twoPhase: JudgedRun | null;
}

/** An evaluation's results. */
export interface EvalReport {
  readonly onePhase: EvalTable;
  readonly twoPhase: EvalTable;
  /** `submitted` runs and `interactive` sessions (but those labelled as genuine loops) that reached break in either replay. */
  readonly falseAlarms: readonly ListedRun[];
  /** `interactive` sessions warned in either replay and broken in neither (the cost of warnings on ordinary work). */
  readonly warnings: readonly ListedRun[];
  /** `interactive` sessions labelled as holding a genuine loop (`loop: true`), as each replay saw them. */
  readonly loops: readonly ListedRun[];
  /** `step_limit` runs never warned in either replay. */
  readonly misses: readonly ListedRun[];
  /** Runs labelled resolved (correct work, whatever their exit) broken in either replay: work a break would have destroyed. */
  readonly resolvedBroken: readonly ListedRun[];
  /** Runs without a label (not judged). */
  readonly unlabelled: readonly string[];
  /** Labels that no run matched. */
  readonly unmatchedLabels: number;
  /**
   * Runs labelled with an exit status no figure counts (not one of JUDGED_STATUSES: `unknown`, `error`, a
   * typo such as `steplimit`), by status, most first: replayed and counted in `runs`, in no share.
   */
  readonly unjudged: Readonly<Record<string, number>>;
  /** Skipped inputs, lines and labels. */
  readonly issues: readonly TraceIssue[];
  /** Parts of inputs passed over on purpose (copies of calls read elsewhere), said once each. */
  readonly notes: readonly TraceNote[];
  readonly calls: number;
  readonly millis: { readonly onePhase: number; readonly twoPhase: number };
}

/** Runs where `pick` holds in either replay, in the one-phase reading order. */
function listRuns(one: readonly JudgedRun[], two: readonly JudgedRun[], pick: (r: JudgedRun) => boolean): ListedRun[] {
  const key = (r: JudgedRun): string => `${r.file}\u0000${r.session}`;
  const twoBy = new Map(two.map((r) => [key(r), r]));
  const out: ListedRun[] = [];
  const seen = new Set<string>();
  for (const r of one) {
    const t = twoBy.get(key(r)) ?? null;
    const a = pick(r);
    const b = t !== null && pick(t);
    seen.add(key(r));
    if (a || b) out.push({ session: r.session, file: r.file, family: r.family, calls: r.calls, onePhase: a ? r : null, twoPhase: b ? t : null });
  }
  for (const t of two) if (!seen.has(key(t)) && pick(t)) out.push({ session: t.session, file: t.file, family: t.family, calls: t.calls, onePhase: null, twoPhase: t });
  return out;
}

/** How many runs of each exit status no figure counts, most first. */
function unjudgedStatuses(runs: readonly JudgedRun[]): Record<string, number> {
  const by = new Map<string, number>();
  for (const r of runs) if (!JUDGED_STATUSES.includes(r.exitStatus)) by.set(r.exitStatus, (by.get(r.exitStatus) ?? 0) + 1);
  return Object.fromEntries([...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** Whether a listed run reached break in either replay. */
function brokenIn(l: ListedRun): boolean {
  return (l.onePhase?.firstBreak ?? null) !== null || (l.twoPhase?.firstBreak ?? null) !== null;
}

/**
 * Both replays, each run with its family's options when `settings.familyOptions` has them (a pass per such
 * family, judging only its runs), the others with `options`; inputs' issues, notes and unlabelled runs are
 * the pooled pass's.
 */
async function replayByFamily(source: EvalSource, options: LoopDetectorOptions, judge: RunJudge, settings: EvalSettings): Promise<{ one: Replay; two: Replay }> {
  const own = settings.familyOptions ?? new Map<string, LoopDetectorOptions>();
  const present = new Set<string>();
  for (const l of source.labels.labels.values()) present.add(familyOf(l.agent, settings.families));
  const fitted = [...own.keys()].filter((f) => present.has(f));
  const only = (keep: (family: string) => boolean): RunJudge => (session) => {
    const got = judge(session);
    return got !== undefined && keep(got.family) ? got : undefined;
  };
  const pooledJudge = fitted.length === 0 ? judge : only((f) => !fitted.includes(f));
  let one = await replayOnePhase(source.inputs, options, pooledJudge, settings.workers ?? 0);
  let two = await replayTwoPhase(source.inputs, options, pooledJudge);
  if (fitted.length === 0) return { one, two };
  const unlabelled = one.unlabelled.filter((s) => judge(s) === undefined);
  one = { ...one, unlabelled };
  for (const family of fitted) {
    const o = { ...(own.get(family) as LoopDetectorOptions), ...(options.engine === undefined ? {} : { engine: options.engine }) };
    const j = only((f) => f === family);
    const a = await replayOnePhase(source.inputs, o, j, settings.workers ?? 0);
    const b = await replayTwoPhase(source.inputs, o, j);
    one = { ...one, runs: [...one.runs, ...a.runs], millis: one.millis + a.millis };
    two = { ...two, runs: [...two.runs, ...b.runs], millis: two.millis + b.millis };
  }
  return { one, two };
}

/** Evaluates the runs of `source` with detection `options`. */
export async function evaluate(source: EvalSource, options: LoopDetectorOptions = {}, settings: EvalSettings = {}): Promise<EvalReport> {
  const labels = source.labels.labels;
  const labelsDir = dirname(source.labelsPath);
  const matched = new Set<string>();
  const judge: RunJudge = (session) => {
    const l = labelFor(labels, session, labelsDir);
    if (l === undefined) return undefined;
    matched.add(l.session);
    return { agent: l.agent, family: familyOf(l.agent, settings.families), exitStatus: l.exitStatus, loop: l.loop, ...(l.resolved === undefined ? {} : { resolved: l.resolved }) };
  };
  const { one, two } = await replayByFamily(source, options, judge, settings);
  const key = settings.by === 'agent' ? (r: JudgedRun) => r.agent ?? '(no agent)' : (r: JudgedRun) => r.family;
  return {
    onePhase: evalTable(one.runs, key),
    twoPhase: evalTable(two.runs, key),
    falseAlarms: listRuns(one.runs, two.runs, (r) => (r.exitStatus === 'submitted' || (r.exitStatus === INTERACTIVE && !r.loop)) && r.firstBreak !== null),
    warnings: listRuns(one.runs, two.runs, (r) => r.exitStatus === INTERACTIVE && !r.loop && r.warned).filter((l) => !brokenIn(l)),
    loops: listRuns(one.runs, two.runs, (r) => r.exitStatus === INTERACTIVE && r.loop),
    misses: listRuns(one.runs, two.runs, (r) => r.exitStatus === 'step_limit' && !r.warned),
    resolvedBroken: listRuns(one.runs, two.runs, (r) => r.resolved === true && r.firstBreak !== null),
    unlabelled: one.unlabelled,
    unmatchedLabels: labels.size - matched.size,
    unjudged: unjudgedStatuses(one.runs),
    issues: [...source.issues, ...source.labels.issues, ...one.issues],
    notes: one.notes ?? [],
    calls: one.calls,
    millis: { onePhase: one.millis, twoPhase: two.millis },
  };
}
