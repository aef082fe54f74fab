/**
 * `loopwatch scan` end to end: calls per second of a whole CLI child process (Node's start, the module
 * loader, reading, decompressing and parsing the input, every default detector, the verdict lines written)
 * over the real agent traces in `../shared/data/traces` repeated {@link SCAN_COPIES} times with their sessions
 * renamed per copy (`x0/...`, `x1/...`: issue 29's input, large enough to amortise start and decompression),
 * as plain JSON Lines and as gzip, with `--workers 1`, `--workers 2` and the default thread count. The inputs
 * are written into a scratch folder first (no labels file beside them), removed afterwards. Variants are
 * run in turn, round after round, so a burst of load on a shared machine falls on all of them; each figure
 * is the median of the rounds with their spread, with the CPU time of all the child's threads over its
 * wall time (cores kept busy), that CPU split into the main thread, the busiest other (a worker) and the
 * rest (V8's compiler and collector helpers), and the load average before and after.
 *
 * Alone: `node dist/bench/scan-end-to-end.js [rounds] [copies]` prints the table.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip, gunzipSync } from 'node:zlib';
import { defaultTraceDir } from '../src/eval/trace-dir.js';
import { defaultCheckerThreads } from '../src/cli/scan/session-checker.js';
import { median } from './bench-stats.js';

/** The command as the package's `bin` runs it: the bundle (scripts/build-cli.mjs). */
const CLI = fileURLToPath(new URL('../src/bin/loopwatch.js', import.meta.url));
/** Preloaded into each child to report its CPU time. */
const CPU_AT_EXIT = new URL('./cpu-at-exit.js', import.meta.url).href;

/** Copies of the traces in the scanned input (issue 29: ten). */
export const SCAN_COPIES = 10;

/** One variant's figures. */
export interface ScanFigure {
  /** `plain JSONL` or `gzip`. */
  readonly input: string;
  /** `1`, `2`, with `(default)` on the one the default chose. */
  readonly workers: string;
  readonly calls: number;
  readonly inputBytes: number;
  /** Median wall time of the child process, start to exit. */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Calls over the median wall time. */
  readonly callsPerSecond: number;
  /** Median over the rounds of the child's CPU time (all threads, user + system) over its wall time. */
  readonly coresBusy: number;
  /** Median peak resident memory, MB. */
  readonly maxRssMb: number;
  /**
   * Median CPU seconds of the main thread, of the busiest other thread (with `--workers 2`, the worker) and
   * of the rest (V8's compiler and collector helpers, libuv's); NaN where /proc is not there.
   */
  readonly mainCpuS: number;
  readonly busiestOtherCpuS: number;
  readonly restCpuS: number;
}

/** What the scope measured, and the machine's load around it. */
export interface ScanBench {
  readonly figures: readonly ScanFigure[];
  readonly rounds: number;
  readonly copies: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

/** One run: wall ms, CPU ms of all threads, peak RSS KB; throws when the scan fails. */
interface Run {
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssKb: number;
  readonly mainMs: number;
  readonly busiestOtherMs: number;
  readonly restMs: number;
}

/** Runs `loopwatch scan FILE --jsonl` in a child (output discarded). */
function scanOnce(file: string, workers: readonly string[], cpuFile: string): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, CLI, 'scan', file, '--jsonl', '--fail-on', 'never', '--no-progress', ...workers], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, LOOPWATCH_BENCH_CPU_FILE: cpuFile },
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`loopwatch scan ${file} ${workers.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8')) as { userMs: number; systemMs: number; maxRssKb: number; mainMs: number | null; othersMs: number[] };
  const others = cpu.othersMs;
  return {
    ms,
    cpuMs: cpu.userMs + cpu.systemMs,
    rssKb: cpu.maxRssKb,
    mainMs: cpu.mainMs ?? NaN,
    busiestOtherMs: others[0] ?? NaN,
    restMs: others.length === 0 ? NaN : others.slice(1).reduce((a, b) => a + b, 0),
  };
}

/** The session id prefix of each record line: how the traces' lines begin (checked, else parsed and rewritten). */
const SESSION_HEAD = '{"session": "';

/** The traces' lines with their sessions renamed for copy `k` (`xk/<id>`), bytes otherwise as they were. */
function renamedCopy(lines: readonly string[], k: number): string {
  const out: string[] = [];
  for (const l of lines) {
    if (l.trim() === '') continue;
    if (l.startsWith(SESSION_HEAD)) out.push(`${SESSION_HEAD}x${k}/${l.slice(SESSION_HEAD.length)}`);
    else {
      const r = JSON.parse(l) as Record<string, unknown>;
      out.push(JSON.stringify({ ...r, session: `x${k}/${String(r.session)}` }));
    }
  }
  return `${out.join('\n')}\n`;
}

/** Writes the `copies`-fold input as `plain` and gzips it into `gz`; resolves to its calls. */
export async function writeCopies(traceDir: string, copies: number, plain: string, gz: string): Promise<number> {
  const lines = gunzipSync(readFileSync(join(traceDir, 'events.jsonl.gz'))).toString('utf8').split('\n');
  const fd = openSync(plain, 'w');
  let calls = 0;
  try {
    for (let k = 0; k < copies; k++) {
      const text = renamedCopy(lines, k);
      calls += text.split('\n').length - 1;
      writeSync(fd, text);
    }
  } finally {
    closeSync(fd);
  }
  await pipeline(createReadStream(plain), createGzip(), createWriteStream(gz));
  return calls;
}

/** The figures over `rounds` alternating rounds of `copies` copies of the traces; null when the traces are absent. */
export async function scanFigures(rounds: number, defaultThreads: number, copies: number = SCAN_COPIES): Promise<ScanBench | null> {
  const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (dir === null) return null;
  const scratch = mkdtempSync(join(os.tmpdir(), 'loopwatch-scan-bench-'));
  try {
    const gz = join(scratch, 'events.jsonl.gz');
    const plain = join(scratch, 'events.jsonl');
    const cpuFile = join(scratch, 'cpu.json');
    const calls = await writeCopies(dir, copies, plain, gz);
    const counts = [...new Set([1, 2, defaultThreads])];
    const label = (n: number): string => (n === defaultThreads ? `${n} (default)` : String(n));
    const variants = [plain, gz].flatMap((file) => counts.map((n) => ({ input: file === gz ? 'gzip' : 'plain JSONL', file, workers: label(n), flags: ['--workers', String(n)] })));
    const loadBefore = os.loadavg()[0] as number;
    scanOnce(plain, ['--workers', '1'], cpuFile); // a first run to warm the file cache, not counted
    const runs = variants.map(() => [] as Run[]);
    for (let r = 0; r < rounds; r++) variants.forEach((v, i) => runs[i]?.push(scanOnce(v.file, v.flags, cpuFile)));
    const loadAfter = os.loadavg()[0] as number;
    const figures = variants.map((v, i) => {
      const rs = runs[i] as Run[];
      const t = rs.map((x) => x.ms);
      const m = median(t);
      return {
        input: v.input,
        workers: v.workers,
        calls,
        inputBytes: readFileSync(v.file).length,
        medianMs: m,
        minMs: Math.min(...t),
        maxMs: Math.max(...t),
        callsPerSecond: calls / (m / 1000),
        coresBusy: median(rs.map((x) => x.cpuMs / x.ms)),
        maxRssMb: median(rs.map((x) => x.rssKb / 1024)),
        mainCpuS: median(rs.map((x) => x.mainMs / 1000)),
        busiestOtherCpuS: median(rs.map((x) => x.busiestOtherMs / 1000)),
        restCpuS: median(rs.map((x) => x.restMs / 1000)),
      };
    });
    return { figures, rounds, copies, loadBefore, loadAfter };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The scope's table (Markdown), or the skip message. */
export function scanTable(bench: ScanBench | null): string {
  const head = '\n## scan: `loopwatch scan FILE --jsonl` end to end, every default detector';
  if (bench === null) return `${head}\nskipped: ../shared/data/traces is absent`;
  const { figures, rounds, copies, loadBefore, loadAfter } = bench;
  const rows = figures.map(
    (f) =>
      `| ${f.input} (${(f.inputBytes / 1e6).toFixed(1)} MB) | ${f.workers} | ${f.calls.toLocaleString('en')} | ${(f.medianMs / 1000).toFixed(2)} s | ${Math.round(f.callsPerSecond).toLocaleString('en')} | ${(f.minMs / 1000).toFixed(2)}-${(f.maxMs / 1000).toFixed(2)} s | ${f.coresBusy.toFixed(2)} | ${f.mainCpuS.toFixed(1)} / ${f.busiestOtherCpuS.toFixed(1)} / ${f.restCpuS.toFixed(1)} s | ${Math.round(f.maxRssMb)} MB |`,
  );
  return [
    head,
    `the traces ${copies} times over, sessions renamed per copy; a whole child process per run (start, module loading, reading, detection, output to /dev/null); medians of ${rounds} alternating rounds; cores busy = CPU time of all threads / wall; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
    '| input | --workers | calls | wall (median) | calls/s | runs (min-max) | cores busy | CPU: main / busiest other thread / rest | peak RSS |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 3);
  const copies = Number(process.argv[3] ?? SCAN_COPIES);
  console.log(scanTable(await scanFigures(rounds, defaultCheckerThreads(os.availableParallelism()), copies)));
}
