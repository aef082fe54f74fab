/**
 * Live sessions by id, in least-recently-used order, with idle expiry: the bookkeeping that keeps an
 * engine's memory bounded whatever its callers do.
 *
 * A Map finds a session; a doubly-linked list through the entries keeps the recency order: a use moves
 * the entry to the tail (unless it already is there, as in a run of one session's calls), so the head is
 * the least recently used session and also the longest idle. Exact LRU at O(1) per call, and a use costs
 * one Map lookup and a few pointer moves (moving within the Map's own order costs a delete and an insert).
 *
 * ```
 *   head (oldest) <-> ... <-> tail (newest)     map: id -> entry
 * ```
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

/** An entry with its place in the recency list. */
class Node<T> implements TableEntry<T> {
  prev: Node<T> | null = null;
  next: Node<T> | null = null;

  constructor(
    readonly id: string,
    readonly value: T,
    public used: number,
    public seenAt: number,
  ) {}
}

/** Sessions by id with least-recently-used order and idle times. */
export class SessionTable<T> {
  private readonly map = new Map<string, Node<T>>();
  private head: Node<T> | null = null;
  private tail: Node<T> | null = null;
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
      if (e !== this.tail) {
        this.unlink(e);
        this.append(e);
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
    const e = new Node(id, value, ++this.tick, at);
    const old = this.map.get(id);
    if (old !== undefined) this.unlink(old);
    this.map.set(id, e);
    this.append(e);
    return e;
  }

  /** Removes a session; its entry, or undefined when it was not live. */
  delete(id: string): TableEntry<T> | undefined {
    const e = this.map.get(id);
    if (e !== undefined) {
      this.map.delete(id);
      this.unlink(e);
    }
    return e;
  }

  /** The least recently used (and longest idle) session, or undefined when there is none. */
  oldest(): [string, TableEntry<T>] | undefined {
    const h = this.head;
    return h === null ? undefined : [h.id, h];
  }

  /** Every live session, in no particular order. */
  entries(): IterableIterator<[string, TableEntry<T>]> {
    return this.map.entries();
  }

  /** Forgets every session. */
  clear(): void {
    this.map.clear();
    this.head = this.tail = null;
  }

  private unlink(e: Node<T>): void {
    if (e.prev === null) this.head = e.next;
    else e.prev.next = e.next;
    if (e.next === null) this.tail = e.prev;
    else e.next.prev = e.prev;
    e.prev = e.next = null;
  }

  private append(e: Node<T>): void {
    e.prev = this.tail;
    if (this.tail === null) this.head = e;
    else this.tail.next = e;
    this.tail = e;
  }
}
