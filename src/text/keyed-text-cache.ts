/**
 * A bounded cache of what texts say, found by a number the engine's module computes from the text's bytes
 * (a string as a Map's key would be hashed by V8 character by character the first time, and each call's
 * result or error is a new string), then checked by the caller against the text it keeps. The readers of
 * results (result-reading.ts) and of errors (error-reading.ts) keep one each.
 *
 * Direct-mapped: a key's slot is its low bits, and a text whose key falls in a slot replaces the one there (as
 * another text of the same key did before). A Map here cost ~0.25 us a call on the traces' result heads (its
 * entries made, its table grown again after each time it started empty); a slot is an array element. Past the
 * bound of characters kept the cache starts again empty; it never holds more texts than its slots.
 */

/** A text kept, and what it was read to say (a reader may complete its value later). */
export interface KeyedText<V> {
  readonly text: string;
  value: V;
}

/** Texts by their module key, bounded in characters and in entries. */
export class KeyedTextCache<V> {
  /** The key of each slot's text (-1: none), and the text with its value. */
  private readonly keys: Float64Array;
  private readonly entries: (KeyedText<V> | undefined)[];
  private readonly mask: number;
  private chars = 0;
  private count = 0;

  /**
   * @param maxChars characters of texts kept at most; @param maxEntries texts kept at most (the slots: the
   * largest power of two not above it, at least 1).
   */
  constructor(
    private readonly maxChars: number,
    maxEntries: number,
  ) {
    const slots = 2 ** Math.floor(Math.log2(Math.max(1, maxEntries)));
    this.keys = new Float64Array(slots).fill(-1);
    this.entries = new Array<KeyedText<V> | undefined>(slots).fill(undefined);
    this.mask = slots - 1;
  }

  /** The entry kept under `key` (a number from 0 to 2^53), if any: the caller checks that its text is the one it reads. */
  get(key: number): KeyedText<V> | undefined {
    const s = (key >>> 0) & this.mask;
    return this.keys[s] === key ? this.entries[s] : undefined;
  }

  /** Keeps `text` (which the caller has made a copy of where it must not keep a longer text alive) and its value under `key`; the entry made. */
  set(key: number, text: string, value: V): KeyedText<V> {
    const s = (key >>> 0) & this.mask;
    const was = this.entries[s];
    if (was !== undefined) {
      this.chars -= was.text.length;
      this.count--;
    }
    if (this.chars + text.length > this.maxChars) this.clear();
    this.keys[s] = key;
    const entry = { text, value };
    this.entries[s] = entry;
    this.chars += text.length;
    this.count++;
    return entry;
  }

  /** Texts kept now, and their characters. */
  size(): { entries: number; chars: number } {
    return { entries: this.count, chars: this.chars };
  }

  private clear(): void {
    this.keys.fill(-1);
    this.entries.fill(undefined);
    this.chars = 0;
    this.count = 0;
  }
}
