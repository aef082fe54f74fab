/**
 * The worker thread of a LoopPool shard, one incarnation at a time. Each incarnation is a single-thread
 * piscina pool of its own, ended (destroyed, which settles every task it still holds) the moment its
 * worker is gone (an exit, an error outside a task) or the shard ends it (a batch failed). Relying on
 * piscina to replace a dead worker is not enough: it never replaces one that died while starting up, and
 * tasks then wait for a worker forever. Here nothing sent can stay pending, whenever and however often
 * workers die.
 */
import { createRequire } from 'node:module';
import type * as PiscinaModule from 'piscina';
import type { Piscina } from 'piscina';
import type { HangTask, RunResult, RunTask, StartResult, StartTask } from './worker-tasks.js';

/** A single-thread piscina pool: one incarnation of a shard's worker. */
type WorkerPool = Piscina<StartTask | RunTask | HangTask, StartResult | RunResult | null>;

/**
 * piscina, loaded when the first worker is started, not when loopwatch is imported: reading its modules
 * costs a program that never makes a LoopPool tens of ms (more on a busy machine) for nothing.
 */
let piscina: typeof PiscinaModule | null = null;
const loadPiscina = (): typeof PiscinaModule => (piscina ??= createRequire(import.meta.url)('piscina') as typeof PiscinaModule);

/** A shard's worker thread, incarnation after incarnation. */
export class WorkerIncarnation {
  private pool: WorkerPool;
  /** Pools ended: what they still hold has failed. */
  private readonly ended = new WeakSet<WorkerPool>();
  private stopped = false;

  /**
   * `filename`: the worker module; `tasks`: tasks in flight at most (the worker's queue); `lost(reason)`:
   * called once when the current incarnation's worker is gone by itself (not when it is ended here).
   */
  constructor(
    private readonly filename: string,
    private readonly tasks: number,
    private readonly lost: (reason: string) => void,
  ) {
    this.pool = this.newPool();
  }

  private newPool(): WorkerPool {
    const pool: WorkerPool = new (loadPiscina().Piscina)({ filename: this.filename, minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: this.tasks, idleTimeout: 2 ** 31 - 1 });
    const gone = (reason: string): void => {
      if (this.ended.has(pool)) return;
      this.endPool(pool);
      if (!this.stopped && pool === this.pool) this.lost(reason);
    };
    pool.on('workerDestroy', () => gone('the worker exited'));
    pool.on('error', (err: unknown) => gone(String(err)));
    return pool;
  }

  /** Destroys a pool, not waiting for it (a dead worker's exit may never be reported again). */
  private endPool(pool: WorkerPool): void {
    if (this.ended.has(pool)) return;
    this.ended.add(pool);
    pool.destroy().catch(() => undefined);
  }

  /** Whether the current incarnation has ended (its worker died, or end() was called). */
  get over(): boolean {
    return this.ended.has(this.pool);
  }

  /** Runs a task on the current incarnation (a new one if the current one is over and `renew`). */
  run(task: StartTask | RunTask | HangTask, transferList?: ArrayBuffer[], renew = false): Promise<StartResult | RunResult | null> {
    if (renew && this.over && !this.stopped) this.pool = this.newPool();
    return this.pool.run(task, transferList === undefined ? undefined : { transferList });
  }

  /** Ends the current incarnation: every task it holds fails. */
  end(): void {
    this.endPool(this.pool);
  }

  /** The current worker thread, for tests that kill it. */
  get threads(): readonly { terminate(): Promise<number> }[] {
    return this.pool.threads as unknown as readonly { terminate(): Promise<number> }[];
  }

  /** Stops for good: the current incarnation ends, waiting for its worker to exit; no new one starts. */
  async stop(): Promise<void> {
    this.stopped = true;
    const pool = this.pool;
    if (this.ended.has(pool)) return;
    this.ended.add(pool);
    await pool.destroy();
  }
}
