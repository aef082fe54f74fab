/**
 * A bounded cache of what texts say, found by a number the engine's module computes from the text's bytes
 * (a string as a Map's key would be hashed by V8 character by character the first time, and each call's
 * result or error is a new string), then checked by the caller against the text it keeps. The readers of
 * results (result-reading.ts) and of errors (error-reading.ts) keep one each. Past either bound (characters
 * of the texts kept, or texts) the cache starts again empty; another text of a key already held (as likely
 * as two random 53-bit numbers being equal) replaces it.
 */

/** A text kept, and what it was read to say (a reader may complete its value later). */
export interface KeyedText<V> {
  readonly text: string;
  value: V;
}

/** Texts by their module key, bounded in characters and in entries. */
export class KeyedTextCache<V> {
  private readonly entries = new Map<number, KeyedText<V>>();
  private chars = 0;

  /** @param maxChars characters of texts kept at most; @param maxEntries texts kept at most. */
  constructor(
    private readonly maxChars: number,
    private readonly maxEntries: number,
  ) {}

  /** The entry kept under `key`, if any: the caller checks that its text is the one it reads. */
  get(key: number): KeyedText<V> | undefined {
    return this.entries.get(key);
  }

  /** Keeps `text` (which the caller has made a copy of where it must not keep a longer text alive) and its value under `key`. */
  set(key: number, text: string, value: V): void {
    if (this.chars + text.length > this.maxChars || this.entries.size >= this.maxEntries) {
      this.entries.clear();
      this.chars = 0;
    }
    const was = this.entries.get(key);
    if (was !== undefined) this.chars -= was.text.length;
    this.entries.set(key, { text, value });
    this.chars += text.length;
  }

  /** Texts kept now, and their characters. */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
