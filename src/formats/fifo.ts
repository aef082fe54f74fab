/**
 * A first-in first-out queue whose `shift` is O(1) at any length (hostile8). `Array.prototype.shift` moves
 * every element of a large array (V8 trims in place only small ones): a reader that took a call or a
 * result off the front of an array per call read one Claude Code message of 256,000 tool uses in 34 s, a
 * conversation of 256,000 calls sharing an id in 4.4 s (quadratic). The items taken are dropped once half
 * the array is taken, so memory stays within twice what is held.
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  /** Items held. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** The oldest item, not taken. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Adds `item` at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Takes the oldest item (undefined when empty). */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    (this.items as (T | undefined)[])[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /**
   * Removes `item` (the first held that is it, by identity); false when it is not held. Linear in the items
   * held, O(1) for the oldest. Its callers keep that bounded: HeldCalls removes from a queue it releases
   * down to MAX_HELD_CALLS after every record (forgets in a hostile order, the newest first or the second, measured
   * as fast as the oldest first: ~4.5 us a call held and forgotten, mend13), and otherwise the oldest.
   */
  remove(item: T): boolean {
    if (this.length > 0 && this.peek() === item) {
      this.shift();
      return true;
    }
    const at = this.items.indexOf(item, this.head);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }
}
