/**
 * Preloaded into a benchmarked child (`node --import <this> ...`): when the process exits, writes the CPU
 * seconds of all its threads (user and system, `process.cpuUsage()`), its peak resident memory and, on
 * Linux, the CPU of the main thread and of each other thread, busiest first (a pool's workers, then V8's
 * and libuv's helpers: all are named `node`), from `/proc/self/task/TID/stat`, read every 200 ms and at
 * exit so that a worker that ended before is counted, to
 * the file named by LOOPWATCH_BENCH_CPU_FILE, so the bench can say how many cores a run kept busy and
 * which threads did.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

/** Per thread id: CPU ticks (10 ms) when last read. */
const seen = new Map<string, number>();

function readThreads(): void {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      seen.set(tid, Number(f[11]) + Number(f[12]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
}

const file = process.env.LOOPWATCH_BENCH_CPU_FILE;
if (file !== undefined && file !== '') {
  setInterval(readThreads, 200).unref();
  process.on('exit', () => {
    readThreads();
    const mainMs = (seen.get(String(process.pid)) ?? NaN) * 10;
    const othersMs = [...seen].filter(([tid]) => tid !== String(process.pid)).map(([, ticks]) => ticks * 10).sort((a, b) => b - a);
    const cpu = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ userMs: cpu.user / 1000, systemMs: cpu.system / 1000, maxRssKb: process.resourceUsage().maxRSS, mainMs, othersMs }));
  });
}
