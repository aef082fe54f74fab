/**
 * A session slot in its saved form, for snapshots and undo copies: state repeat's ring of keys, which the
 * module keeps in a block beside the slot sized to the calls seen (assembly/state-ring.ts), is put back in
 * place of the block's two words, as long as the window. That is the layout every snapshot format holds,
 * so snapshots written before the block restore as they are, and new ones are the same bytes.
 *
 * ```
 *  live slot:   [... error ring | block, capacity | flags | semantic ...]      block: key[capacity]
 *  saved form:  [... error ring | key[window]     | flags | semantic ...]      (keys past capacity are 0)
 * ```
 */
import { CapacityError } from '../errors.js';
import * as A from './generated/abi.js';
import type { SlotLayout } from './slot-layout.js';
import type { WasmCore } from './wasm-core.js';

/**
 * The block capacity a ring of `window` keys has after a session's calls: its write position `pos` and
 * call count `count` (the module doubles it from STATE_FIRST keys when a write would pass its end).
 */
export function stateCapacity(pos: number, count: number, window: number): number {
  if (count >= window) return window;
  if (pos === 0) return 0;
  let cap = A.STATE_FIRST;
  while (cap < pos) cap *= 2;
  return Math.min(cap, window);
}

/** Bytes after the ring's place that both forms hold (each is padded to 16 bytes past them with zeros). */
function tailBytes(layout: SlotLayout): number {
  return Math.min(layout.slotSize - layout.stateOff - 8, layout.savedSize - layout.stateOff - layout.stateWindow * 4);
}

/** Copies a live slot into `into` (at least `layout.savedSize` bytes) in its saved form. */
export function saveSlotInto(core: WasmCore, slot: number, layout: SlotLayout, into: Uint8Array): void {
  const { u8, u32 } = core.instance.views();
  if (layout.stateWindow === 0) {
    into.set(u8.subarray(slot, slot + layout.slotSize));
    return;
  }
  const off = layout.stateOff;
  const keys = layout.stateWindow * 4;
  into.set(u8.subarray(slot, slot + off));
  const block = u32[(slot + off) >>> 2] as number;
  const cap = u32[(slot + off + 4) >>> 2] as number;
  if (block !== 0) into.set(u8.subarray(block, block + cap * 4), off);
  into.fill(0, off + (block === 0 ? 0 : cap * 4), off + keys);
  const tail = tailBytes(layout);
  into.set(u8.subarray(slot + off + 8, slot + off + 8 + tail), off + keys);
  into.fill(0, off + keys + tail, layout.savedSize);
}

/** A live slot's saved form, for a snapshot (the header words that tie it to this memory zeroed). */
export function savedSlot(core: WasmCore, slot: number, layout: SlotLayout): Uint8Array {
  const copy = new Uint8Array(layout.savedSize);
  saveSlotInto(core, slot, layout, copy);
  const dv = new DataView(copy.buffer);
  dv.setUint32(A.S_CONFIG, 0, true);
  dv.setUint32(A.S_STATE, 0, true);
  dv.setUint32(A.S_NEXT, 0, true);
  return copy;
}

/**
 * Puts a slot's saved form (`saved`, `layout.savedSize` bytes) back into a live slot of the same
 * configuration: the slot's bytes, and the ring's keys into a block of the capacity they had (the live
 * block kept when it has that capacity already, as after a rollback with no growth since the mark).
 */
export function restoreSlot(core: WasmCore, slot: number, layout: SlotLayout, saved: Uint8Array): void {
  if (layout.stateWindow === 0) {
    core.writeSlot(slot, saved.length === layout.slotSize ? saved : saved.subarray(0, layout.slotSize));
    return;
  }
  const off = layout.stateOff;
  const keys = layout.stateWindow * 4;
  const dv = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  const pos = dv.getUint16(A.S_STATE_POS, true);
  const cap = stateCapacity(pos, dv.getUint32(A.S_COUNT, true), layout.stateWindow);
  const { u32: was } = core.instance.views();
  let block = was[(slot + off) >>> 2] as number;
  if ((was[(slot + off + 4) >>> 2] as number) !== cap || (block === 0) !== (cap === 0)) {
    block = core.instance.exports.stateResize(slot, cap) >>> 0;
    if (block === 0 && cap !== 0) throw new CapacityError(`loopwatch: this thread's WebAssembly memory has no room for a session's state ring of ${cap} keys`);
  }
  // the bytes before the ring's words as core.writeSlot puts them (the words tying the slot to this memory stay, a quarantine is lifted)
  core.writeSlot(slot, saved.subarray(0, off));
  const { u8, u32 } = core.instance.views();
  const tail = tailBytes(layout);
  u8.set(saved.subarray(off + keys, off + keys + tail), slot + off + 8);
  u8.fill(0, slot + off + 8 + tail, slot + layout.slotSize);
  u32[(slot + off) >>> 2] = block;
  u32[(slot + off + 4) >>> 2] = cap;
  if (block !== 0) u8.set(saved.subarray(off, off + cap * 4), block);
}
