/**
 * How this machine scales JavaScript across threads, whatever loopwatch does: one thread runs a task,
 * then two worker threads run the same task each at once. Scaling = 2 x one thread's time / the pair's
 * time (2.00 is perfect). Each task runs ROUNDS times, one thread and two alternating, and the figures are
 * the medians, with the lowest and highest scaling of a round (on a shared machine one run says little).
 *
 * - compute: arithmetic over a 512 KB typed array (no allocation);
 * - allocation: small objects and strings kept a little while, then dropped (as per-call JS work does:
 *   every thread's garbage collector then competes for the same cores and memory).
 *
 * It bounds what a worker pool can gain here: loop detection per call is a mix of the two.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { median } from './bench-stats.js';

/** The tasks, by name. */
const TASKS = {
  compute(n: number): number {
    const a = new Float64Array(1 << 16);
    let x = 0;
    for (let i = 0; i < n; i++) {
      const j = Math.imul(i, 0x9e3779b1) & 0xffff;
      a[j] = (a[j] as number) + i;
      x += a[(j * 7) & 0xffff] as number;
    }
    return x;
  },
  allocation(n: number): number {
    let keep: { a: number; b: string; c: number[] }[] = [];
    let total = 0;
    for (let i = 0; i < n; i++) {
      keep.push({ a: i, b: `x${i & 1023}`, c: [i, i + 1] });
      if (keep.length > 5000) {
        total += keep.length;
        keep = [];
      }
    }
    return total + keep.length;
  },
} as const;

type TaskName = keyof typeof TASKS;

/** Iterations per task (each takes a few hundred ms on one core). */
const SIZE: Record<TaskName, number> = { compute: 150_000_000, allocation: 15_000_000 };

/** One task's scaling on this machine. */
export interface ThreadScaling {
  readonly task: TaskName;
  readonly oneThreadMs: number;
  readonly twoThreadsMs: number;
  /** The median over the rounds of 2 x one thread's time / the pair's time. */
  readonly scaling: number;
  /** The lowest and highest scaling of a round. */
  readonly minScaling: number;
  readonly maxScaling: number;
  readonly rounds: number;
}

/** Rounds per task (one thread, then two, alternating). */
const ROUNDS = 5;

function inWorker(task: TaskName): Promise<void> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: task });
    w.once('message', () => resolve());
    w.once('error', reject);
  });
}

/** Measures each task in one worker, then in two workers at once, ROUNDS times alternating. */
export async function threadScaling(): Promise<ThreadScaling[]> {
  const out: ThreadScaling[] = [];
  for (const task of Object.keys(TASKS) as TaskName[]) {
    await inWorker(task); // warm: the first worker start pays for module loading
    const one: number[] = [];
    const two: number[] = [];
    const scaling: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      await inWorker(task);
      one.push(performance.now() - t);
      t = performance.now();
      await Promise.all([inWorker(task), inWorker(task)]);
      two.push(performance.now() - t);
      scaling.push((2 * (one[r] as number)) / (two[r] as number));
    }
    out.push({ task, oneThreadMs: median(one), twoThreadsMs: median(two), scaling: median(scaling), minScaling: Math.min(...scaling), maxScaling: Math.max(...scaling), rounds: ROUNDS });
  }
  return out;
}

if (!isMainThread && parentPort !== null) {
  const task = workerData as TaskName;
  TASKS[task](SIZE[task]);
  parentPort.postMessage('done');
}
