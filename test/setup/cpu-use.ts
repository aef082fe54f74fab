/**
 * Setup file of every test file: with LOOPWATCH_TEST_CPU set to a file path, appends one line to it when
 * the file ends, `{"file": ..., "cpu": seconds, "children": seconds}`: the CPU the test file took in its worker
 * process (every thread of it, worker threads included) and in the child processes it started and waited for (hook
 * processes, `npm pack`, tsc, nats-server), read from /proc/self/stat before it is imported and after its last hook;
 * `children` is the part of `cpu` the child processes took (`cpu - children`: the worker's own). Two
 * files never share a worker process at the same time, so the figures add up to the workers' CPU.
 * Without the variable, or without /proc (not Linux), it does nothing. `node scripts/test-cpu.mjs FILE`
 * sums such a file, largest first. For CI time: docs/testing.md.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

const OUT = process.env.LOOPWATCH_TEST_CPU;

/** This process's CPU seconds: its own, and its waited-for children's (clock ticks of 1/100 s). */
function cpuSeconds(): { own: number; children: number } {
  // fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 12th-15th
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 };
}

/** Seconds rounded to hundredths. */
const hundredths = (s: number): number => Math.round(s * 100) / 100;

if (OUT !== undefined && OUT !== '' && existsSync('/proc/self/stat')) {
  // taken when the setup file runs, before the test file is imported: its import counts too
  const start = cpuSeconds();
  afterAll(() => {
    const file = relative(process.cwd(), expect.getState().testPath ?? '?').split('\\').join('/');
    const end = cpuSeconds();
    const children = end.children - start.children;
    const cpu = hundredths(end.own - start.own + children);
    appendFileSync(OUT, `${JSON.stringify({ file, cpu, children: hundredths(children) })}\n`);
  });
}
