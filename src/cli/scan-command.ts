/**
 * `loopwatch scan [paths... | -]`: reads recorded trajectories (any supported format, plain or gzip, files
 * or folders), checks every call with the worker pool, and reports: a summary on the terminal, one JSON line
 * per verdict (`--jsonl`), or one JSON document (`--json`), on stdout or into `--output FILE`. Exit codes
 * and their precedence: scan/exit-code.ts. Ctrl-C stops reading; what was read is still checked and
 * summarised.
 */
import { availableParallelism } from 'node:os';
import { FORMAT_NAMES, type FormatName, readInputs } from '../formats/read-inputs.js';
import type { TraceItem } from '../formats/trace-record.js';
import { SPECIFICITY } from '../policy/fuse.js';
import type { LoopAction, Verdict } from '../types.js';
import { detectionOptions } from './detection-options.js';
import { shownOutput } from './redaction.js';
import { type FlagSpec, choiceFlag, integerFlag, listFlag, parseFlags, stringOf } from './flags.js';
import { JsonDocumentWriter, verdictLine } from './render/machine-output.js';
import { reportTarget } from './render/output-file.js';
import { ProgressBar } from './render/progress-bar.js';
import { summaryText } from './render/summary-text.js';
import { scanExitCode } from './scan/exit-code.js';
import { inputBytes } from './scan/input-size.js';
import { type CallSite, type ScanSink, type ScanTotals, runScan } from './scan/scan-pipeline.js';
import { DEFAULT_TOP, type ScanSummary, type SessionReport } from './scan/scan-summary.js';
import { MAX_LIVE_SESSIONS, checkerThreads, sessionChecker } from './scan/session-checker.js';
import { UsageError } from './usage-error.js';

/** Where a command writes. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Ctrl-C: called with a function that stops the run gracefully; returns a function that stops listening. */
  readonly onInterrupt?: (stop: () => void) => () => void;
}

const ACTIONS: readonly LoopAction[] = ['warn', 'ask', 'break'];
/** Calls per batch handed to the checker. */
export const DEFAULT_BATCH = 1024;
/** Sessions checked at once by default. */
export const DEFAULT_MAX_SESSIONS = 100_000;
/** Largest `--batch-size`: the pool queues at most this many calls at once anyway. */
export const MAX_BATCH = 65_536;
/** Largest `--workers`. */
export const MAX_WORKERS = 256;

/** The flags of `loopwatch scan`. */
const SCAN_FLAGS: FlagSpec = {
  format: { type: 'string' },
  workers: { type: 'string' },
  preset: { type: 'string' },
  config: { type: 'string' },
  'min-action': { type: 'string' },
  'fail-on': { type: 'string' },
  jsonl: { type: 'boolean' },
  json: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  top: { type: 'string' },
  action: { type: 'string', multiple: true },
  kind: { type: 'string', multiple: true },
  'allow-skipped': { type: 'boolean' },
  'allow-empty': { type: 'boolean' },
  'max-sessions': { type: 'string' },
  'batch-size': { type: 'string' },
  'no-progress': { type: 'boolean' },
  'no-redact': { type: 'boolean' },
};

/** Options of a scan, parsed and checked. */
export interface ScanSettings {
  readonly paths: readonly string[];
  readonly format: FormatName | undefined;
  readonly workers: number;
  /** Whether `--workers` was given (a lowered count is then said on stderr). */
  readonly workersGiven?: boolean;
  readonly preset: string | undefined;
  readonly config: string | undefined;
  readonly minAction: LoopAction;
  readonly failOn: LoopAction | 'never';
  /** What the report is: the summary, verdict lines, the JSON document, or nothing (the caller prints). */
  readonly output: 'summary' | 'jsonl' | 'json' | 'none';
  /** Where the report goes (`--output`); stdout when undefined. */
  readonly outputFile?: string | undefined;
  /** Worst sessions and tools listed in the summary. */
  readonly top?: number;
  /** Only verdicts of these actions, and sessions whose highest action is one of them, are listed (null: all). */
  readonly actions?: readonly LoopAction[] | null;
  /** Only verdicts of these kinds, and sessions with a verdict of one of them, are listed (null: all). */
  readonly kinds?: readonly string[] | null;
  /** Skipped input does not decide the exit code. */
  readonly allowSkipped?: boolean;
  /** Inputs without a tool call are no error. */
  readonly allowEmpty?: boolean;
  readonly maxSessions: number;
  readonly batchSize: number;
  readonly progress: boolean;
  /** Print tool names, verdicts and messages about skipped input as they are (`--no-redact`). */
  readonly noRedact?: boolean;
}

/** Parses `loopwatch scan` arguments. Throws UsageError naming the flag. */
export function parseScanArgs(args: readonly string[], stdinIsTty: boolean): ScanSettings {
  const parsed = parseFlags(args, SCAN_FLAGS, true);
  const v = parsed.values;
  if (v.json === true && v.jsonl === true) throw new UsageError('--json and --jsonl cannot be used together');
  const paths = parsed.positionals.length > 0 ? parsed.positionals : stdinIsTty ? [] : ['-'];
  if (paths.length === 0) throw new UsageError('nothing to scan: give files or folders, or - (or pipe input) to read standard input');
  const format = stringOf(v, 'format');
  const output = stringOf(v, 'output');
  if (output === '') throw new UsageError('--output needs a file name');
  return {
    paths,
    format: format === undefined ? undefined : choiceFlag('--format', format, 'events', FORMAT_NAMES),
    workers: integerFlag('--workers', stringOf(v, 'workers'), availableParallelism(), 0, MAX_WORKERS),
    workersGiven: v.workers !== undefined,
    preset: stringOf(v, 'preset'),
    config: stringOf(v, 'config'),
    minAction: choiceFlag('--min-action', stringOf(v, 'min-action'), 'warn', ACTIONS),
    failOn: choiceFlag<LoopAction | 'never'>('--fail-on', stringOf(v, 'fail-on'), 'break', [...ACTIONS, 'never']),
    output: v.json === true ? 'json' : v.jsonl === true ? 'jsonl' : 'summary',
    outputFile: output,
    top: integerFlag('--top', stringOf(v, 'top'), DEFAULT_TOP, 0, 10_000),
    actions: listFlag('--action', v.action as string[] | undefined, ACTIONS),
    kinds: listFlag('--kind', v.kind as string[] | undefined, SPECIFICITY),
    allowSkipped: v['allow-skipped'] === true,
    allowEmpty: v['allow-empty'] === true,
    maxSessions: integerFlag('--max-sessions', stringOf(v, 'max-sessions'), DEFAULT_MAX_SESSIONS, 1, MAX_LIVE_SESSIONS),
    batchSize: integerFlag('--batch-size', stringOf(v, 'batch-size'), DEFAULT_BATCH, 1, MAX_BATCH),
    progress: v['no-progress'] !== true,
    noRedact: v['no-redact'] === true,
  };
}

/** Resolves once `out` can take more (at once when it can, or when it has closed or failed). */
export function drained(out: NodeJS.WritableStream): Promise<void> | undefined {
  const w = out as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
  if (w.writableNeedDrain !== true || w.destroyed === true) return undefined;
  return new Promise<void>((resolve) => {
    const done = (): void => {
      w.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    w.on('drain', done).on('close', done).on('error', done);
  });
}

/** The outcome of a scan, for callers that print more (the demo). */
export interface ScanOutcome {
  readonly totals: ScanTotals;
  readonly summary: ScanSummary;
  readonly exitCode: number;
}

/** Extras of a scan run. */
export interface ScanHooks {
  /** Bytes of input in all, when known (for the progress bar's ETA). */
  readonly totalBytes?: number | null;
  /** Bytes of input read so far. */
  readonly bytesRead?: () => number;
  /** Called with every reported verdict, in input order. */
  readonly onVerdict?: (v: Verdict, call: CallSite, index: number) => void;
}

/** Whether a session passes the `--action` and `--kind` filters. */
function listedBy(settings: ScanSettings): (r: SessionReport) => boolean {
  const { actions = null, kinds = null } = settings;
  return (r) => (actions === null || (r.worstAction !== null && actions.includes(r.worstAction))) && (kinds === null || r.kinds.some((k) => kinds.includes(k)));
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Runs a scan of `items` with `settings`, writing the report; resolves to the outcome and exit code. */
export async function scanItems(items: AsyncIterable<TraceItem>, settings: ScanSettings, io: CommandIo, hooks: ScanHooks = {}): Promise<ScanOutcome> {
  const { totalBytes = null, bytesRead = () => 0, onVerdict } = hooks;
  const shown = shownOutput(detectionOptions(settings.preset, settings.config), settings.noRedact === true);
  const options = shown.options;
  const target = reportTarget(settings.outputFile, io.stdout);
  const out = target.stream;
  const threads = checkerThreads(settings.workers, settings.maxSessions);
  if (threads < settings.workers && settings.workersGiven === true) {
    io.stderr.write(`loopwatch: --workers ${settings.workers} lowered to ${threads}: each thread must be able to hold all --max-sessions ${settings.maxSessions} live sessions, and all threads together at most ${MAX_LIVE_SESSIONS + 1}\n`);
  }
  const checker = sessionChecker(options, threads, settings.maxSessions);
  const bar = settings.progress && !(settings.output === 'jsonl' && out === io.stdout) && io.stderr.isTTY === true ? new ProgressBar(io.stderr, totalBytes) : null;
  const listed = listedBy(settings);
  const { actions = null, kinds = null } = settings;
  const doc = settings.output === 'json' ? new JsonDocumentWriter((t) => out.write(t)) : null;
  const stop = new AbortController();
  const unlisten = io.onInterrupt?.(() => {
    stop.abort();
    bar?.clear();
    io.stderr.write('loopwatch: interrupted; finishing the calls already read (Ctrl-C again to quit at once)\n');
  });
  let scanned = 0;
  const sink: ScanSink = {
    verdict: (v, call, index) => {
      onVerdict?.(v, call, index);
      if (settings.output !== 'jsonl' || (actions !== null && !actions.includes(v.action)) || (kinds !== null && !kinds.includes(v.kind))) return;
      out.write(verdictLine(v, call, index) + '\n');
    },
    issue: (i) => {
      bar?.clear();
      io.stderr.write(`${i.file}${i.line > 0 ? `:${i.line}` : ''}: skipped (${i.code}): ${shown.text(i.message)}\n`);
    },
    sessionDone: (r) => {
      if (doc !== null && listed(r)) doc.session(r);
    },
    batchDone: (calls) => {
      scanned += calls;
      bar?.update(scanned, bytesRead());
      // output waits for a slow reader instead of piling up in memory (not for one that is gone)
      return drained(out);
    },
  };
  let totals: ScanTotals;
  try {
    const plan = { minAction: settings.minAction, maxLive: settings.maxSessions, batchSize: settings.batchSize, top: settings.top ?? DEFAULT_TOP, listed, signal: stop.signal, toolName: shown.tool };
    totals = await runScan(items, checker, plan, sink);
  } finally {
    unlisten?.();
    bar?.clear();
    await checker.close();
  }
  const summary = totals.aggregate.summary(totals);
  if (doc !== null) doc.end(summary);
  else if (settings.output === 'summary') {
    const width = out.isTTY === true ? (out.columns ?? 80) : Infinity;
    out.write(summaryText(summary, { minAction: settings.minAction, width, interrupted: totals.stopped }) + '\n');
  }
  await target.close();
  if (totals.evicted > 0) io.stderr.write(`loopwatch: ${plural(totals.evicted, 'session was', 'sessions were')} ended early to keep at most ${settings.maxSessions} live (--max-sessions)\n`);
  const failing = settings.failOn === 'never' ? 0 : totals.aggregate.reached[settings.failOn];
  const exit = scanExitCode({ interrupted: totals.stopped, skipped: totals.issues, calls: totals.events, failing, allowSkipped: settings.allowSkipped === true, allowEmpty: settings.allowEmpty === true });
  if (exit.why !== null) io.stderr.write(`loopwatch: ${exit.why}; exit code ${exit.code}\n`);
  else if (totals.issues > 0) io.stderr.write(`loopwatch: ${plural(totals.issues, 'line, element, input or call was', 'lines, elements, inputs or calls were')} skipped (named above)\n`);
  return { totals, summary, exitCode: exit.code };
}

/** `loopwatch scan`: resolves to the exit code. */
export async function scanCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const settings = parseScanArgs(args, io.stdin.isTTY === true);
  detectionOptions(settings.preset, settings.config); // usage errors before any input is read
  let read = 0;
  const items = readInputs(settings.paths, { ...(settings.format === undefined ? {} : { format: settings.format }), stdin: io.stdin, onBytes: (n) => (read += n) });
  return (await scanItems(items, settings, io, { totalBytes: inputBytes(settings.paths), bytesRead: () => read })).exitCode;
}
