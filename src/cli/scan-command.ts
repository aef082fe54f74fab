/**
 * `loopwatch scan [paths... | -]`: reads recorded trajectories (any supported format, plain or gzip, files
 * or folders), checks every call with the worker pool, and reports: a summary on the terminal, one JSON line
 * per verdict (`--jsonl`), or one JSON document (`--json`). Exit code 0 when no session reached `--fail-on`,
 * 1 when one did, 2 on usage errors or when input was skipped (each skip is named on stderr).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { STDIN_PATH, TRACE_FILE } from '../formats/list-inputs.js';
import { FORMAT_NAMES, type FormatName, readInputs } from '../formats/read-inputs.js';
import type { TraceCall, TraceItem } from '../formats/trace-record.js';
import type { LoopAction, Verdict } from '../types.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, choiceFlag, integerFlag, parseFlags, stringOf } from './flags.js';
import { scanDocument, verdictLine } from './render/machine-output.js';
import { ProgressBar } from './render/progress-bar.js';
import { summaryText } from './render/summary-text.js';
import { type ScanSink, type ScanTotals, runScan } from './scan/scan-pipeline.js';
import { type ScanSummary, summarise } from './scan/scan-summary.js';
import { MAX_LIVE_SESSIONS, checkerThreads, sessionChecker } from './scan/session-checker.js';
import { UsageError } from './usage-error.js';

/** Where a command writes. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
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
  'max-sessions': { type: 'string' },
  'batch-size': { type: 'string' },
  'no-progress': { type: 'boolean' },
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
  /** What goes to stdout: the report, verdict lines, the JSON document, or nothing (the caller prints). */
  readonly output: 'summary' | 'jsonl' | 'json' | 'none';
  readonly maxSessions: number;
  readonly batchSize: number;
  readonly progress: boolean;
}

/** Parses `loopwatch scan` arguments. Throws UsageError naming the flag. */
export function parseScanArgs(args: readonly string[], stdinIsTty: boolean): ScanSettings {
  const parsed = parseFlags(args, SCAN_FLAGS, true);
  const v = parsed.values;
  if (v.json === true && v.jsonl === true) throw new UsageError('--json and --jsonl cannot be used together');
  const paths = parsed.positionals.length > 0 ? parsed.positionals : stdinIsTty ? [] : ['-'];
  if (paths.length === 0) throw new UsageError('nothing to scan: give files or folders, or - (or pipe input) to read standard input');
  const format = stringOf(v, 'format');
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
    maxSessions: integerFlag('--max-sessions', stringOf(v, 'max-sessions'), DEFAULT_MAX_SESSIONS, 1, MAX_LIVE_SESSIONS),
    batchSize: integerFlag('--batch-size', stringOf(v, 'batch-size'), DEFAULT_BATCH, 1, MAX_BATCH),
    progress: v['no-progress'] !== true,
  };
}

/** Bytes of the trace files under `path` (a file, or a folder walked as the readers walk it). */
function bytesUnder(path: string): number {
  const s = statSync(path);
  if (s.isFile()) return s.size;
  if (!s.isDirectory()) return 0;
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += bytesUnder(child);
    else if (entry.isFile() && TRACE_FILE.test(entry.name)) total += statSync(child).size;
  }
  return total;
}

/** Total bytes of the inputs, for the progress bar's ETA (null with standard input, or when unknown). */
function inputBytes(paths: readonly string[]): number | null {
  let total = 0;
  for (const p of paths) {
    if (p === STDIN_PATH) return null;
    try {
      total += bytesUnder(p);
    } catch {
      // a missing path is reported by the readers
    }
  }
  return total;
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
  readonly onVerdict?: (v: Verdict, call: TraceCall, index: number) => void;
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

/** Runs a scan of `items` with `settings`, writing the report to `io`; resolves to the outcome and exit code. */
export async function scanItems(items: AsyncIterable<TraceItem>, settings: ScanSettings, io: CommandIo, hooks: ScanHooks = {}): Promise<ScanOutcome> {
  const { totalBytes = null, bytesRead = () => 0, onVerdict } = hooks;
  const options = detectionOptions(settings.preset, settings.config);
  const threads = checkerThreads(settings.workers, settings.maxSessions);
  if (threads < settings.workers && settings.workersGiven === true) {
    io.stderr.write(`loopwatch: --workers ${settings.workers} lowered to ${threads}: each thread must be able to hold all --max-sessions ${settings.maxSessions} live sessions, and all threads together at most ${MAX_LIVE_SESSIONS + 1}\n`);
  }
  const checker = sessionChecker(options, threads, settings.maxSessions);
  const bar = settings.progress && settings.output !== 'jsonl' && io.stderr.isTTY === true ? new ProgressBar(io.stderr, totalBytes) : null;
  let scanned = 0;
  const sink: ScanSink = {
    verdict: (v, call, index) => {
      onVerdict?.(v, call, index);
      if (settings.output === 'jsonl') io.stdout.write(verdictLine(v, call, index) + '\n');
    },
    issue: (i) => {
      bar?.clear();
      io.stderr.write(`${i.file}${i.line > 0 ? `:${i.line}` : ''}: skipped (${i.code}): ${i.message}\n`);
    },
    batchDone: (calls) => {
      scanned += calls;
      bar?.update(scanned, bytesRead());
      // verdict lines wait for a slow reader instead of piling up in memory (not for one that is gone)
      return drained(io.stdout);
    },
  };
  let totals: ScanTotals;
  try {
    totals = await runScan(items, checker, { minAction: settings.minAction, maxLive: settings.maxSessions, batchSize: settings.batchSize }, sink);
  } finally {
    bar?.clear();
    await checker.close();
  }
  const summary = summarise(totals);
  if (settings.output === 'json') io.stdout.write(scanDocument(summary, totals.sessions) + '\n');
  else if (settings.output === 'summary') io.stdout.write(summaryText(summary, { minAction: settings.minAction }) + '\n');
  if (totals.events === 0 && totals.issues === 0) io.stderr.write('loopwatch: no tool calls found in the inputs (folders are searched for .jsonl, .ndjson, .json and .traj files, optionally .gz)\n');
  if (totals.evicted > 0) io.stderr.write(`loopwatch: ${totals.evicted} sessions were ended early to keep at most ${settings.maxSessions} live (--max-sessions)\n`);
  const failed = settings.failOn !== 'never' && totals.sessions.some((t) => t.reached(settings.failOn as LoopAction));
  const exitCode = totals.issues > 0 ? 2 : failed ? 1 : 0;
  if (totals.issues > 0) io.stderr.write(`loopwatch: ${totals.issues} lines, elements or inputs were skipped (named above); exit code 2\n`);
  return { totals, summary, exitCode };
}

/** `loopwatch scan`: resolves to the exit code. */
export async function scanCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const settings = parseScanArgs(args, io.stdin.isTTY === true);
  detectionOptions(settings.preset, settings.config); // usage errors before any input is read
  let read = 0;
  const items = readInputs(settings.paths, { ...(settings.format === undefined ? {} : { format: settings.format }), stdin: io.stdin, onBytes: (n) => (read += n) });
  return (await scanItems(items, settings, io, { totalBytes: inputBytes(settings.paths), bytesRead: () => read })).exitCode;
}
