/**
 * `loopwatch scan` of the traces x`copies` (scan-end-to-end.ts's input) by two builds, alternating, round
 * after round: A's and B's CLI bundles (`DIST/src/bin/loopwatch.js`) in turn, each over every variant
 * (plain or gzip, a `--workers` count), so a burst of load on a shared machine falls on both. Prints each
 * run and the medians: wall time, calls/s, cores busy (CPU of all threads / wall), the main thread's and
 * the other threads' CPU, peak RSS.
 *
 * `node dist/bench/scan-ab.js A_DIST B_DIST [rounds] [copies] [workers,...]`, e.g.
 * `node dist/bench/scan-ab.js /work/wt/prev/dist dist 3 10 1,2`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTraceDir } from '../src/eval/trace-dir.js';
import { writeCopies } from './scan-end-to-end.js';
import { median } from './bench-stats.js';

const CPU_AT_EXIT = new URL('./cpu-at-exit.js', import.meta.url).href;

interface Run {
  readonly ms: number;
  readonly cpuMs: number;
  readonly mainMs: number;
  readonly othersMs: number;
  readonly rssMb: number;
}

function once(dist: string, file: string, workers: string, cpuFile: string): Run {
  const cli = join(resolve(dist), 'src/bin/loopwatch.js');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, cli, 'scan', file, '--jsonl', '--fail-on', 'never', '--no-progress', ...(workers === 'default' ? [] : ['--workers', workers])], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, LOOPWATCH_BENCH_CPU_FILE: cpuFile },
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cli} scan ${file} --workers ${workers} exited with ${r.status ?? r.signal}: ${r.stderr}`);
  const c = JSON.parse(readFileSync(cpuFile, 'utf8')) as { userMs: number; systemMs: number; maxRssKb: number; mainMs: number | null; othersMs: number[] };
  return { ms, cpuMs: c.userMs + c.systemMs, mainMs: c.mainMs ?? NaN, othersMs: c.othersMs.reduce((a, b) => a + b, 0), rssMb: c.maxRssKb / 1024 };
}

async function main(): Promise<void> {
  const [a = '', b = '', roundsArg = '3', copiesArg = '10', workersArg = '1,2'] = process.argv.slice(2);
  if (a === '' || b === '') throw new Error('usage: scan-ab.js A_DIST B_DIST [rounds] [copies] [workers,...]');
  const rounds = Number(roundsArg);
  const copies = Number(copiesArg);
  const workers = workersArg.split(',');
  const dir = mkdtempSync(join(os.tmpdir(), 'loopwatch-scan-ab-'));
  try {
    const plain = join(dir, 'traces.jsonl');
    const gz = join(dir, 'traces.jsonl.gz');
    const traces = process.env.LOOPWATCH_TRACES ?? defaultTraceDir(resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..'));
    if (traces === null) throw new Error('no traces: set LOOPWATCH_TRACES to the folder of events.jsonl.gz');
    const calls = await writeCopies(traces, copies, plain, gz);
    const runs = new Map<string, Run[]>();
    console.log(`load before: ${os.loadavg()[0]?.toFixed(2)}; ${calls} calls`);
    for (let round = 0; round < rounds; round++) {
      for (const [input, file] of [['plain', plain], ['gzip', gz]] as const) {
        for (const w of workers) {
          for (const [name, dist] of round % 2 === 0 ? [['A', a], ['B', b]] : [['B', b], ['A', a]]) {
            const r = once(dist as string, file, w, join(dir, 'cpu.json'));
            const key = `${input} --workers ${w} ${name}`;
            runs.set(key, [...(runs.get(key) ?? []), r]);
            console.log(`round ${round + 1} ${key}: ${(r.ms / 1000).toFixed(2)} s, ${Math.round(calls / (r.ms / 1000))} calls/s, cores ${(r.cpuMs / r.ms).toFixed(2)}, main ${(r.mainMs / 1000).toFixed(1)} s, others ${(r.othersMs / 1000).toFixed(1)} s, ${Math.round(r.rssMb)} MB (load ${os.loadavg()[0]?.toFixed(1)})`);
          }
        }
      }
    }
    console.log('| input | --workers | build | wall median (min-max) | calls/s | cores busy | main / other threads CPU | peak RSS |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [key, rs] of runs) {
      const [input, , w, name] = key.split(' ');
      const ms = rs.map((r) => r.ms);
      const m = median(ms);
      console.log(`| ${input} | ${w} | ${name} | ${(m / 1000).toFixed(2)} s (${(Math.min(...ms) / 1000).toFixed(2)}-${(Math.max(...ms) / 1000).toFixed(2)}) | ${Math.round(calls / (m / 1000)).toLocaleString('en-US')} | ${median(rs.map((r) => r.cpuMs / r.ms)).toFixed(2)} | ${(median(rs.map((r) => r.mainMs)) / 1000).toFixed(1)} / ${(median(rs.map((r) => r.othersMs)) / 1000).toFixed(1)} s | ${Math.round(median(rs.map((r) => r.rssMb)))} MB |`);
    }
    console.log(`load after: ${os.loadavg()[0]?.toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
