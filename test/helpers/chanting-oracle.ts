/**
 * The chanting detector's specification, run the slow way: every period is compared at every character
 * (O(maxPeriod) per character). Tests feed it and the real detector the same text and demand the same
 * signals. Everything but the period search is the detector's own logic, restated.
 */
import type { ChantingOptions } from '../../src/options/detector-options.js';
import { StructureFilter } from '../../src/text/structure-lines.js';
import type { LoopSignal } from '../../src/types.js';
import { clampConfidence } from '../../src/detectors/context.js';
import type { Detector, ObservedCall } from '../../src/detectors/detector.js';

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

/** The brute-force chanting detector. */
export class ChantingOracle implements Detector {
  readonly name = 'chanting';
  private readonly ring: Uint16Array;
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

  private readonly text: number[] = [];

  private append(ch: number): void {
    const P = this.o.maxPeriod;
    const i = this.pos;
    this.text.push(ch);
    this.ring[i % (P + 1)] = ch;
    this.pos++;
    const need = this.o.threshold - 1;
    let hit = 0;
    for (let L = 1; L <= Math.min(P, i); L++) {
      if (this.text[i - L] !== ch) continue;
      const r = this.runEnd[L] === i - 1 ? (this.run[L] as number) + 1 : 1;
      this.run[L] = r;
      this.runEnd[L] = i;
      if (hit === 0 && r >= need * L && r + L >= this.o.minLength) hit = L;
    }
    if (hit > 0) this.note(hit, i);
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
    this.text.length = 0;
    this.pos = 0;
    this.bounds = 0;
    this.lineBuf = '';
    this.lineClass = 'unknown';
    this.found = null;
    this.filter.reset();
  }
}
