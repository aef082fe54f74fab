/**
 * A Map that forgets its oldest key past `max` entries, in O(1) a key (hostile8). The pattern it replaces,
 * `map.delete(map.keys().next().value)` after each `set`, costs time in the cap, not O(1): V8's Map leaves
 * each deleted entry in place until the table is rebuilt, and a fresh iterator steps over all of them, so
 * with 65,536 ids remembered every call id past the cap cost 30-60 us (a transcript of 512,000 calls read
 * in 16.3 s, 0.5 s for 32,000). Here the keys' order is kept beside the Map, in a {@link Fifo}.
 *
 * Keys are forgotten in the order they were first set, as the Map's own order was: setting a key held
 * already changes its value, not its place. Nothing else deletes a key.
 */
import { Fifo } from './fifo.js';

/** A Map of at most `max` keys, the oldest forgotten first. */
export class CappedMap<K, V> {
  private readonly map = new Map<K, V>();
  private readonly order = new Fifo<K>();

  constructor(private readonly max: number) {}

  /** Keys held. */
  get size(): number {
    return this.map.size;
  }

  /** Whether `key` is held. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** The value of `key`, if held. */
  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets `key`'s value; a new key past `max` makes the oldest be forgotten. */
  set(key: K, value: V): void {
    if (this.map.has(key)) {
      this.map.set(key, value);
      return;
    }
    this.map.set(key, value);
    this.order.push(key);
    if (this.map.size > this.max) this.map.delete(this.order.shift() as K);
  }
}
