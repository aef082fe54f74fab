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
 * Each semantic entry's head word (count and sketch length, assembly/sem-entry.ts) is two words in the
 * saved form, as every entry was before the head word, followed by room for k hashes: the sketch's, read
 * from its block beside the slot (assembly/sketch-blocks.ts), then zeros (a live entry kept an older
 * sketch's hashes there before the blocks: snapshots written before them hold those, which no read uses).
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

/**
 * Bytes after the ring's place copied as they are (each form is padded to 16 bytes past them with zeros):
 * up to the semantic entries, whose saved form is written entry by entry, or to the slot's end.
 */
function tailBytes(layout: SlotLayout): number {
  if (layout.semantic.cap !== 0) return layout.semantic.off - layout.stateOff - 8;
  return Math.min(layout.slotSize - layout.stateOff - 8, layout.savedSize - layout.stateOff - layout.stateWindow * 4);
}

/**
 * Writes a live slot's semantic entries into `into` in their saved form: each head word as its count and
 * length, then the sketch's hashes from its block (assembly/sketch-blocks.ts), zeros past its length.
 */
function widenSemantic(u32: Uint32Array, slot: number, layout: SlotLayout, into: Uint8Array): void {
  const sem = layout.semantic;
  const dv = new DataView(into.buffer, into.byteOffset, into.byteLength);
  const k = sem.k;
  for (let e = 0; e < sem.cap; e++) {
    const live = (slot + sem.off + e * A.SEM_ENTRY_LIVE) >>> 2;
    const head = u32[live] as number;
    const len = head & A.SEM_LEN_MASK;
    const block = (u32[live + 1] as number) >>> 2;
    const to = sem.savedOff + e * sem.savedEntryBytes;
    dv.setUint32(to, head >>> A.SEM_LEN_BITS, true);
    dv.setUint32(to + 4, len, true);
    const n = block === 0 ? 0 : Math.min(len, k);
    for (let h = 0; h < n; h++) dv.setUint32(to + 8 + 4 * h, u32[block + h] as number, true);
    for (let h = n; h < k; h++) dv.setUint32(to + 8 + 4 * h, 0, true);
  }
}

/**
 * Writes the semantic entries of a saved form into a live slot whose entries hold no blocks (sketchDrop):
 * each count and length as one head word, the hashes into a block of the sketch's length.
 */
function narrowSemantic(core: WasmCore, slot: number, layout: SlotLayout, saved: Uint8Array): void {
  const sem = layout.semantic;
  const dv = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  const put = core.instance.exports.sketchPut;
  for (let e = 0; e < sem.cap; e++) {
    const from = sem.savedOff + e * sem.savedEntryBytes;
    const count = Math.min(dv.getUint32(from, true), A.SEM_COUNT_MAX);
    const len = dv.getUint32(from + 4, true) & A.SEM_LEN_MASK;
    const block = put(slot, e, ((count << A.SEM_LEN_BITS) | len) >>> 0) >>> 0;
    if (block === 1) throw new CapacityError(`loopwatch: this thread's WebAssembly memory has no room for a session's semantic sketch of ${len} hashes`);
    if (block !== 0) core.instance.views().u8.set(saved.subarray(from + 8, from + 8 + 4 * len), block);
  }
}

/**
 * Copies a live slot into `into` (at least `layout.savedSize` bytes) in its saved form, for a snapshot or an
 * undo copy (`undo`: a mark before every proposal, which only restoreSlot reads back; the same form).
 */
export function saveSlotInto(core: WasmCore, slot: number, layout: SlotLayout, into: Uint8Array, _undo = false): void {
  const { u8, u32 } = core.instance.views();
  const sem = layout.semantic;
  const widen = sem.cap !== 0;
  if (layout.stateWindow === 0) {
    into.set(u8.subarray(slot, slot + (widen ? sem.off : layout.slotSize)));
    if (widen) {
      widenSemantic(u32, slot, layout, into);
      into.fill(0, sem.savedOff + sem.cap * sem.savedEntryBytes, layout.savedSize);
    }
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
  if (widen) {
    widenSemantic(u32, slot, layout, into);
    into.fill(0, sem.savedOff + sem.cap * sem.savedEntryBytes, layout.savedSize);
  } else into.fill(0, off + keys + tail, layout.savedSize);
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
 * Puts a slot's saved form (`saved`, `layout.savedSize` bytes; with `undo`, an undo copy saveSlotInto made:
 * the same form) back into a live slot of the same configuration: the slot's bytes, the ring's keys into a
 * block of the capacity they had (the live block kept when it has that capacity already, as after a
 * rollback with no growth since the mark), and each semantic sketch into a block of its length.
 */
export function restoreSlot(core: WasmCore, slot: number, layout: SlotLayout, saved: Uint8Array, _undo = false): void {
  const sem = layout.semantic;
  const narrow = sem.cap !== 0;
  // the sketches' blocks go back to the free lists before the entries that hold them are written over
  if (narrow) core.instance.exports.sketchDrop(slot);
  if (layout.stateWindow === 0) {
    if (!narrow) {
      core.writeSlot(slot, saved.length === layout.slotSize ? saved : saved.subarray(0, layout.slotSize));
      return;
    }
    core.writeSlot(slot, saved.subarray(0, sem.off));
    narrowSemantic(core, slot, layout, saved);
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
  if (narrow) narrowSemantic(core, slot, layout, saved);
}
