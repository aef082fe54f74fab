/**
 * `loopwatch scan` end to end: calls per second of a whole CLI child process (Node's start, the module
 * loader, reading, decompressing and parsing the input, every default detector, the verdict lines written)
 * over the real agent traces in `../shared/data/traces`, as plain JSON Lines and as the gzip file, with
 * `--workers 1` and with the default thread count. The inputs are copied into a scratch folder first (the
 * plain one gunzipped), so no labels file sits beside them and both read the same calls. Variants are run
 * in turn, round after round, so a burst of load on a shared machine falls on all of them; each figure is
 * the median of the rounds with their spread, and the load average is reported before and after.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { defaultTraceDir } from '../src/eval/trace-dir.js';

/** The command as the package's `bin` runs it: the bundle (scripts/build-cli.mjs). */
const CLI = fileURLToPath(new URL('../src/bin/loopwatch.js', import.meta.url));

/** One variant's figures. */
export interface ScanFigure {
  /** `plain JSONL` or `gzip`. */
  readonly input: string;
  /** `1`, or `default (N)` with the thread count the default chose. */
  readonly workers: string;
  readonly calls: number;
  readonly inputBytes: number;
  /** Median wall time of the child process, start to exit. */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Calls over the median wall time. */
  readonly callsPerSecond: number;
}

/** What the scope measured, and the machine's load around it. */
export interface ScanBench {
  readonly figures: readonly ScanFigure[];
  readonly rounds: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

function median(xs: readonly number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 === 1 ? (v[(v.length - 1) / 2] as number) : ((v[v.length / 2 - 1] as number) + (v[v.length / 2] as number)) / 2;
}

/** Wall milliseconds of one `loopwatch scan FILE --jsonl` child (output discarded); throws when it fails. */
function scanOnce(file: string, workers: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'scan', file, '--jsonl', '--fail-on', 'never', '--no-progress', ...workers], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`loopwatch scan ${file} ${workers.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  return ms;
}

/** The figures over `rounds` alternating rounds; null when the traces are absent. */
export function scanFigures(rounds: number, defaultThreads: number): ScanBench | null {
  const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (dir === null) return null;
  const scratch = mkdtempSync(join(os.tmpdir(), 'loopwatch-scan-bench-'));
  try {
    const gz = join(scratch, 'events.jsonl.gz');
    const plain = join(scratch, 'events.jsonl');
    copyFileSync(join(dir, 'events.jsonl.gz'), gz);
    const text = gunzipSync(readFileSync(gz));
    writeFileSync(plain, text);
    const calls = text.toString('utf8').split('\n').filter((l) => l.trim() !== '').length;
    const variants = [
      { input: 'plain JSONL', file: plain, workers: '1', flags: ['--workers', '1'] },
      { input: 'plain JSONL', file: plain, workers: `default (${defaultThreads})`, flags: [] },
      { input: 'gzip', file: gz, workers: '1', flags: ['--workers', '1'] },
      { input: 'gzip', file: gz, workers: `default (${defaultThreads})`, flags: [] },
    ];
    const loadBefore = os.loadavg()[0] as number;
    scanOnce(plain, ['--workers', '1']); // a first run to warm the file cache, not counted
    const times = variants.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) variants.forEach((v, i) => times[i]?.push(scanOnce(v.file, v.flags)));
    const loadAfter = os.loadavg()[0] as number;
    const figures = variants.map((v, i) => {
      const t = times[i] as number[];
      const m = median(t);
      return { input: v.input, workers: v.workers, calls, inputBytes: v.file === gz ? readFileSync(gz).length : text.length, medianMs: m, minMs: Math.min(...t), maxMs: Math.max(...t), callsPerSecond: calls / (m / 1000) };
    });
    return { figures, rounds, loadBefore, loadAfter };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The scope's table (Markdown), or the skip message. */
export function scanTable(bench: ScanBench | null): string {
  const head = '\n## scan: `loopwatch scan FILE --jsonl` end to end, every default detector';
  if (bench === null) return `${head}\nskipped: ../shared/data/traces is absent`;
  const { figures, rounds, loadBefore, loadAfter } = bench;
  const rows = figures.map((f) => `| ${f.input} (${(f.inputBytes / 1e6).toFixed(1)} MB) | ${f.workers} | ${f.calls.toLocaleString('en')} | ${(f.medianMs / 1000).toFixed(2)} s | ${Math.round(f.callsPerSecond).toLocaleString('en')} | ${(f.minMs / 1000).toFixed(2)}-${(f.maxMs / 1000).toFixed(2)} s |`);
  return [
    head,
    `a whole child process per run (start, module loading, reading, detection, output to /dev/null); medians of ${rounds} alternating rounds; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
    '| input | --workers | calls | wall (median) | calls/s | runs (min-max) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
