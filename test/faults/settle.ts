/**
 * Helpers of the fault-injection suite: a bound on how long any promise may stay pending (a hang is a
 * failure naming what hung, not a test timeout), and killing a pool's worker threads at chosen moments.
 */
import type { LoopPool } from '../../src/index.js';

/** Resolves to `p`'s outcome (`{ value }` or `{ error }`), or rejects when `p` has not settled within `ms`. */
export async function settles<T>(p: Promise<T>, ms: number, what: string): Promise<{ value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p.then((value) => ({ value }), (error: unknown) => ({ error })), hang]);
  } finally {
    clearTimeout(timer);
  }
}

type Thread = { terminate(): Promise<number> };

/** The worker thread shard `shard` runs now, if any. */
export function threadOf(pool: LoopPool, shard: number): Thread | undefined {
  return pool.shardsForTesting[shard]?.threads[0];
}

/** Kills the worker thread of a shard now (no-op when it has none). */
export async function kill(pool: LoopPool, shard: number): Promise<void> {
  await threadOf(pool, shard)?.terminate();
}

/**
 * Waits (turn by turn of the event loop, up to `turns`) for the shard to run a thread other than `old`,
 * and kills it at once, while it is still starting up; resolves to whether one was found.
 */
export async function killReplacement(pool: LoopPool, shard: number, old: Thread | undefined, turns = 5000): Promise<boolean> {
  for (let i = 0; i < turns; i++) {
    const t = threadOf(pool, shard);
    if (t !== undefined && t !== old) {
      await t.terminate();
      return true;
    }
    await new Promise((r) => setImmediate(r));
  }
  return false;
}

/**
 * Answers counted as a property's sessions get them, for its chaos to wait on: `reach(n)` resolves once
 * `n` answers came or every session is done. It is woken by each answer instead of polling the count
 * every turn of the event loop, which spun hundreds of thousands of times a run and took the CPU the
 * pool's worker threads needed (on CI's 2 cores under load, a property of 12 runs went past a minute).
 */
export class Progress {
  private answers = 0;
  private waiters: (() => void)[] = [];

  constructor(private running: number) {}

  /** Answers so far. */
  get answered(): number {
    return this.answers;
  }

  /** One more answer. */
  answer(): void {
    this.answers++;
    this.wake();
  }

  /** One session is done. */
  sessionDone(): void {
    this.running--;
    this.wake();
  }

  /** Resolves once `n` answers came or no session is running. */
  async reach(n: number): Promise<void> {
    while (this.answers < n && this.running > 0) await new Promise<void>((r) => this.waiters.push(r));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
