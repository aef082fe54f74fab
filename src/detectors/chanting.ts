/**
 * Text chanting: the agent's text repeating the same chunk back to back, or the same long sentence again
 * and again (degenerate generation).
 *
 * The session's prose is streamed through a period search (`src/text/period-search.ts`; the per-character
 * work of it and of the sentence tracker is a `ProseStream`, `src/text/prose-stream.ts`: those TypeScript
 * classes, or the same work in the WebAssembly module for the WebAssembly pipeline): at each
 * character, the smallest period `L` up to `maxPeriod` whose chunk has repeated `threshold` times back to
 * back (`longRepetitions` times for chunks of `longChunk` characters or more) over at least `minLength`
 * characters (one repetition more for a long chunk repeated across pieces of text). It fires when such a
 * chunk has at least one letter or digit; the smallest period is reported. The same prose goes through a sentence tracker (`sentence-repeats.ts`): a sentence of
 * `longChunk` characters or more said `longRepetitions` times among the last 16 sentences, other text
 * between, in one piece of text (once more across pieces). Code fences and their contents, tables, list items, headings,
 * quotes, dividers and log lines are left out (see `structure-lines.ts`); a line arriving in pieces is
 * classified once its first 16 characters are known (or it ends), so prose without line breaks is
 * checked as it streams. A call's text is read once per model turn: calls of one round that carry the same
 * text (a message that made several calls, as the trace readers may give it) add it once. Memory is
 * O(maxPeriod).
 * Confidence `0.6 + 0.02 * (repetitions - threshold)` (a long chunk or sentence: `0.6 + 0.05 * (repetitions
 * - longRepetitions)`).
 */
import type { ChantingOptions } from '../options/detector-options.js';
import { SnapshotError } from '../errors.js';
import { hashString } from '../fingerprint/canonical-hash.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { giveInts, takeInts } from '../state/word-blocks.js';
import { ENTRY_MAX, FIRST_LOG_WORDS, logAppend, logClear, logCopy, logRead, logRoom, newestPos, wordsFor } from '../state/boundary-log.js';
import { SNAPSHOT_VERSION } from '../snapshot/snapshot-format.js';
import { type ProseStream, TsProseStream } from '../text/prose-stream.js';
import { rootLength } from '../text/chunk-root.js';
import { cutText } from '../text/shown-text.js';
import { type RepeatedSentence, SENTENCE_WINDOW } from '../text/sentence-repeats.js';
import { StructureFilter } from '../text/structure-lines.js';
import type { LoopSignal } from '../types.js';
import { clampConfidence } from './context.js';
import type { Detector, ObservedCall } from './detector.js';

/** Characters of a line read before it is classified when it arrives in pieces. */
const CLASSIFY_AFTER = 200;
/** Text-to-call boundaries remembered, to say which call a chant began in. */
const BOUNDS = 256;
/** Scratch for the boundaries read back (on a signal, a rebase, a snapshot): positions, then calls. */
const readPos = new Int32Array(BOUNDS);
const readCall = new Int32Array(BOUNDS);
const HAS_WORD = /[\p{L}\p{N}]/u;
const EMPTY = new Int32Array(0);

/** Makes the stream a detector's prose goes through (the TypeScript one unless the pipeline says). */
export type ProseStreamFactory = (o: ChantingOptions) => ProseStream;

const tsStream: ProseStreamFactory = (o) => new TsProseStream(o);

interface Found {
  readonly period: number;
  span: number;
  end: number;
  readonly chunk: string;
}

/**
 * Streams made by ready() that no text was fed since: a call with text that then read none (a late record,
 * ignored) saves as a detector without a stream, as if it had never come (see save()). A set beside the
 * detectors, not a field of each: a stream is in it only between a call's reservation and its read.
 */
const unread = new WeakSet<ProseStream>();

/**
 * The range of prose queued for a detector's stream (see queue()): text[from, to), or none, and whether a
 * line feed follows it (set last, by a complete text's end: nothing is queued after it). One for the
 * thread, not fields of each detector (32 B a session): a feed() empties it first and streams it before it
 * returns, so between feeds it holds nothing.
 */
const q = { text: null as string | null, from: 0, to: 0, lineEnd: false };

/** Detects text that repeats the same chunk over and over. */
export class ChantingDetector implements Detector {
  /** The detector's name (a getter: a field is 8 B a session). */
  get name(): 'chanting' {
    return 'chanting';
  }
  /** The prose stream (period search, sentence tracker) and the text-to-call boundaries: made when the first text arrives. */
  private s: ProseStream | null = null;
  private readonly filter = new StructureFilter();
  /**
   * The newest BOUNDS text-to-call boundaries (each one's stream position and the call its text starts), as
   * a log of deltas (state/boundary-log.ts) in a block of `cap` words from `bb`, grown as texts come. A block
   * of the thread's shared chunks (word-blocks.ts) for a detector made `shared` (no typed array and buffer a
   * session, 182 B), until {@link dispose}; else an array of its own.
   */
  private bound: Int32Array = EMPTY;
  private bb = 0;
  private cap = 0;
  private bounds = 0;
  /** What a snapshot's boundaries not made yet hold: 0, less each rebase's shift (snapshots hold BOUNDS). */
  private restPos = 0;
  private lineBuf = '';
  private lineClass: 'unknown' | 'prose' | 'skip' = 'unknown';
  private found: Found | null = null;
  private sentenceFound: RepeatedSentence | null = null;
  private call = 0;
  /**
   * The round (model turn) of the last call whose text was read (NaN: none given), and that text (or,
   * after a snapshot was loaded, its fingerprint; neither when the call gave no round): the same text
   * given with another call of the same turn is one piece of prose, read once.
   */
  private textRound = NaN;
  private lastText: string | null = null;
  private lastTextHash = 0;

  /**
   * Positions are int32 (fast ring arithmetic): at `rebaseAt` characters every stored position moves back
   * by a multiple of the ring size, so the stream may run on forever. `rebaseAt` is lowered only by tests.
   * `makeStream` makes the prose stream when the first text arrives: the TypeScript one by default, the
   * WebAssembly one in the WebAssembly pipeline.
   */
  constructor(
    private readonly o: ChantingOptions,
    private readonly rebaseAt = 2 ** 30,
    private readonly makeStream: ProseStreamFactory = tsStream,
    private shared = false,
  ) {
  }

  /** A zeroed boundary block of `size` words (an empty log): of the thread's chunks when shared. */
  private newBounds(size: number): { words: Int32Array; base: number } {
    return this.shared ? takeInts(size) : { words: new Int32Array(size), base: 0 };
  }

  /** Gives back the block of boundaries held (when shared). */
  private dropBounds(): void {
    if (this.shared && this.cap !== 0) giveInts(this.cap, this.bound, this.bb);
    this.bound = EMPTY;
    this.bb = 0;
    this.cap = 0;
  }

  private get stream(): ProseStream {
    return this.s as ProseStream;
  }

  record(call: ObservedCall): void {
    this.found = null;
    this.sentenceFound = null;
    this.call = call.index;
    const text = call.event.text;
    if (typeof text !== 'string' || text.length === 0) return;
    const round = call.event.round;
    // the calls of one turn may each carry the turn's message: it is said once, not once per call
    if (round !== undefined && round === this.textRound && this.sameText(text)) return;
    this.feed(text, true);
    this.textRound = round ?? NaN;
    // the text is read again only by a call of the same round: without one (the traces' calls, most
    // library callers') nothing reads it, so it is not held (~250 B a session of real calls; a snapshot
    // then saves 0 for its fingerprint, which a restored session never compares either)
    this.lastText = round === undefined ? null : text;
    if (round === undefined) this.lastTextHash = 0;
  }

  /** Whether `text` is the text read last (by its fingerprint after a snapshot was loaded). */
  private sameText(text: string): boolean {
    if (this.lastText !== null) return text === this.lastText;
    return hashString(text) >>> 0 === this.lastTextHash;
  }

  /** Feeds a piece of streamed text (lines may be split across pieces), attributed to call `callIndex`. */
  recordText(text: string, callIndex: number): void {
    this.found = null;
    this.sentenceFound = null;
    this.call = callIndex;
    this.feed(text, false);
  }

  private feed(text: string, complete: boolean): void {
    if (this.s === null) this.start();
    // a stream made by ready() has no boundary yet: only then can it be in the set
    else if (this.bounds === 0) unread.delete(this.s);
    this.mark();
    // (flush() empties the queue before it pushes, so a feed that threw leaves nothing queued; emptied here too)
    q.text = null;
    q.lineEnd = false;
    let k = 0;
    while (k < text.length) {
      const nl = text.indexOf('\n', k);
      const end = nl < 0 ? text.length : nl + 1;
      if (this.lineClass === 'prose') {
        this.queue(text, k, end);
        if (nl >= 0) this.lineClass = 'unknown';
      } else if (this.lineClass === 'skip') {
        if (nl >= 0) this.lineClass = 'unknown';
      } else if (nl >= 0 && this.lineBuf.length === 0) {
        // a whole line of this text: classified where it lies (no copy), its prose queued as a range
        const from = this.filter.proseIn(text, k, nl);
        if (from >= 0) this.queue(text, k + from, end);
      } else if (complete && this.lineBuf.length === 0) {
        // a complete text's last line, without its line feed: nothing more of it comes, so it is classified
        // where it lies, as a line of pieces is once it has ended (no copy, no look at its start alone)
        const from = this.filter.proseIn(text, k, end);
        if (from >= 0) this.queue(text, k + from, end);
        this.lineClass = from >= 0 ? 'prose' : 'skip';
      } else {
        // a line that begins here is text[k, end): its prose is queued as a range of the text
        const fresh = this.lineBuf.length === 0;
        this.lineBuf += text.slice(k, end);
        // a line start that decides its class is enough: prose without line breaks is checked as it streams
        if (nl >= 0 || this.lineBuf.length >= CLASSIFY_AFTER || StructureFilter.decided(this.lineBuf)) this.classify(nl >= 0, fresh ? text : null, k);
      }
      k = end;
    }
    if (complete) {
      if (this.lineBuf.length > 0) this.classify(false);
      // the line feed that ends a complete text's prose goes with the prose queued last (one push for both)
      if (this.lineClass === 'prose') {
        if (q.text !== null) q.lineEnd = true;
        else this.appendRange('\n', 0, 1);
      }
      this.lineClass = 'unknown';
    }
    this.flush();
  }

  /**
   * Makes the prose stream now if the first text has not made it yet (its region of the module's memory, for
   * the WebAssembly stream), so that a caller can make room for it before a call reads its text: a
   * CapacityError when the memory has no room, nothing changed. A stream made so reads as one made by the
   * first text: that text's call feeds it at once.
   */
  ready(): void {
    if (this.s !== null) return;
    this.start();
    unread.add(this.stream);
  }

  private start(): void {
    this.s = this.makeStream(this.o);
    this.dropBounds();
    const b = this.newBounds(FIRST_LOG_WORDS);
    this.bound = b.words;
    this.bb = b.base;
    this.cap = FIRST_LOG_WORDS;
    this.restPos = 0;
  }

  /** Moves the boundaries to a block half as large again (at least room for an entry), of whole 8 words. */
  private growBounds(): void {
    const n = Math.max(wordsFor(this.bound, this.bb, ENTRY_MAX), Math.ceil((this.cap * 1.5) / 8) * 8);
    const { words: next, base } = this.newBounds(n);
    logCopy(this.bound, this.bb, next, base);
    this.dropBounds();
    this.bound = next;
    this.bb = base;
    this.cap = n;
  }

  /** Appends boundary (pos, call), the oldest dropped past BOUNDS (the block grown when it has no room). */
  private pushBound(pos: number, call: number): void {
    if (logRoom(this.bound, this.bb, this.cap) < ENTRY_MAX) this.growBounds();
    logAppend(this.bound, this.bb, this.cap, pos, call, BOUNDS);
  }

  /** Empties the boundaries and appends `count` from readPos and readCall (a snapshot's, or a rebase's). */
  private refill(count: number): void {
    logClear(this.bound, this.bb);
    for (let j = 0; j < count; j++) this.pushBound(readPos[j] as number, readCall[j] as number);
  }

  /**
   * Classifies the line in lineBuf and streams its prose: queued as a range of `text` when the line is
   * text[at, at + its length), else streamed from the line itself.
   */
  private classify(endOfLine: boolean, text: string | null = null, at = 0): void {
    const line = this.lineBuf;
    this.lineBuf = '';
    // a closing fence followed by text on the same line: the text after the fence is prose
    const from = this.filter.proseIn(line, 0, endOfLine ? line.length - 1 : line.length);
    // (a line of pieces is queued from the line itself: pushed after the prose queued before it, as it came)
    if (from >= 0) this.queue(text ?? line, (text === null ? 0 : at) + from, (text === null ? 0 : at) + line.length);
    this.lineClass = endOfLine ? 'unknown' : from >= 0 ? 'prose' : 'skip';
  }

  /**
   * Queues text[from, to) for the stream: a range that goes on from the one queued is joined to it, so
   * the prose lines of a message, back to back in its text, take one push (the stream sees the same
   * characters in the same order, and stops at a hit wherever it is).
   */
  private queue(text: string, from: number, to: number): void {
    if (q.text === text && q.to === from) {
      q.to = to;
      return;
    }
    this.flush();
    q.text = text;
    q.from = from;
    q.to = to;
  }

  /** Streams the queued range, if any. */
  private flush(): void {
    const text = q.text;
    if (text === null) return;
    q.text = null;
    const lineEnd = q.lineEnd;
    q.lineEnd = false;
    this.appendRange(text, q.from, q.to, lineEnd);
  }

  private mark(): void {
    this.pushBound(this.stream.pos, this.call);
    this.bounds++;
  }

  /**
   * Streams the characters of `text` from `from` to `to`, then a line feed with `lineEnd`: the stream runs
   * on until a character hits (a chunk repeated, or a sentence said again), which is noted here before it
   * goes on, and stops where positions are due to be rebased.
   */
  private appendRange(text: string, from: number, to: number, lineEnd = false): void {
    const s = this.stream;
    const piece = this.bounds;
    const end = lineEnd ? to + 1 : to;
    let k = from;
    while (k < end) {
      if (s.pos >= this.rebaseAt) this.rebase();
      k = s.push(text, k, to, piece, this.rebaseAt, lineEnd);
      if (s.hitPeriod > 0) this.note(s.hitPeriod, s.hitAt);
      if (s.said !== null) this.sentenceFound = s.said;
    }
  }

  /** Moves the stream's positions back (see PeriodSearch.rebase), the ones kept here too. */
  private rebase(): void {
    const shift = this.stream.rebase();
    if (shift === 0) return;
    const count = logRead(this.bound, this.bb, readPos, readCall);
    for (let j = 0; j < count; j++) readPos[j] = Math.max((readPos[j] as number) - shift, -(2 ** 30));
    this.refill(count);
    this.restPos = Math.max(this.restPos - shift, -(2 ** 30));
    if (this.found !== null) this.found.end -= shift;
    if (this.sentenceFound !== null) this.sentenceFound = { ...this.sentenceFound, firstStart: this.sentenceFound.firstStart - shift };
  }

  private note(period: number, end: number): void {
    const span = this.stream.hitRun + period;
    // a long chunk repeated across pieces of text (messages) needs one repetition more than within one
    const reps = Math.floor(span / period);
    const pieceStart = newestPos(this.bound, this.bb);
    if (period >= this.o.longChunk && reps < this.o.threshold && reps <= this.o.longRepetitions && end - span + 1 < pieceStart) return;
    const f = this.found;
    if (f !== null && f.period === period && f.end === end - 1) {
      f.span = span;
      f.end = end;
      return;
    }
    let chunk = '';
    for (let k = end - period + 1; k <= end; k++) chunk += String.fromCharCode(this.stream.charAt(k));
    if (!HAS_WORD.test(chunk)) return;
    if (this.shortChunkSaidOver(chunk, span)) return;
    this.found = { period, span, end, chunk };
  }

  /**
   * Whether a long chunk is a short one said over (src/text/chunk-root.ts) whose repetitions over `span`
   * are still fewer than the short rule's threshold: then it is not yet chanting.
   */
  private shortChunkSaidOver(chunk: string, span: number): boolean {
    if (chunk.length < this.o.longChunk) return false;
    const root = rootLength(chunk);
    return root < this.o.longChunk && Math.floor(span / root) < this.o.threshold;
  }

  /**
   * The call of the boundary with the largest position at or before `streamPos` (this call when none); of
   * boundaries at one position, the one a ring of BOUNDS slots (boundary b in slot b % BOUNDS) holds in its
   * highest slot, as the slot-by-slot scan of the ring this log replaced chose.
   */
  private callAt(streamPos: number): number {
    const count = logRead(this.bound, this.bb, readPos, readCall);
    const first = this.bounds - count;
    let best = this.call;
    let bestPos = -Infinity;
    let bestSlot = -1;
    for (let j = 0; j < count; j++) {
      const p = readPos[j] as number;
      if (p > streamPos || p < bestPos) continue;
      const slot = (first + j) % BOUNDS;
      if (p > bestPos || slot > bestSlot) {
        bestPos = p;
        bestSlot = slot;
        best = readCall[j] as number;
      }
    }
    return best;
  }

  check(): LoopSignal | null {
    const f = this.found;
    if (f === null) return this.sentenceSignal();
    const reps = Math.floor(f.span / f.period);
    const shown = f.chunk.replace(/\s+/g, ' ');
    const long = f.period >= this.o.longChunk;
    return {
      kind: 'chanting',
      detector: this.name,
      pattern: `the text "${cutText(shown, 80)}" repeated ${reps} times back to back`,
      confidence: clampConfidence(long ? 0.6 + 0.05 * (reps - this.o.longRepetitions) : 0.6 + 0.02 * (reps - this.o.threshold)),
      loopStart: this.callAt(f.end - f.span + 1),
      unit: [this.call],
      repeatCount: reps,
      progress: 'unknown',
      progressGated: false,
      chunk: f.chunk,
    };
  }

  /** The signal for a long sentence said again and again, other text between, or null. */
  private sentenceSignal(): LoopSignal | null {
    const s = this.sentenceFound;
    if (s === null) return null;
    const shown = s.text.length > 80 ? s.text.slice(0, 79) + '…' : s.text;
    return {
      kind: 'chanting',
      detector: this.name,
      pattern: `the sentence "${shown}" said ${s.count} times in the last ${SENTENCE_WINDOW} sentences`,
      confidence: clampConfidence(0.6 + 0.05 * (s.count - this.o.longRepetitions)),
      loopStart: this.callAt(s.firstStart),
      unit: [this.call],
      repeatCount: s.count,
      progress: 'unknown',
      progressGated: false,
      chunk: s.text,
    };
  }

  /** Writes its whole state for a snapshot. */
  save(w: ByteWriter): void {
    w.i32(this.call);
    w.f64(this.textRound);
    w.u32(this.lastText === null ? this.lastTextHash : hashString(this.lastText) >>> 0);
    // a stream made for a text not read yet holds nothing a stream made by that text would not: saved as none
    if (this.s === null || unread.has(this.s)) {
      w.bool(false);
      return;
    }
    w.bool(true);
    this.s.save(w);
    w.bool(this.filter.fenceOpen);
    w.str(this.lineBuf);
    w.u8(this.lineClass === 'unknown' ? 0 : this.lineClass === 'prose' ? 1 : 2);
    w.f64(this.bounds);
    // as a ring of BOUNDS slots (boundary b in slot b % BOUNDS), the slots not made yet holding restPos and 0
    const count = logRead(this.bound, this.bb, readPos, readCall);
    const pos = new Int32Array(BOUNDS).fill(this.restPos);
    const calls = new Int32Array(BOUNDS);
    const first = this.bounds - count;
    for (let j = 0; j < count; j++) {
      pos[(first + j) % BOUNDS] = readPos[j] as number;
      calls[(first + j) % BOUNDS] = readCall[j] as number;
    }
    w.view(pos);
    w.view(calls);
    const f = this.found;
    w.bool(f !== null);
    if (f !== null) {
      w.u32(f.period);
      w.i32(f.span);
      w.i32(f.end);
      w.str(f.chunk);
    }
    const s = this.sentenceFound;
    w.bool(s !== null);
    if (s !== null) {
      w.str(s.text);
      w.u32(s.count);
      w.i32(s.firstStart);
    }
  }

  /**
   * Reads what save() wrote, in snapshot format `version` (default: today's; before 8, no text was
   * remembered: the next text is read whatever its round).
   */
  load(r: ByteReader, version = SNAPSHOT_VERSION): void {
    this.reset();
    this.call = r.i32();
    if (version >= 8) {
      this.textRound = r.f64();
      this.lastTextHash = r.u32();
    }
    if (!r.bool()) return;
    if (this.s === null) this.start();
    else unread.delete(this.s);
    this.stream.load(r);
    this.filter.fenceOpen = r.bool();
    this.lineBuf = r.str();
    const c = r.u8();
    if (c > 2) throw new SnapshotError('loopwatch: the snapshot is corrupt (line state)');
    this.lineClass = c === 0 ? 'unknown' : c === 1 ? 'prose' : 'skip';
    const bounds = r.f64();
    if (!Number.isSafeInteger(bounds) || bounds < 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (chanting boundaries)');
    this.bounds = bounds;
    const pos = new Int32Array(BOUNDS);
    const calls = new Int32Array(BOUNDS);
    r.into(pos);
    r.into(calls);
    const count = Math.min(bounds, BOUNDS);
    const first = bounds - count;
    for (let j = 0; j < count; j++) {
      readPos[j] = pos[(first + j) % BOUNDS] as number;
      readCall[j] = calls[(first + j) % BOUNDS] as number;
    }
    // the slots not made yet hold restPos (moved back by each rebase since the session began)
    if (count < BOUNDS) this.restPos = pos[count] as number;
    this.refill(count);
    this.found = r.bool() ? { period: r.u32(), span: r.i32(), end: r.i32(), chunk: r.str() } : null;
    this.sentenceFound = r.bool() ? { text: r.str(), count: r.u32(), firstStart: r.i32() } : null;
  }

  reset(): void {
    this.s?.reset();
    this.textRound = NaN;
    this.lastText = null;
    this.lastTextHash = 0;
    this.bounds = 0;
    if (this.cap !== 0) logClear(this.bound, this.bb);
    this.lineBuf = '';
    this.lineClass = 'unknown';
    this.found = null;
    this.sentenceFound = null;
    this.filter.reset();
  }

  /** Releases the prose stream (its memory outside the JavaScript heap); the detector is not used again. */
  dispose(): void {
    this.s?.dispose();
    this.s = null;
    // the boundaries' shared block goes back to the thread; a disposed detector keeps no blocks of its
    // chunks (it reads as a fresh one: its stream is gone too)
    this.dropBounds();
    this.shared = false;
  }
}
