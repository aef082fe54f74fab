/**
 * One stream of prose through chanting's per-character work: the period search (`period-search.ts`) and
 * the sentence tracker (`sentence-repeats.ts`), fed a range of UTF-16 code units at a time. The chanting
 * detector (`src/detectors/chanting.ts`) decides what a hit means; a stream only finds them, and stops
 * right after the character that produced one so the detector sees each hit as it happens.
 *
 * Two implementations, the same answers: {@link TsProseStream} (the TypeScript classes themselves, which
 * define the semantics; the reference pipeline's) and `WasmProseStream` (`src/wasm/wasm-prose-stream.ts`,
 * the same work in the WebAssembly module; the WebAssembly pipeline's).
 */
import type { ChantingOptions } from '../options/detector-options.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { PeriodSearch } from './period-search.js';
import { type RepeatedSentence, SentenceRepeats } from './sentence-repeats.js';

/** The unit a push with `lineEnd` adds after its range. */
const LINE_FEED = 0x0a;

/** A stream of prose characters, searched for chunks repeated back to back and sentences said again. */
export interface ProseStream {
  /** Stream position of the next character (int32; see {@link rebase}). */
  readonly pos: number;
  /** After push(): the smallest period that hit at the last character pushed, or 0. */
  readonly hitPeriod: number;
  /** After push() with a period hit: that character's stream position. */
  readonly hitAt: number;
  /** The run of the last period hit (PeriodSearch.lastHitRun). */
  readonly hitRun: number;
  /** After push(): the repeated sentence that ended at the last character pushed, or null. */
  readonly said: RepeatedSentence | null;
  /**
   * Pushes the code units of `text` from `from` (at least one) towards `to`, as from piece of text `piece`;
   * stops right after a character that hit (a period or a sentence), or before a character once the
   * position has reached `limit` (or later, while a rebase would move nothing). Returns the index after
   * the last character pushed. With `lineEnd`, a line feed follows `text[to - 1]` as the unit at index `to`
   * (the push goes on to `to + 1`; `from` may then be `to`): a complete text's last line and the line feed
   * that ends it take one push, not two (issue 29: a crossing into the module less for most calls' text).
   */
  push(text: string, from: number, to: number, piece: number, limit: number, lineEnd?: boolean): number;
  /** The character at a position still in the ring. */
  charAt(p: number): number;
  /** Moves every position back by a multiple of the ring size once they are large; returns the shift (0: none). */
  rebase(): number;
  /** Writes the stream's state for a snapshot. */
  save(w: ByteWriter): void;
  /** Reads what save() wrote (a SnapshotError when it cannot be this stream's). */
  load(r: ByteReader): void;
  /** Forgets the stream. */
  reset(): void;
  /** Releases what the stream holds outside the JavaScript heap (it is not used again). */
  dispose(): void;
}

/** The TypeScript stream: a PeriodSearch and a SentenceRepeats, character by character. */
export class TsProseStream implements ProseStream {
  hitPeriod = 0;
  hitAt = 0;
  said: RepeatedSentence | null = null;
  private readonly search: PeriodSearch;
  private readonly sentences: SentenceRepeats;

  constructor(o: ChantingOptions) {
    this.search = new PeriodSearch(o.maxPeriod, o.threshold, o.minLength, o.longChunk, o.longRepetitions);
    this.sentences = new SentenceRepeats(o.longChunk, o.longRepetitions);
  }

  get pos(): number {
    return this.search.pos;
  }

  get hitRun(): number {
    return this.search.lastHitRun;
  }

  push(text: string, from: number, to: number, piece: number, limit: number, lineEnd = false): number {
    const search = this.search;
    const sentences = this.sentences;
    this.hitPeriod = 0;
    this.said = null;
    const end = lineEnd ? to + 1 : to;
    for (let k = from; k < end; k++) {
      const at = search.pos;
      if (k > from && at >= limit) return k;
      const ch = k < to ? text.charCodeAt(k) : LINE_FEED;
      const hit = search.push(ch);
      const said = sentences.push(ch, at, piece);
      if (hit > 0 || said !== null) {
        this.hitPeriod = hit;
        this.hitAt = at;
        this.said = said;
        return k + 1;
      }
    }
    return end;
  }

  charAt(p: number): number {
    return this.search.charAt(p);
  }

  rebase(): number {
    const shift = this.search.rebase();
    if (shift !== 0) this.sentences.rebase(shift);
    return shift;
  }

  save(w: ByteWriter): void {
    this.search.save(w);
    this.sentences.save(w);
  }

  load(r: ByteReader): void {
    this.search.load(r);
    this.sentences.load(r);
  }

  reset(): void {
    this.search.reset();
    this.sentences.reset();
    this.hitPeriod = 0;
    this.said = null;
  }

  dispose(): void {}
}
