/**
 * `loopwatch calibrate DIR [DIR...]`: fits the policy to folders of labelled runs (each as `loopwatch eval` reads it)
 * under a false-alarm budget and a warning budget, checks the fit on held-out folds by real replay, and
 * writes the config (`-o FILE`, else standard output) with its expected rates in it; the report goes to
 * standard output with `-o`, else to standard error. Exit code 0; 2 on a usage error, no labels, no labelled
 * run, too few task groups, or input skipped (named on stderr) unless `--allow-skipped`.
 */
import { type PendingOutput, pendingOutputFile } from './render/pending-output.js';
import { CalibrateError, calibrate } from '../calibrate/calibrate.js';
import { calibratedConfig } from '../calibrate/config-file.js';
import { BUDGET_SCOPES, type BudgetScope } from '../calibrate/objective.js';
import { DEFAULT_MIN_KIND_WEIGHT } from '../calibrate/search-space.js';
import { CHANGE_COST } from '../calibrate/search.js';
import { EvalSourceError } from '../eval/eval-source.js';
import { type FamilyOverride, parseFamilyOverride } from '../eval/families.js';
import { detectionOptions, readConfig } from './detection-options.js';
import { type FlagSpec, integerFlag, parseFlags, stringOf } from './flags.js';
import { calibrateJson, calibrateText } from './render/calibrate-text.js';
import type { CommandIo } from './scan-command.js';
import { UsageError } from './usage-error.js';
import { redactSecrets } from '../text/redact.js';
import { terminalSafe } from '../text/terminal-text.js';
import { shellQuote } from '../text/shell-quote.js';

const CALIBRATE_FLAGS: FlagSpec = {
  labels: { type: 'string' },
  preset: { type: 'string' },
  config: { type: 'string' },
  'max-false-alarms': { type: 'string' },
  'max-warnings': { type: 'string' },
  replay: { type: 'string' },
  'hold-other': { type: 'boolean' },
  folds: { type: 'string' },
  seed: { type: 'string' },
  restarts: { type: 'string' },
  'min-weight': { type: 'string' },
  'change-cost': { type: 'string' },
  family: { type: 'string', multiple: true },
  'per-family': { type: 'boolean' },
  'min-family-runs': { type: 'string' },
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  'allow-skipped': { type: 'boolean' },
};

/** Runs a family needs to be fitted on its own with `--per-family` (`--min-family-runs`). */
export const MIN_FAMILY_RUNS = 40;

/** A calibration's command line, parsed and checked. */
export interface CalibrateCommandSettings {
  /** The folders of labelled runs (each with its own sessions.jsonl). */
  readonly dirs: readonly string[];
  readonly labels: string | undefined;
  readonly preset: string | undefined;
  readonly config: string | undefined;
  /** Shares (0 to 1). */
  readonly maxFalseAlarms: number;
  readonly maxWarnings: number | undefined;
  /** The replays the budgets are for and the fit improves (`--replay`). */
  readonly budgetScope: BudgetScope;
  /** Hold the replay outside `--replay` to the starting point's own shares (`--hold-other`). */
  readonly holdOther: boolean;
  readonly folds: number;
  readonly seed: number;
  readonly restarts: number;
  /** The least weight of a kind the starting point weighs above 0 (`--min-weight`, default 0.8). */
  readonly minKindWeight: number;
  /** Step-limit runs broken a moved parameter must earn (`--change-cost`, default CHANGE_COST). */
  readonly changeCost: number;
  readonly families: readonly FamilyOverride[];
  /** Fit families of at least this many runs on their own (`--per-family`, `--min-family-runs`); undefined: pooled only. */
  readonly perFamily: number | undefined;
  readonly output: string | undefined;
  readonly json: boolean;
  readonly allowSkipped: boolean;
}

/** A percentage flag (`1%`, `0.5`, `2.5%`: percent) as a share; `fallback` when absent. Throws UsageError. */
export function percentFlag(flag: string, text: string | undefined, fallback: number | undefined): number | undefined {
  if (text === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?|\.\d+)%?$/.exec(text.trim());
  const v = m === null ? NaN : Number(m[1]);
  if (!(v >= 0 && v <= 100)) throw new UsageError(`${flag} must be a percentage from 0% to 100% (as 1% or 0.5), received "${text}"`);
  return v / 100;
}

/** The `--replay` flag (default `two-phase`). Throws UsageError. */
function scopeFlag(text: string | undefined): BudgetScope {
  if (text === undefined) return 'two-phase';
  const scope = BUDGET_SCOPES.find((s) => s === text);
  if (scope === undefined) throw new UsageError(`--replay must be one of ${BUDGET_SCOPES.join(', ')}, received "${text}"`);
  return scope;
}

/** The `--min-weight` flag: a number from 0 to 1.5 (the highest weight tried), default DEFAULT_MIN_KIND_WEIGHT. Throws UsageError. */
function minWeightFlag(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MIN_KIND_WEIGHT;
  const v = /^(\d+(?:\.\d+)?|\.\d+)$/.test(text.trim()) ? Number(text) : NaN;
  if (!(v >= 0 && v <= 1.5)) throw new UsageError(`--min-weight must be a number from 0 to 1.5 (0 lets a fit set a kind aside), received "${text}"`);
  return v;
}

/** Parses `loopwatch calibrate` arguments. Throws UsageError. */
export function parseCalibrateArgs(args: readonly string[]): CalibrateCommandSettings {
  const { values: v, positionals } = parseFlags(args, CALIBRATE_FLAGS, true);
  if (positionals.length === 0) throw new UsageError('name the folder of labelled runs: loopwatch calibrate DIR [DIR...]');
  if (positionals.length > 1 && v.labels !== undefined) throw new UsageError(`--labels names the label file of one folder, received ${positionals.length} folders (each holds its own sessions.jsonl)`);
  const families: FamilyOverride[] = [];
  for (const text of (v.family ?? []) as string[]) {
    const o = parseFamilyOverride(text);
    if (o === null) throw new UsageError(`--family must be PATTERN=FAMILY (agents whose name contains PATTERN are in FAMILY), received "${text}"`);
    families.push(o);
  }
  const output = stringOf(v, 'output');
  if (output === '') throw new UsageError('-o needs a file name');
  return {
    dirs: positionals,
    labels: stringOf(v, 'labels'),
    preset: stringOf(v, 'preset'),
    config: stringOf(v, 'config'),
    maxFalseAlarms: percentFlag('--max-false-alarms', stringOf(v, 'max-false-alarms'), 0.01) as number,
    maxWarnings: percentFlag('--max-warnings', stringOf(v, 'max-warnings'), undefined),
    budgetScope: scopeFlag(stringOf(v, 'replay')),
    holdOther: v['hold-other'] === true,
    folds: integerFlag('--folds', stringOf(v, 'folds'), 5, 2, 100),
    seed: integerFlag('--seed', stringOf(v, 'seed'), 1, 0, 2 ** 32 - 1),
    restarts: integerFlag('--restarts', stringOf(v, 'restarts'), 2, 0, 100),
    minKindWeight: minWeightFlag(stringOf(v, 'min-weight')),
    changeCost: integerFlag('--change-cost', stringOf(v, 'change-cost'), CHANGE_COST, 0, 1_000_000),
    families,
    perFamily: v['per-family'] === true ? integerFlag('--min-family-runs', stringOf(v, 'min-family-runs'), MIN_FAMILY_RUNS, 2, 1_000_000) : undefined,
    output,
    json: v.json === true,
    allowSkipped: v['allow-skipped'] === true,
  };
}

/** The command line as the config records it. */
function commandLine(args: readonly string[]): string {
  return ['loopwatch', 'calibrate', ...args].map(shellQuote).join(' ');
}

/** Runs a calibration as parsed; resolves to the exit code. */
export async function runCalibrate(s: CalibrateCommandSettings, io: CommandIo, args: readonly string[] = []): Promise<number> {
  const start = detectionOptions(s.preset, s.config);
  const file = s.config === undefined ? undefined : readConfig(s.config);
  // the config's file is opened before anything is read, as scan's outputs are: a path that cannot be written
  // is a usage error now, not after the whole search; it is emptied and written only at the end
  const out = s.output === undefined ? undefined : pendingOutputFile(s.output, '-o');
  try {
    return await calibrateInto(s, io, args, start, file, out);
  } finally {
    out?.abandon();
  }
}

/** runCalibrate once its starting options are known and its config's file (if any) is open. */
async function calibrateInto(
  s: CalibrateCommandSettings,
  io: CommandIo,
  args: readonly string[],
  start: ReturnType<typeof detectionOptions>,
  file: ReturnType<typeof readConfig> | undefined,
  out: PendingOutput | undefined,
): Promise<number> {
  const progress = io.stderr.isTTY === true ? (line: string) => io.stderr.write(`loopwatch calibrate: ${line}\n`) : undefined;
  let result;
  try {
    result = await calibrate({ dir: s.dirs, labels: s.labels, start, maxFalseAlarms: s.maxFalseAlarms, maxWarnings: s.maxWarnings, budgetScope: s.budgetScope, holdOther: s.holdOther, folds: s.folds, seed: s.seed, restarts: s.restarts, minKindWeight: s.minKindWeight, changeCost: s.changeCost, families: s.families, perFamily: s.perFamily, progress });
  } catch (e) {
    if (e instanceof EvalSourceError || e instanceof CalibrateError) throw new UsageError(e.message);
    throw e;
  }
  // as eval prints them: secrets redacted, control characters escaped
  const safe = (text: string): string => terminalSafe(redactSecrets(text));
  for (const i of result.issues) io.stderr.write(`${safe(i.file)}${i.line > 0 ? `:${i.line}` : ''}: skipped (${i.code}): ${safe(i.message)}\n`);
  const config = `${JSON.stringify(calibratedConfig(result, { preset: s.preset ?? file?.preset, options: file?.options }, commandLine(args), new Date()), null, 2)}\n`;
  const report = s.json ? calibrateJson(result) : calibrateText(result, s.output);
  if (out !== undefined) {
    try {
      out.write(config);
    } catch (e) {
      throw new UsageError(`-o ${out.path}: cannot write the config (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    io.stdout.write(report);
  } else {
    io.stdout.write(config);
    io.stderr.write(report);
  }
  return result.data.skipped > 0 && !s.allowSkipped ? 2 : 0;
}

/** `loopwatch calibrate DIR [DIR...] [options]`. */
export async function calibrateCommand(args: readonly string[], io: CommandIo): Promise<number> {
  return runCalibrate(parseCalibrateArgs(args), io, args);
}
