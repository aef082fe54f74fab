/**
 * `loopwatch eval DIR`: measures loopwatch on a folder of labelled runs (any format the scan readers know,
 * plus a `sessions.jsonl` saying how each run ended): per family and overall, one-phase and two-phase, each
 * share with its 95% interval, and the runs behind each false alarm, each warning on an interactive session,
 * each miss and each resolved run broken (`--json` for tools,
 * `--list` for the ids alone). Exit code 0; 2 on a usage error, no labels, no labelled run, or input
 * skipped (named on stderr) unless `--allow-skipped`.
 */
import { CURVE_PRESETS, type CurvePoint, type CurvePolicy, evaluateCurve } from '../eval/eval-curve.js';
import { type EvalReport, evaluate } from '../eval/eval-report.js';
import { EvalSourceError, openEvalSource } from '../eval/eval-source.js';
import { type FamilyOverride, parseFamilyOverride } from '../eval/families.js';
import { detectionOptions, familyDetection } from './detection-options.js';
import { type FlagSpec, choiceFlag, integerFlag, parseFlags, stringOf } from './flags.js';
import { curveText } from './render/curve-text.js';
import { writeCurvePage } from './render/curve-page.js';
import { type PendingOutput, pendingOutputFile } from './render/pending-output.js';
import { evalText, listText } from './render/eval-text.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { CommandIo } from './scan-command.js';
import { UsageError } from './usage-error.js';
import { redactSecrets } from '../text/redact.js';
import { jsonSafe, terminalSafe } from '../text/terminal-text.js';

const EVAL_FLAGS: FlagSpec = {
  labels: { type: 'string' },
  preset: { type: 'string' },
  config: { type: 'string' },
  family: { type: 'string', multiple: true },
  by: { type: 'string' },
  json: { type: 'boolean' },
  curve: { type: 'boolean' },
  html: { type: 'string' },
  list: { type: 'string' },
  workers: { type: 'string' },
  'allow-skipped': { type: 'boolean' },
};

/** Options of an evaluation, parsed and checked. */
export interface EvalCommandSettings {
  readonly dir: string;
  readonly labels: string | undefined;
  readonly preset: string | undefined;
  readonly config: string | undefined;
  readonly families: readonly FamilyOverride[];
  readonly by: 'family' | 'agent';
  readonly output: 'text' | 'json' | 'false-alarms' | 'warnings' | 'misses' | 'resolved';
  /** Also the curve: every preset's point (and the config's), broken against false alarms and warnings. */
  readonly curve: boolean;
  /** Also an HTML page plotting the curve (implies `curve`). */
  readonly html: string | undefined;
  readonly workers: number;
  readonly allowSkipped: boolean;
  /** The detection engine (the benchmark's `--engine reference`). @default 'wasm' */
  readonly engine?: 'wasm' | 'reference';
}

/** Parses `loopwatch eval` arguments. Throws UsageError. */
export function parseEvalArgs(args: readonly string[]): EvalCommandSettings {
  const { values: v, positionals } = parseFlags(args, EVAL_FLAGS, true);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the folder of runs: loopwatch eval DIR' : `one folder at a time, received ${positionals.length} paths`);
  const families: FamilyOverride[] = [];
  for (const text of (v.family ?? []) as string[]) {
    const o = parseFamilyOverride(text);
    if (o === null) throw new UsageError(`--family must be PATTERN=FAMILY (agents whose name contains PATTERN are in FAMILY), received "${text}"`);
    families.push(o);
  }
  if (v.json === true && v.list !== undefined) throw new UsageError('--json and --list cannot be used together');
  const html = stringOf(v, 'html');
  if (html === '') throw new UsageError('--html needs a file name');
  if (v.list !== undefined && (v.curve === true || html !== undefined)) throw new UsageError(`--list and --${html === undefined ? 'curve' : 'html'} cannot be used together`);
  const list = v.list === undefined ? undefined : choiceFlag('--list', stringOf(v, 'list'), 'false-alarms', ['false-alarms', 'warnings', 'misses', 'resolved'] as const);
  return {
    dir: positionals[0] as string,
    labels: stringOf(v, 'labels'),
    preset: stringOf(v, 'preset'),
    config: stringOf(v, 'config'),
    families,
    by: choiceFlag('--by', stringOf(v, 'by'), 'family', ['family', 'agent'] as const),
    output: list ?? (v.json === true ? 'json' : 'text'),
    curve: v.curve === true || html !== undefined,
    html,
    workers: integerFlag('--workers', stringOf(v, 'workers'), 0, 0, 256),
    allowSkipped: v['allow-skipped'] === true,
  };
}

/** Every string of the JSON document redacted, as scan's `--json` shows ids and files. */
const redactStrings = (_key: string, value: unknown): unknown => (typeof value === 'string' ? redactSecrets(value) : value);

/**
 * The report as one JSON document (lists whole; runs without a label: the count and the first 20). Text read
 * from the runs and labels (families, agents, session ids, files) has its secrets redacted and the characters
 * a terminal acts on that JSON leaves raw escaped, as in scan's `--json`.
 */
export function evalJson(r: EvalReport, curve?: readonly CurvePoint[]): string {
  const { unlabelled, issues, notes: _notes, ...rest } = r;
  return `${jsonSafe(JSON.stringify({ ...rest, unlabelled: unlabelled.length, unlabelledFirst: unlabelled.slice(0, 20), skipped: issues.length, ...(curve === undefined ? {} : { curve }) }, redactStrings, 2))}\n`;
}

/** The policies of the curve: the presets, then the evaluated policy when it is none of them (its report reused). */
function curvePolicies(s: EvalCommandSettings, options: LoopDetectorOptions, report: EvalReport): CurvePolicy[] {
  const engine = s.engine === undefined ? {} : { engine: s.engine };
  const mine = s.config === undefined ? (s.preset ?? 'default') : null;
  const out: CurvePolicy[] = CURVE_PRESETS.map((name) => (name === mine ? { name, options, report } : { name, options: { ...detectionOptions(name, undefined), ...engine } }));
  if (mine === null || !CURVE_PRESETS.includes(mine)) out.push({ name: mine ?? (s.config as string), options, report });
  return out;
}

/** Runs an evaluation as parsed; resolves to the exit code. */
export async function runEval(s: EvalCommandSettings, io: CommandIo): Promise<number> {
  const found = familyDetection(s.preset, s.config);
  const options = { ...found.pooled, ...(s.engine === undefined ? {} : { engine: s.engine }) };
  // the page's file is opened before anything is read, as scan's outputs are: a path that cannot be written
  // is a usage error now, not after the whole replay; it is emptied and written only at the end
  const page = s.html === undefined ? undefined : pendingOutputFile(s.html, '--html');
  try {
    return await evaluateInto(s, io, options, found.families, page);
  } finally {
    page?.abandon();
  }
}

/** runEval once its options are known and its page's file (if any) is open. */
async function evaluateInto(
  s: EvalCommandSettings,
  io: CommandIo,
  options: LoopDetectorOptions,
  familyOptions: ReturnType<typeof familyDetection>['families'],
  page: PendingOutput | undefined,
): Promise<number> {
  let source;
  try {
    source = await openEvalSource(s.dir, s.labels);
  } catch (e) {
    if (e instanceof EvalSourceError) throw new UsageError(e.message);
    throw e;
  }
  const settings = { workers: s.workers, families: s.families, by: s.by };
  // a config's families: their runs replayed with their own options (the curve stays pooled)
  const report = await evaluate(source, options, { ...settings, familyOptions });
  // as scan prints them: secrets redacted, control characters escaped
  const safe = (text: string): string => terminalSafe(redactSecrets(text));
  for (const i of report.issues) io.stderr.write(`${safe(i.file)}${i.line > 0 ? `:${i.line}` : ''}: skipped (${i.code}): ${safe(i.message)}\n`);
  for (const n of report.notes) io.stderr.write(`${safe(n.file)}${n.line > 0 ? `:${n.line}` : ''}: ${safe(n.message)}\n`);
  if (report.onePhase.overall.sessions === 0) {
    io.stderr.write(`loopwatch eval: no run matched a label of ${source.labelsPath} (${source.inputs.length} run files, ${report.unlabelled.length} runs, ${source.labels.labels.size} labels); labels are matched by session id\n`);
    return 2;
  }
  const curve = s.curve ? await evaluateCurve(source, curvePolicies(s, options, report), settings) : undefined;
  if (page !== undefined && curve !== undefined) writeCurvePage(page, curve, { dir: s.dir, runs: report.onePhase.overall.sessions, calls: report.calls });
  if (s.output === 'json') io.stdout.write(evalJson(report, curve));
  else if (s.output === 'false-alarms') io.stdout.write(listText(report.falseAlarms));
  else if (s.output === 'warnings') io.stdout.write(listText(report.warnings));
  else if (s.output === 'misses') io.stdout.write(listText(report.misses));
  else if (s.output === 'resolved') io.stdout.write(listText(report.resolvedBroken));
  else {
    io.stdout.write(evalText(report, { policy: s.preset ?? (s.config === undefined ? 'default' : s.config), engine: s.engine ?? 'wasm', by: s.by }));
    if (curve !== undefined) io.stdout.write(`\n${curveText(curve)}`);
  }
  return report.issues.length > 0 && !s.allowSkipped ? 2 : 0;
}

/** `loopwatch eval DIR [options]`. */
export async function evalCommand(args: readonly string[], io: CommandIo): Promise<number> {
  return runEval(parseEvalArgs(args), io);
}
