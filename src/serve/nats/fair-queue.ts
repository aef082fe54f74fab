/**
 * hostile32: the deliveries a NATS worker has not checked yet, served fairly between sessions. Before, one
 * queue in delivery order: a session flooding its partition had its thousands of calls checked before a
 * neighbour's call delivered after them (hostile30: a legit call unanswered for 20 s). Now each key (a
 * session's partitioned subject) has its own queue, and `take` goes round the keys with work pending, one
 * delivery of each in turn, so a call waits behind one call of each other session at most, not behind a
 * session's backlog. Each key's deliveries come out in the order they went in (a session's calls are
 * checked in stream order, so its verdicts are those of any interleaving).
 *
 * ```
 *   ring (Map order):  flood -> legit -> other -> (back to flood)
 *   flood: [f7 f8 f9 ... f20000]   legit: [l1]   other: [o3 o4]
 *   take(5) = f7 l1 o3 f8 o4        (legit's key leaves the ring when empty; a key with more goes to the end)
 * ```
 */

/** One key's deliveries: `items` from `head` on are pending (a head index, not `shift`, which copies). */
interface Lane<T> {
  items: T[];
  head: number;
}

/** Deliveries by key, taken round-robin between keys, in order within a key. */
export class FairQueue<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private count = 0;

  /** Deliveries pending in all. */
  get size(): number {
    return this.count;
  }

  /** Queues `item` at the end of `key`'s lane (a key not in the ring joins at its end). */
  push(key: string, item: T): void {
    const lane = this.lanes.get(key);
    if (lane === undefined) this.lanes.set(key, { items: [item], head: 0 });
    else lane.items.push(item);
    this.count++;
  }

  /** Takes up to `n` deliveries, going round the keys, one of each in turn. */
  take(n: number): T[] {
    const out: T[] = [];
    while (out.length < n && this.count > 0) {
      // the ring's first key gives one delivery, then goes to the ring's end (or leaves it when empty)
      const [key, lane] = this.lanes.entries().next().value as [string, Lane<T>];
      out.push(lane.items[lane.head++] as T);
      this.count--;
      this.lanes.delete(key);
      if (lane.head < lane.items.length) {
        if (lane.head >= 1024 && lane.head * 2 >= lane.items.length) {
          lane.items = lane.items.slice(lane.head);
          lane.head = 0;
        }
        this.lanes.set(key, lane);
      }
    }
    return out;
  }

  /** Takes every pending delivery (in ring order, each key's in order). */
  clear(): T[] {
    const out: T[] = [];
    for (const lane of this.lanes.values()) for (let i = lane.head; i < lane.items.length; i++) out.push(lane.items[i] as T);
    this.lanes.clear();
    this.count = 0;
    return out;
  }
}
