/**
 * Live sessions by id, in least-recently-used order, with idle expiry: the bookkeeping that keeps an
 * engine's memory bounded whatever its callers do.
 *
 * A Map finds a session's node number; a doubly-linked list through the nodes keeps the recency order: a
 * use moves the node to the tail (unless it already is there, as in a run of one session's calls), so the
 * head is the least recently used session and also the longest idle. Exact LRU at O(1) per call. The
 * list lives in typed arrays indexed by node number (links, last-use tick, last-use time), so a use
 * touches a few words of compact memory instead of three objects scattered over the heap, and stores no
 * pointers (no write barriers, nothing for the garbage collector to trace).
 *
 * ```
 *   head (oldest) <-> ... <-> tail (newest)     index: id -> node     node k: prev[k] next[k] used[k] seen[k]
 * ```
 */

const NONE = -1;

/** Sessions by id with least-recently-used order and idle times. */
export class SessionTable<T> {
  private readonly index = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private values: (T | undefined)[] = [];
  private prev = new Int32Array(16);
  private next = new Int32Array(16);
  /** Tick of each node's last use. */
  private used = new Float64Array(16);
  /** Clock time (ms) of each node's last use. */
  private seen = new Float64Array(16);
  /** Nodes free for reuse (a stack). */
  private readonly free: number[] = [];
  /** Nodes ever handed out. */
  private top = 0;
  private head = NONE;
  private tail = NONE;
  private tick = 0;

  /** The tick of the last use or addition (ticks count up from 1). */
  get lastTick(): number {
    return this.tick;
  }

  /** Live sessions. */
  get size(): number {
    return this.index.size;
  }

  /** The session's value, marked as used now (`at` ms), or undefined. */
  use(id: string, at: number): T | undefined {
    const k = this.index.get(id);
    if (k === undefined) return undefined;
    if (k !== this.tail) {
      this.unlink(k);
      this.append(k);
    }
    this.used[k] = ++this.tick;
    this.seen[k] = at;
    return this.values[k];
  }

  /** The session's value without marking it used. */
  peek(id: string): T | undefined {
    const k = this.index.get(id);
    return k === undefined ? undefined : this.values[k];
  }

  /** Adds a session (the caller made room), used now; an id already present is replaced. */
  add(id: string, value: T, at: number): void {
    const old = this.index.get(id);
    if (old !== undefined) this.remove(old);
    const k = this.free.pop() ?? this.grow();
    this.ids[k] = id;
    this.values[k] = value;
    this.used[k] = ++this.tick;
    this.seen[k] = at;
    this.index.set(id, k);
    this.append(k);
  }

  /** Removes a session; its value, or undefined when it was not live. */
  delete(id: string): T | undefined {
    const k = this.index.get(id);
    if (k === undefined) return undefined;
    const v = this.values[k];
    this.index.delete(id);
    this.remove(k);
    return v;
  }

  /** The least recently used (and longest idle) session's id, or undefined when there is none. */
  oldest(): string | undefined {
    return this.head === NONE ? undefined : this.ids[this.head];
  }

  /** The tick of the oldest session's last use (NaN when there is none). */
  oldestUsed(): number {
    return this.head === NONE ? NaN : (this.used[this.head] as number);
  }

  /** The clock time (ms) of the oldest session's last use (NaN when there is none). */
  oldestSeenAt(): number {
    return this.head === NONE ? NaN : (this.seen[this.head] as number);
  }

  /** Every live session, in no particular order. */
  *entries(): IterableIterator<[string, T]> {
    for (const [id, k] of this.index) yield [id, this.values[k] as T];
  }

  /** Forgets every session. */
  clear(): void {
    this.index.clear();
    this.ids = [];
    this.values = [];
    this.free.length = 0;
    this.top = 0;
    this.head = this.tail = NONE;
  }

  /** A new node number, growing the arrays when they are full. */
  private grow(): number {
    const k = this.top++;
    if (k === this.prev.length) {
      const n = 2 * k;
      const copy = <A extends Int32Array | Float64Array>(a: A, b: A): A => {
        b.set(a);
        return b;
      };
      this.prev = copy(this.prev, new Int32Array(n));
      this.next = copy(this.next, new Int32Array(n));
      this.used = copy(this.used, new Float64Array(n));
      this.seen = copy(this.seen, new Float64Array(n));
    }
    return k;
  }

  private remove(k: number): void {
    this.unlink(k);
    this.ids[k] = undefined;
    this.values[k] = undefined;
    this.free.push(k);
  }

  private unlink(k: number): void {
    const p = this.prev[k] as number;
    const n = this.next[k] as number;
    if (p === NONE) this.head = n;
    else this.next[p] = n;
    if (n === NONE) this.tail = p;
    else this.prev[n] = p;
  }

  private append(k: number): void {
    const t = this.tail;
    this.prev[k] = t;
    this.next[k] = NONE;
    if (t === NONE) this.head = k;
    else this.next[t] = k;
    this.tail = k;
  }
}
