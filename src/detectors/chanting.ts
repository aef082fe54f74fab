/**
 * Text chanting: the agent's text repeating the same chunk back to back (degenerate generation).
 *
 * Prose is compared, character by character, with itself shifted by every period `L` up to `maxPeriod`:
 * `run[L]` counts how many characters in a row have matched the one `L` before them, so a chunk of `L`
 * characters repeated back to back shows as `run[L] + L` characters of period `L`. Only the periods at
 * which the new character matches are visited (the earlier positions of the same character, chained
 * through the ring), and a run not extended at the previous position counts as broken, so a character
 * costs O(its occurrences in the last `maxPeriod`), not O(maxPeriod).
 *
 * ```
 *   text:   . . x  A B C A B C A B C A B C      (L = 3)
 *   run[3]: 0 0 0  0 0 0 1 2 3 4 5 6 7 8 9      span = run + L = 12, repetitions = 4
 * ```
 *
 * It fires when a chunk (with at least one letter or digit) repeats `threshold` times over at least
 * `minLength` characters; the smallest such period is reported. Code fences and their contents, tables,
 * list items, headings, quotes and dividers are left out (see `structure-lines.ts`). Memory is
 * O(maxPeriod + distinct characters in the last maxPeriod).
 * Confidence `0.6 + 0.02 * (repetitions - threshold)`.
 */
import type { ChantingOptions } from '../options/detector-options.js';
import { StructureFilter } from '../text/structure-lines.js';
import type { LoopSignal } from '../types.js';
import { clampConfidence } from './context.js';
import type { Detector, ObservedCall } from './detector.js';

/** Characters of a line read before it is classified when it arrives in pieces. */
const CLASSIFY_AFTER = 200;
/** Text-to-call boundaries remembered, to say which call a chant began in. */
const BOUNDS = 256;
const HAS_WORD = /[\p{L}\p{N}]/u;

interface Found {
  readonly period: number;
  span: number;
  end: number;
  readonly chunk: string;
}

/** Detects text that repeats the same chunk over and over. */
export class ChantingDetector implements Detector {
  readonly name = 'chanting';
  private readonly ring: Uint16Array;
  /** Absolute position of the previous occurrence of the character at each ring slot (-1: none). */
  private readonly prevSame: Float64Array;
  /** Absolute position of the last occurrence of each character below 256 (-1: none). */
  private readonly lastLatin = new Float64Array(256).fill(-1);
  /** The same for the other characters. */
  private lastOf = new Map<number, number>();
  private readonly run: Int32Array;
  /** Position at which `run[L]` was last extended. */
  private readonly runEnd: Float64Array;
  private readonly filter = new StructureFilter();
  private readonly boundPos = new Float64Array(BOUNDS);
  private readonly boundCall = new Int32Array(BOUNDS);
  private bounds = 0;
  private pos = 0;
  private lineBuf = '';
  private lineClass: 'unknown' | 'prose' | 'skip' = 'unknown';
  private found: Found | null = null;
  private call = 0;

  constructor(private readonly o: ChantingOptions) {
    this.ring = new Uint16Array(o.maxPeriod + 1);
    this.prevSame = new Float64Array(o.maxPeriod + 1);
    this.run = new Int32Array(o.maxPeriod + 1);
    this.runEnd = new Float64Array(o.maxPeriod + 1).fill(-2);
  }

  record(call: ObservedCall): void {
    this.found = null;
    this.call = call.index;
    const text = call.event.text;
    if (typeof text === 'string' && text.length > 0) this.feed(text, true);
  }

  /** Feeds a piece of streamed text (lines may be split across pieces), attributed to call `callIndex`. */
  recordText(text: string, callIndex: number): void {
    this.found = null;
    this.call = callIndex;
    this.feed(text, false);
  }

  private feed(text: string, complete: boolean): void {
    this.mark();
    let k = 0;
    while (k < text.length) {
      const nl = text.indexOf('\n', k);
      const end = nl < 0 ? text.length : nl + 1;
      if (this.lineClass === 'prose') {
        for (let j = k; j < end; j++) this.append(text.charCodeAt(j));
        if (nl >= 0) this.lineClass = 'unknown';
      } else if (this.lineClass === 'skip') {
        if (nl >= 0) this.lineClass = 'unknown';
      } else {
        this.lineBuf += text.slice(k, end);
        if (nl >= 0 || this.lineBuf.length >= CLASSIFY_AFTER) this.classify(nl >= 0);
      }
      k = end;
    }
    if (complete) {
      if (this.lineBuf.length > 0) this.classify(false);
      if (this.lineClass === 'prose') this.append(10);
      this.lineClass = 'unknown';
    }
  }

  private classify(endOfLine: boolean): void {
    const line = this.lineBuf;
    this.lineBuf = '';
    const prose = this.filter.isProse(endOfLine ? line.slice(0, -1) : line);
    if (prose) for (let k = 0; k < line.length; k++) this.append(line.charCodeAt(k));
    this.lineClass = endOfLine ? 'unknown' : prose ? 'prose' : 'skip';
  }

  private mark(): void {
    const b = this.bounds % BOUNDS;
    this.boundPos[b] = this.pos;
    this.boundCall[b] = this.call;
    this.bounds++;
  }

  private append(ch: number): void {
    const P = this.o.maxPeriod;
    const size = P + 1;
    const i = this.pos;
    const need = this.o.threshold - 1;
    let before: number;
    if (ch < 256) {
      before = this.lastLatin[ch] as number;
      this.lastLatin[ch] = i;
    } else {
      before = this.lastOf.get(ch) ?? -1;
      this.lastOf.set(ch, i);
    }
    this.prevSame[i % size] = before;
    this.ring[i % size] = ch;
    this.pos++;
    let hit = 0;
    let q = before;
    while (q >= 0 && i - q <= P) {
      const L = i - q;
      const r = this.runEnd[L] === i - 1 ? (this.run[L] as number) + 1 : 1;
      this.run[L] = r;
      this.runEnd[L] = i;
      if (hit === 0 && r >= need * L && r + L >= this.o.minLength) hit = L;
      q = this.prevSame[q % size] as number;
    }
    if (this.lastOf.size > 4 * size) this.pruneLastOf(i - P);
    if (hit > 0) this.note(hit, i);
  }

  /** Forgets characters not seen since `from` (they can no longer match). */
  private pruneLastOf(from: number): void {
    const kept = new Map<number, number>();
    for (const [c, p] of this.lastOf) if (p >= from) kept.set(c, p);
    this.lastOf = kept;
  }

  private note(period: number, end: number): void {
    const span = (this.run[period] as number) + period;
    const f = this.found;
    if (f !== null && f.period === period && f.end === end - 1) {
      f.span = span;
      f.end = end;
      return;
    }
    let chunk = '';
    for (let k = end - period + 1; k <= end; k++) chunk += String.fromCharCode(this.ring[k % (this.o.maxPeriod + 1)] as number);
    if (!HAS_WORD.test(chunk)) return;
    this.found = { period, span, end, chunk };
  }

  private callAt(streamPos: number): number {
    const kept = Math.min(this.bounds, BOUNDS);
    let best = this.call;
    let bestPos = -1;
    for (let k = 0; k < kept; k++) {
      const p = this.boundPos[k] as number;
      if (p <= streamPos && p >= bestPos) {
        bestPos = p;
        best = this.boundCall[k] as number;
      }
    }
    return best;
  }

  check(): LoopSignal | null {
    const f = this.found;
    if (f === null) return null;
    const reps = Math.floor(f.span / f.period);
    const shown = f.chunk.replace(/\s+/g, ' ');
    return {
      kind: 'chanting',
      detector: this.name,
      pattern: `the text "${shown.length > 80 ? shown.slice(0, 79) + '…' : shown}" repeated ${reps} times back to back`,
      confidence: clampConfidence(0.6 + 0.02 * (reps - this.o.threshold)),
      loopStart: this.callAt(f.end - f.span + 1),
      unit: [this.call],
      repeatCount: reps,
      progress: 'unknown',
      progressGated: false,
      chunk: f.chunk,
    };
  }

  reset(): void {
    this.run.fill(0);
    this.runEnd.fill(-2);
    this.lastOf.clear();
    this.lastLatin.fill(-1);
    this.pos = 0;
    this.bounds = 0;
    this.lineBuf = '';
    this.lineClass = 'unknown';
    this.found = null;
    this.filter.reset();
  }
}
