/**
 * Repeated sentences in an agent's prose, whether back to back or not: the same sentence (case and white
 * space aside) `repetitions` times among the last {@link SENTENCE_WINDOW} sentences within one chunk of
 * text (one message), or once more across chunks (an agent restating the same status in message after
 * message is less sure a sign than one message saying it over and over), when it is at least `minChars`
 * characters long. The period search (`period-search.ts`) catches chunks repeated back to back;
 * this catches a long sentence said again and again with other text between, in one chunk or across
 * chunks.
 *
 * Characters arrive one at a time (the same prose the period search sees). A sentence ends at `.`, `!`,
 * `?` or a line break; it is normalised (ASCII letters lowercased, runs of white space one space) and
 * fingerprinted as it streams (FNV-1a over UTF-16 units), so memory is O(window) whatever its length.
 *
 * ```
 *   ring (last 16 sentences): [hash, length, start position, chunk] ...
 *   at each sentence end:     count = 1 + sentences in the ring with the same hash and length
 *                             needed: repetitions, + 1 when one of them is from another chunk
 * ```
 */
import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';

/** Sentences remembered. */
export const SENTENCE_WINDOW = 16;
/** Characters of a sentence kept for the report. */
export const SENTENCE_SHOWN = 160;
const SHOWN = SENTENCE_SHOWN;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** A repeated sentence: its text (normalised, cut for display), how many times, where it first began. */
export interface RepeatedSentence {
  readonly text: string;
  readonly count: number;
  readonly firstStart: number;
}

function isSpace(ch: number): boolean {
  return ch === 0x20 || (ch >= 0x09 && ch <= 0x0d);
}

function isWordChar(ch: number): boolean {
  return (ch >= 0x30 && ch <= 0x39) || (ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a) || ch >= 0xc0;
}

/** Tracks the sentences of one stream of prose. */
export class SentenceRepeats {
  private readonly hashes = new Int32Array(SENTENCE_WINDOW);
  private readonly lengths = new Int32Array(SENTENCE_WINDOW);
  private readonly starts = new Int32Array(SENTENCE_WINDOW);
  private readonly chunks = new Float64Array(SENTENCE_WINDOW);
  private stored = 0;
  private hash = FNV_OFFSET;
  private length = 0;
  private start = 0;
  private pendingSpace = false;
  private words = false;
  /** The sentence's first SHOWN normalised characters (a string is made only for a repeated sentence). */
  private readonly shown = new Uint16Array(SHOWN);

  constructor(
    private readonly minChars: number,
    private readonly repetitions: number,
  ) {}

  /**
   * Adds the prose character at stream position `pos`, from chunk `chunk` (the caller's count of pieces of
   * text); returns a repeated sentence ending here, or null.
   */
  push(ch: number, pos: number, chunk: number): RepeatedSentence | null {
    const end = ch === 0x2e || ch === 0x21 || ch === 0x3f || ch === 0x0a;
    if (isSpace(ch) && ch !== 0x0a) {
      if (this.length > 0) this.pendingSpace = true;
      return null;
    }
    if (ch !== 0x0a) {
      if (this.length === 0) this.start = pos;
      if (this.pendingSpace) this.add(0x20);
      this.pendingSpace = false;
      this.add(ch >= 0x41 && ch <= 0x5a ? ch + 32 : ch);
      if (isWordChar(ch)) this.words = true;
    }
    return end ? this.finish(chunk) : null;
  }

  private add(ch: number): void {
    this.hash = Math.imul(this.hash ^ ch, FNV_PRIME);
    if (this.length < SHOWN) this.shown[this.length] = ch;
    this.length++;
  }

  private finish(chunk: number): RepeatedSentence | null {
    const h = this.hash | 0;
    const n = this.length;
    const counted = this.words && n >= this.minChars;
    let found: RepeatedSentence | null = null;
    if (counted) {
      let count = 1;
      let first = this.start;
      let across = false;
      const kept = Math.min(this.stored, SENTENCE_WINDOW);
      for (let k = 0; k < kept; k++) {
        const slot = (this.stored - 1 - k) % SENTENCE_WINDOW;
        if (this.hashes[slot] !== h || this.lengths[slot] !== n) continue;
        count++;
        first = this.starts[slot] as number;
        if (this.chunks[slot] !== chunk) across = true;
      }
      if (count >= this.repetitions + (across ? 1 : 0)) found = { text: this.shownText(), count, firstStart: first };
    }
    if (n > 0) {
      const slot = this.stored % SENTENCE_WINDOW;
      this.hashes[slot] = counted ? h : 0;
      this.lengths[slot] = counted ? n : -1;
      this.starts[slot] = this.start;
      this.chunks[slot] = chunk;
      this.stored++;
    }
    this.hash = FNV_OFFSET;
    this.length = 0;
    this.pendingSpace = false;
    this.words = false;
    return found;
  }

  /** The sentence so far as shown in a report: its first SHOWN normalised characters. */
  private shownText(): string {
    return String.fromCharCode(...this.shown.subarray(0, Math.min(this.length, SHOWN)));
  }

  /** Moves the stored stream positions back by `shift` (see PeriodSearch.rebase). */
  rebase(shift: number): void {
    for (let k = 0; k < SENTENCE_WINDOW; k++) this.starts[k] = Math.max((this.starts[k] as number) - shift, -(2 ** 30));
    this.start = Math.max(this.start - shift, -(2 ** 30));
  }

  /** Writes the state for a snapshot. */
  save(w: ByteWriter): void {
    w.f64(this.stored);
    w.view(this.hashes);
    w.view(this.lengths);
    w.view(this.starts);
    w.view(this.chunks);
    w.i32(this.hash | 0);
    w.i32(this.length);
    w.i32(this.start);
    w.bool(this.pendingSpace);
    w.bool(this.words);
    w.str(this.shownText());
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.stored = r.f64();
    if (!Number.isSafeInteger(this.stored) || this.stored < 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (sentence count)');
    r.into(this.hashes);
    r.into(this.lengths);
    r.into(this.starts);
    r.into(this.chunks);
    this.hash = r.i32();
    this.length = r.i32();
    this.start = r.i32();
    this.pendingSpace = r.bool();
    this.words = r.bool();
    const shown = r.str();
    if (this.length < 0 || shown.length !== Math.min(this.length, SHOWN)) throw new SnapshotError('loopwatch: the snapshot is corrupt (sentence text)');
    for (let k = 0; k < shown.length; k++) this.shown[k] = shown.charCodeAt(k);
  }

  /** Forgets the stream. */
  reset(): void {
    this.stored = 0;
    this.hashes.fill(0);
    this.lengths.fill(0);
    this.starts.fill(0);
    this.chunks.fill(0);
    this.hash = FNV_OFFSET;
    this.length = 0;
    this.start = 0;
    this.pendingSpace = false;
    this.words = false;
  }
}
