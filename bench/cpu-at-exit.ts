/**
 * Preloaded into a benchmarked child (`node --import <this> ...`): when the process exits, writes the CPU
 * seconds of all its threads (user and system, `process.cpuUsage()`) and its peak resident memory to the
 * file named by LOOPWATCH_BENCH_CPU_FILE, so the bench can say how many cores a run kept busy.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.LOOPWATCH_BENCH_CPU_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ userMs: cpu.user / 1000, systemMs: cpu.system / 1000, maxRssKb: process.resourceUsage().maxRSS }));
  });
}
