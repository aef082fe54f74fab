/**
 * A prose stream (`src/text/prose-stream.ts`) whose per-character work runs in the WebAssembly module
 * (assembly/chant.ts): the period search and sentence tracker of one session live in a region of the
 * thread's linear memory, allocated with the session slots' allocator under a chanting config, when the
 * session's first text arrives (the detector makes its stream then), and freed by dispose().
 *
 * A range of prose is copied into the module's text area as UTF-16 code units (as they are: lone
 * surrogates included), by Buffer's native UTF-16LE write (on the traces' prose, chanting took 78 ms
 * against 101 ms with a `charCodeAt` loop into a Uint16Array: `node dist/bench/chanting-cost.js`), and
 * pushed by one call, which stops only right after a hit; the detector handles
 * the hit and pushes on from there, and the units already copied are used again (one copy per range).
 */
import { CapacityError, DisposedError, SnapshotError, WasmTrapError } from '../errors.js';
import type { ChantingOptions } from '../options/detector-options.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { ProseStream } from '../text/prose-stream.js';
import type { RepeatedSentence } from '../text/sentence-repeats.js';
import { type ChantLayout, chantLayout, regionFrom11, regionFromPositions, regionFromWide } from './chant-layout.js';
import * as A from './generated/abi.js';
import { type WasmCore, sharedCore } from './wasm-core.js';
import { CHANT_TEXT_BYTES, type WasmInstance } from './wasm-module.js';

/** Code units copied into the module per call at most (a longer range is pushed a window at a time). */
const TEXT_UNITS = CHANT_TEXT_BYTES / 2;
const BAD_REGION = 0xffffffff;
/** The unit a push with `lineEnd` adds after its range. */
const LINE_FEED = 0x0a;

/** A thread's text area: where it is, and which range of which text it holds. */
interface TextArea {
  ptr: number;
  u16: Uint16Array;
  /** The same memory as a Buffer, for its native UTF-16 writes. */
  bytes: Buffer;
  owner: WasmProseStream | null;
  text: string;
  /**
   * text[from, to) is at ptr, copied for a push whose range ends at `end`; with `lineEnd`, the push's line
   * feed is the unit at index `end - 1` (a range that ends at `end - 1`), copied after the text when `to` is `end`.
   */
  from: number;
  to: number;
  end: number;
  lineEnd: boolean;
}

const areas = new WeakMap<WasmInstance, TextArea>();

/** The instance's text area (made with the instance, wasm-module.ts); a CapacityError when memory had no room for it. */
function areaOf(instance: WasmInstance): TextArea {
  let a = areas.get(instance);
  if (a === undefined) {
    const ptr = instance.exports.reserveText(TEXT_UNITS * 2) >>> 0;
    if (ptr === 0) throw new CapacityError(`loopwatch: this thread's WebAssembly memory has no room for chanting's text area (${TEXT_UNITS * 2} bytes)`);
    a = { ptr, u16: new Uint16Array(instance.memory.buffer), bytes: Buffer.from(instance.memory.buffer), owner: null, text: '', from: 0, to: 0, end: 0, lineEnd: false };
    areas.set(instance, a);
  }
  // the memory grew since: the old view is detached (empty)
  if (a.u16.length === 0) {
    a.u16 = new Uint16Array(instance.memory.buffer);
    a.bytes = Buffer.from(instance.memory.buffer);
  }
  return a;
}

/** The WebAssembly stream of one session's prose. */
export class WasmProseStream implements ProseStream {
  /** The region's position, mirrored here (a read of the memory less per push). */
  pos = 0;
  hitPeriod = 0;
  hitAt = 0;
  said: RepeatedSentence | null = null;
  private readonly instance: WasmInstance;
  private readonly layout: ChantLayout;
  private readonly config: number;
  private region: number;
  /** Stopping for a rebase below this position is a no-op (PeriodSearch.rebase shifts from 3 ring sizes). */
  private readonly rebaseFloor: number;
  /** The thread's text area (reserved at the first push). */
  private area: TextArea | null = null;

  constructor(
    o: ChantingOptions,
    private readonly core: WasmCore = sharedCore(),
  ) {
    this.instance = core.instance;
    this.layout = chantLayout(o);
    this.config = core.acquire(this.layout);
    try {
      this.region = core.alloc(this.config);
    } catch (e) {
      core.release(this.config);
      throw e;
    }
    this.instance.exports.chantReset(this.region);
    this.rebaseFloor = 3 * this.layout.ringSize;
  }

  private get live(): number {
    if (this.region === 0) throw new DisposedError('loopwatch: this chanting stream was disposed');
    return this.region;
  }

  private word(off: number): number {
    return (this.instance.views().u32[(this.live + off) >>> 2] as number) | 0;
  }

  get hitRun(): number {
    return this.word(A.CS_HIT_RUN);
  }

  push(text: string, from: number, to: number, piece: number, limit: number, lineEnd = false): number {
    const region = this.live;
    let a = this.area;
    if (a === null || a.u16.length === 0) a = this.area = areaOf(this.instance);
    const end = lineEnd ? to + 1 : to;
    if (a.owner !== this || a.end !== end || a.lineEnd !== lineEnd || from < a.from || from >= a.to || a.text !== text) {
      const n = Math.min(to - from, TEXT_UNITS);
      // UTF-16LE as the units are, lone surrogates included; the whole text when it is the range
      if (n > 0) a.bytes.write(n === text.length ? text : text.substring(from, from + n), a.ptr, 2 * n, 'utf16le');
      // the line feed after the range, when the range is all copied and the area has room for one unit more
      const feed = lineEnd && from + n === to && n < TEXT_UNITS;
      if (feed) a.bytes.writeUInt16LE(LINE_FEED, a.ptr + 2 * n);
      a.owner = this;
      a.text = text;
      a.from = from;
      a.to = from + n + (feed ? 1 : 0);
      a.end = end;
      a.lineEnd = lineEnd;
    }
    let done: number;
    try {
      done = this.instance.exports.chantPush(region, a.ptr + 2 * (from - a.from), a.to - from, piece, Math.max(limit, this.rebaseFloor)) >>> 0;
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      this.instance.recover();
      this.instance.exports.chantReset(region);
      this.pos = 0;
      throw new WasmTrapError(`loopwatch: the WebAssembly module trapped in chanting's text search (${e.message}); the session's text stream was reset`, { cause: e });
    }
    if (done === BAD_REGION) throw new DisposedError('loopwatch: this session has no live chanting region');
    const k = from + done;
    this.pos += done;
    // the range is done: the area keeps no reference to the caller's text
    if (k === end) {
      a.owner = null;
      a.text = '';
    }
    const u32 = this.instance.views().u32;
    const r4 = region >>> 2;
    this.hitPeriod = u32[r4 + (A.CO_PERIOD >>> 2)] as number;
    this.hitAt = (u32[r4 + (A.CO_AT >>> 2)] as number) | 0;
    const count = u32[r4 + (A.CO_SAID >>> 2)] as number;
    this.said = count === 0 ? null : this.sentence(count);
    return k;
  }

  /** The repeated sentence the last push stopped on. */
  private sentence(count: number): RepeatedSentence {
    const u32 = this.instance.views().u32;
    const r4 = this.region >>> 2;
    const shown = u32[r4 + (A.CO_SHOWN >>> 2)] as number;
    const at = (this.region + A.CS_SHOWN) >>> 1;
    const text = String.fromCharCode(...this.units().subarray(at, at + shown));
    return { text, count, firstStart: (u32[r4 + (A.CO_FIRST >>> 2)] as number) | 0 };
  }

  charAt(p: number): number {
    return this.units()[((this.live + this.layout.ringOff) >>> 1) + (p & (this.layout.ringSize - 1))] as number;
  }

  /** A view of the memory as UTF-16 units. */
  private units(): Uint16Array {
    let a = this.area;
    if (a === null || a.u16.length === 0) a = this.area = areaOf(this.instance);
    return a.u16;
  }

  rebase(): number {
    const shift = this.instance.exports.chantRebase(this.live);
    this.pos -= shift;
    return shift;
  }

  /** The region's bytes, raw (the session's options decide their layout; the snapshot's fingerprint checks them). */
  save(w: ByteWriter): void {
    w.bytes(this.core.readSlot(this.live, this.layout.slotSize));
  }

  load(r: ByteReader): void {
    const region = this.live;
    const saved = r.bytes();
    // regions saved while links were positions (5,248 bytes with the defaults) are turned into distances,
    // then those saved with heads i32 and flags u8 (4,736 bytes) into format 11's, and format 11's (links
    // u16 and gram hashes, 3,248 bytes) into today's form (chant-layout.ts)
    const l = this.layout;
    const wide = saved.length === l.positionsSize ? regionFromPositions(saved, l) : saved;
    const form11 = wide.length === l.wide.size ? regionFromWide(wide, l) : wide;
    const state = form11.length === l.v11.size ? regionFrom11(form11, l) : form11;
    if (state.length !== this.layout.slotSize) throw new SnapshotError(`loopwatch: the snapshot's chanting state has ${state.length} bytes where these options lay out ${this.layout.slotSize}`);
    this.core.writeSlot(region, state);
    const bad = this.instance.exports.chantCheck(region);
    if (bad !== 0) {
      this.instance.exports.chantReset(region);
      this.pos = 0;
      throw new SnapshotError(`loopwatch: the snapshot is corrupt (chanting state, check ${bad})`);
    }
    this.pos = this.word(A.CS_POS);
    this.hitPeriod = 0;
    this.said = null;
  }

  reset(): void {
    this.instance.exports.chantReset(this.live);
    this.pos = 0;
    this.hitPeriod = 0;
    this.said = null;
  }

  dispose(): void {
    if (this.region === 0) return;
    const a = areas.get(this.instance);
    if (a !== undefined && a.owner === this) {
      a.owner = null;
      a.text = '';
    }
    this.core.free(this.region);
    this.core.release(this.config);
    this.region = 0;
  }
}
