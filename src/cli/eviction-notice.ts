/**
 * `loopwatch serve`'s note on stderr that live sessions were evicted (the least recently used, when the
 * sessions' memory budget is full or --max-sessions is reached): an evicted session's loops are watched
 * afresh, and before this the only trace was a counter in /metrics. Evictions come by the thousand when a
 * fleet outgrows the budget, so they are counted and said together, at most one line per `everyMs`
 * (the first at the end of the turn that evicted, so a batch's evictions make one line), the rest at stop.
 */

/** At most one note per this long (ms), unless told otherwise. */
export const EVICTION_NOTE_MS = 60_000;

/** Counts evictions and says them in one line at most every `everyMs`. */
export class EvictionNotice {
  private count = 0;
  private lastSaid = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param say writes one line
   * @param state what the line says of the budget now (`1,044,468 of 1,048,576 bytes held`)
   * @param everyMs the least time (ms) between two lines
   */
  constructor(
    private readonly say: (line: string) => void,
    private readonly state: () => string,
    private readonly everyMs = EVICTION_NOTE_MS,
  ) {}

  /** Counts one evicted session; a line is due at the end of this turn, or once `everyMs` has passed since the last. */
  evicted(): void {
    this.count++;
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastSaid + this.everyMs - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  /** Says what was counted and not yet said (at stop), and stops the timer. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count === 0) return;
    const n = this.count;
    this.count = 0;
    this.lastSaid = performance.now();
    this.say(
      `${n} ${n === 1 ? 'session' : 'sessions'} evicted (the least recently used: --session-memory full or --max-sessions reached; ${this.state()}); ` +
        `an evicted session's loops are watched afresh. Said at most once a minute; loopwatch_sessions_dropped_total{reason="evicted"} counts them`,
    );
  }
}
