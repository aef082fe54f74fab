/**
 * Live sessions by id, in least-recently-used order, with idle expiry: the bookkeeping that keeps an
 * engine's memory bounded whatever its callers do.
 *
 * The Map's insertion order is the recency order: a use moves the session to the back (unless it already
 * is there, as in a run of one session's calls), so the first session is the least recently used one and
 * also the longest idle. Exact LRU at O(1) per call.
 */

/** A session as the table keeps it. */
export interface TableEntry<T> {
  /** What the table holds for the session (its detector). */
  readonly value: T;
  /** Tick of the last use. */
  used: number;
  /** Clock time (ms) of the last use. */
  seenAt: number;
}

/** Sessions by id with least-recently-used order and idle times. */
export class SessionTable<T> {
  private readonly map = new Map<string, TableEntry<T>>();
  private tick = 0;

  /** The tick of the last use or addition (ticks count up from 1). */
  get lastTick(): number {
    return this.tick;
  }

  /** Live sessions. */
  get size(): number {
    return this.map.size;
  }

  /** The session's entry, marked as used now (`at` ms), or undefined. */
  use(id: string, at: number): TableEntry<T> | undefined {
    const e = this.map.get(id);
    if (e !== undefined) {
      if (e.used !== this.tick) {
        this.map.delete(id);
        this.map.set(id, e);
      }
      e.used = ++this.tick;
      e.seenAt = at;
    }
    return e;
  }

  /** The session's entry without marking it used. */
  peek(id: string): TableEntry<T> | undefined {
    return this.map.get(id);
  }

  /** Adds a session (the caller made room), used now. */
  add(id: string, value: T, at: number): TableEntry<T> {
    const t = ++this.tick;
    const e: TableEntry<T> = { value, used: t, seenAt: at };
    this.map.set(id, e);
    return e;
  }

  /** Removes a session; its entry, or undefined when it was not live. */
  delete(id: string): TableEntry<T> | undefined {
    const e = this.map.get(id);
    if (e !== undefined) this.map.delete(id);
    return e;
  }

  /** The least recently used (and longest idle) session, or undefined when there is none. */
  oldest(): [string, TableEntry<T>] | undefined {
    const first = this.map.entries().next();
    return first.done === true ? undefined : first.value;
  }

  /** Every live session, in no particular order. */
  entries(): IterableIterator<[string, TableEntry<T>]> {
    return this.map.entries();
  }

  /** Forgets every session. */
  clear(): void {
    this.map.clear();
  }
}
