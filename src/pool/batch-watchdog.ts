/**
 * A shard's watchdog: the batch its worker runs (the oldest unanswered one: a worker runs its batches in
 * the order they were sent) must be answered within a deadline, or the worker is taken to hang (a detector
 * stuck in a loop, a pathological input, its event loop held) and ended, which fails every task it held,
 * and the shard recovers as for a worker that died. A start (restoring snapshots) is held to the same
 * deadline, but a start that restores nothing: that is the worker's boot alone (its thread, its modules, the
 * WebAssembly compiled), no call or snapshot of the user's, and on a loaded machine it takes seconds, so it
 * is held to {@link WORKER_BOOT_DEADLINE_MS} when that is longer. Before, a pool with a deadline of a few
 * hundred ms (the minimum is 100) ended every boot at load 18 and, its attempts spent, broke the shard: every
 * call failed.
 *
 * ```
 * head batch changes --> timer(deadline) --> setImmediate --> still the head, unanswered? --> onHung
 *                          (cleared when the head is answered)
 * ```
 *
 * The deadline runs from when a batch became the head (and the worker's start, which has its own clock,
 * was answered), so batches queued behind a slow one, or behind a worker's boot, are not charged its time. A calling thread that held its event loop past the deadline does not make a healthy
 * worker look hung: the expired timer only schedules the check for after the loop's poll phase, where
 * answers that arrived meanwhile are taken first (an answered head is no longer watched).
 */

/** Default deadline of a batch's answer (ms): see `LoopPoolOptions.batchDeadlineMs` for how it was set. */
export const BATCH_DEADLINE_MS = 120_000;

/** The least time a worker's boot (a start that restores nothing) is given, whatever the deadline (ms). */
export const WORKER_BOOT_DEADLINE_MS = 60_000;

/** Watches one thing at a time (a shard's head batch or its start) against a deadline. */
export class BatchWatchdog<T extends object> {
  private watched: T | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  /** `deadlineMs` 0 watches nothing; `onHung(what, ms)` is called when `what` ('batch' or 'start') went unanswered `ms`. */
  constructor(
    readonly deadlineMs: number,
    private readonly onHung: (what: string, ms: number) => void,
  ) {}

  /** Watches `head` (the oldest unanswered batch; undefined: none). Unchanged head: its clock keeps running. */
  watch(head: T | undefined): void {
    if (head !== undefined && head === this.watched) return;
    this.clear();
    if (head === undefined || this.deadlineMs === 0 || this.stopped) return;
    this.watched = head;
    this.timer = setTimeout(() => {
      this.timer = null;
      // answers that arrived while the calling thread was busy are taken in the poll phase, before this
      setImmediate(() => {
        if (this.watched === head && !this.stopped) {
          this.watched = null;
          this.onHung('batch', this.deadlineMs);
        }
      });
    }, this.deadlineMs);
    this.timer.unref();
  }

  /**
   * Resolves as `task` does; when it is not settled within the deadline (`boot`: a worker's boot alone, at
   * least WORKER_BOOT_DEADLINE_MS), `onHung(what, ms)` ends it.
   */
  async during<R>(what: string, task: Promise<R>, boot = false): Promise<R> {
    if (this.deadlineMs === 0) return task;
    const ms = boot ? Math.max(this.deadlineMs, WORKER_BOOT_DEADLINE_MS) : this.deadlineMs;
    let done = false;
    const timer = setTimeout(() => setImmediate(() => done || this.stopped || this.onHung(what, ms)), ms);
    timer.unref();
    try {
      return await task;
    } finally {
      done = true;
      clearTimeout(timer);
    }
  }

  /** Watches nothing more. */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.watched = null;
  }
}
