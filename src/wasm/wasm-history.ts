/**
 * A {@link HistoryReader} over a session's slot in WebAssembly memory, so the detectors that stay in
 * TypeScript (similar args, the exact semantic method) read the same rings the module writes.
 */
import type { HistoryReader, RingId } from '../state/call-history.js';
import * as A from './generated/abi.js';
import type { SlotLayout } from './slot-layout.js';
import type { WasmInstance } from './wasm-module.js';

/** What holds the slot a view reads (its handle changes when the slot is released). */
export interface SlotHolder {
  /** The slot's handle now, 0 when there is none. */
  readonly liveSlot: number;
}

/** Reads one slot's rings. */
export class WasmHistoryView implements HistoryReader {
  constructor(
    private readonly instance: WasmInstance,
    private readonly layout: SlotLayout,
    private readonly holder: SlotHolder,
  ) {}

  private slot(): number {
    return this.holder.liveSlot;
  }

  get count(): number {
    const s = this.slot();
    return s === 0 ? 0 : (this.instance.views().u32[(s + A.S_COUNT) >>> 2] as number);
  }

  get oldest(): number {
    const n = this.count;
    return n > this.layout.histCap ? n - this.layout.histCap : 0;
  }

  /**
   * Whether calls `i` and `j` hold the same word in a ring. A ring may keep fewer calls than `oldest` says
   * (each is as long as what reads it: slot-layout.ts); a call older than its ring keeps has had its word
   * overwritten by a later call's, so it is never the same as another.
   */
  same(ring: RingId, i: number, j: number): boolean {
    const r = this.layout.rings[ring] as { cap: number; off: number };
    if (r.cap === 0) throw new RangeError(`loopwatch: ring ${ring} is not kept for this configuration`);
    const u32 = this.instance.views().u32;
    const s = this.slot();
    const from = (u32[(s + A.S_COUNT) >>> 2] as number) - r.cap;
    if (i < from || j < from) return false;
    const base = (s + r.off) >>> 2;
    return u32[base + (i % r.cap)] === u32[base + (j % r.cap)];
  }

  /** Call `i`'s word in a ring (one held). */
  word(ring: RingId, i: number): number {
    const r = this.layout.rings[ring] as { cap: number; off: number };
    if (r.cap === 0) throw new RangeError(`loopwatch: ring ${ring} is not kept for this configuration`);
    return this.instance.views().u32[((this.slot() + r.off) >>> 2) + (i % r.cap)] as number;
  }

  flagsOf(index: number): number {
    const u8 = this.instance.views().u8;
    return u8[this.slot() + this.layout.flagsOff + (index % (this.layout.rings[2] as { cap: number }).cap)] as number;
  }
}
