/**
 * The host side of the module for one thread: detector configurations registered in the module's config
 * table, session slots, and batches of events across the JS/WebAssembly boundary.
 *
 * A batch is written as consecutive records into the input area and processed by one call. Two things can
 * interrupt it: a record whose JSON args the module hands back (they are written again, parsed here, and
 * the batch goes on from there, so each session's order is kept), and a trap. A trap costs only the event
 * that caused it: the instance is rebuilt over the same memory, that event's session is quarantined, its
 * call reports an error, and the rest of the batch is processed. An event whose record cannot be written
 * (a value that throws when read) fails alone, unrecorded, after the events before it were processed.
 */
import { CapacityError, WasmTrapError } from '../errors.js';
import { unreadable } from '../session/observe-event.js';
import type { ToolEvent } from '../types.js';
import { EncodeOverflow } from './encode-value.js';
import * as A from './generated/abi.js';
import { type ArgsPlan, RecordWriter } from './record-writer.js';
import type { ArgsSummaryMirror } from './args-summary-mirror.js';
import { type SlotLayout, layoutKey } from './slot-layout.js';
import { type WasmInstance, sharedInstance } from './wasm-module.js';
import { LongTextWriter } from './long-text.js';

/**
 * What a configuration registers in the module's config table: its slots' size and its u32 fields (a
 * session slot's {@link SlotLayout}, or a chanting region's layout).
 */
export interface ConfigEntry {
  /** Bytes per slot. */
  readonly slotSize: number;
  /** u32 config fields by byte offset. */
  readonly fields: ReadonlyMap<number, number>;
  /** The semantic threshold (an f64 field; 0 where there is none). */
  readonly semanticThreshold: number;
}

/** One event of a batch. */
export interface BatchItem {
  /** The session's slot handle. */
  slot: number;
  /** The session's config id. */
  config: number;
  /** The event. */
  event: ToolEvent;
  /** How its args are written. */
  args: ArgsPlan;
  /** Fields ignored in its args. */
  ignore: ReadonlySet<string> | null;
  /** Depth cap for its args. */
  maxDepth: number;
  /** Whether results are masked for result repeat (its config's). */
  maskResults: boolean;
  /**
   * Whether the host reads the session's rings after the call (similar args, the exact semantic method):
   * then no later call of the same session may share its crossing, or the host would read rings already
   * moved on.
   */
  readsRings: boolean;
  /** Whether the call is a proposal, checked before it runs (its outcome is left out of progress). */
  proposed?: boolean;
  /** Whether its session weighs an acknowledgement: the module then looks for its words in a short result head. */
  readsAck?: boolean;
  /** Whether its session reads no pass (facts-read.ts's CLEAN): the module then skips the pass in a result head. */
  skipsPass?: boolean;
}

/** What the host learnt while writing an item (error text, infrastructure failure). */
export interface Learnt {
  errorText: string | undefined;
  infra: boolean;
}

/**
 * Receives each processed item: its index in the batch and where its output record is, or why it failed:
 * a WasmTrapError (its session is quarantined), or an error from writing its record (nothing recorded).
 */
export type OutputSink = (item: number, out: number, learnt: Learnt, failure: Error | null) => void;

const SENTINEL = 0xffffffff;

/** Test hook: the slot whose next record makes the module trap (`unreachable`) halfway through recording. */
let trapArmed = 0;

/** Makes the next event of session slot `slot` trap inside the module (for tests of trap isolation). */
export function armTrapForTesting(slot: number): void {
  trapArmed = slot;
}

/** This thread's module, configurations and slots. */
export class WasmCore {
  readonly instance: WasmInstance;
  /** Calls into processBatch so far (how many JS-to-WASM crossings the calls took). */
  crossings = 0;
  private readonly writer = new RecordWriter();
  /** Slots in the chunk being written whose host reads their rings. */
  private readonly chunkSlots = new Set<number>();
  private readonly configs = new Map<string, number>();
  /** The id a layout object was last registered under (a shortcut past its key). */
  private readonly idByLayout = new WeakMap<ConfigEntry, number>();
  private readonly layouts: ConfigEntry[] = [];
  private readonly keys: string[] = [];
  private readonly refs: number[] = [];
  private readonly freeIds: number[] = [];
  private inputSize = 1 << 18;
  private readonly learnt: Learnt[] = [];

  constructor(instance: WasmInstance = sharedInstance()) {
    this.instance = instance;
    this.writer.hashEncoded = (ptr) => instance.exports.encodedFp(ptr);
    this.writer.longText = new LongTextWriter(
      { longWindow: () => instance.exports.longWindow(), streamBegin: (seed) => instance.exports.streamBegin(seed), streamStripes: (p, n) => instance.exports.streamStripes(p, n), streamEnd: (p, n) => instance.exports.streamEnd(p, n) },
      instance.memory,
    );
  }

  /**
   * The config id for a layout, registering it in the module's table the first time; each acquire is
   * matched by a release. An id whose last user released it is reused for the next new layout.
   */
  acquire(layout: ConfigEntry): number {
    const known = this.idByLayout.get(layout);
    if (known !== undefined && this.layouts[known] === layout && (this.refs[known] ?? 0) > 0) {
      this.refs[known] = (this.refs[known] as number) + 1;
      return known;
    }
    const key = layoutKey(layout);
    let id = this.configs.get(key);
    if (id === undefined) {
      id = this.freeIds.pop() ?? this.keys.length;
      if (id >= A.MAX_CONFIGS) throw new RangeError(`loopwatch: more than ${A.MAX_CONFIGS} distinct detector configurations in use in one thread`);
      const { u32, dv } = this.instance.views();
      const base = A.CONFIGS + id * A.CONFIG_SIZE;
      u32.fill(0, base >>> 2, (base + A.CONFIG_SIZE) >>> 2);
      for (const [off, v] of layout.fields) u32[(base + off) >>> 2] = v;
      dv.setFloat64(base + A.C_SE_THRESH, layout.semanticThreshold, true);
      this.instance.exports.configure(id);
      this.configs.set(key, id);
      this.layouts[id] = layout;
      this.keys[id] = key;
      this.refs[id] = 0;
      this.scratchNeed[id] = this.instance.exports.scratchNeeded(id) >>> 0;
    }
    this.refs[id] = (this.refs[id] ?? 0) + 1;
    this.idByLayout.set(layout, id);
    return id;
  }

  /** Releases one use of a config id (after its slot was freed). */
  release(id: number): void {
    const n = (this.refs[id] ?? 0) - 1;
    this.refs[id] = n;
    if (n > 0) return;
    this.configs.delete(this.keys[id] as string);
    this.freeIds.push(id);
  }

  /** The layout registered under a session slot's config id. */
  layout(config: number): SlotLayout {
    return this.layouts[config] as SlotLayout;
  }

  /** A fresh slot for a configuration; a CapacityError when the thread's memory has no room for one. */
  alloc(config: number): number {
    let s: number;
    try {
      s = this.instance.exports.allocSlot(config);
    } catch (e) {
      // allocSlot never traps on a full memory (it answers 0); should it trap, the instance is rebuilt
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      this.instance.recover();
      throw new WasmTrapError(`loopwatch: the WebAssembly module trapped allocating a session (${e.message})`, { cause: e });
    }
    if (s === 0) throw new CapacityError(`loopwatch: this thread's WebAssembly memory (${this.memoryText()}) has no room for another session of ${this.layouts[config]?.slotSize ?? 0} bytes; end or evict sessions, or use smaller windows`);
    return s >>> 0;
  }

  /** The memory's size, and its limit, as text. */
  private memoryText(): string {
    const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MiB`;
    return `${mib(this.instance.memory.buffer.byteLength)} in use, at most ${mib(this.instance.maxBytes)}`;
  }

  /**
   * Whether the next `calls` semantic sketches of `k` hashes at most can be had without growing the memory
   * midway (assembly/sketch-blocks.ts): at once when the memory has room past its top for a chunk a call,
   * else as the module finds (it grows the memory, or counts free blocks).
   */
  sketchRoom(calls: number, k: number): boolean {
    const top = this.instance.views().u32[(A.HEADER + A.H_MEMTOP) >>> 2] as number;
    // what sketchReserve grows the memory for: a chunk a call at most, and never more than a block a call and a chunk a class
    const c = (Math.min(k, 2 * A.SKETCH_CLASSES) + 1) >> 1;
    const bytes = Math.min(calls * (A.SKETCH_CHUNK + 16), calls * (8 * c + 16) + A.SKETCH_CLASSES * (A.SKETCH_CHUNK + 16));
    if (this.instance.memory.buffer.byteLength - top >= bytes + 16) return true;
    return this.instance.exports.sketchReserve(calls, k) === 1;
  }

  /** Returns a slot to its free list. */
  free(slot: number): void {
    this.instance.exports.freeSlot(slot);
  }

  /** Forgets a slot's calls and lifts its quarantine. */
  reset(slot: number): void {
    this.instance.exports.resetSlot(slot);
  }

  /** Whether a slot is quarantined after a trap. */
  poisoned(slot: number): boolean {
    const { u32 } = this.instance.views();
    return (((u32[(slot + A.S_STATE) >>> 2] as number) & A.SLOT_POISONED) !== 0);
  }

  /**
   * A copy of a slot's state (its `size` bytes), for a snapshot. The header words that tie a slot to this
   * memory (configuration id, liveness, free-list link) are zeroed in the copy.
   */
  readSlot(slot: number, size: number): Uint8Array {
    const copy = this.instance.views().u8.slice(slot, slot + size);
    const dv = new DataView(copy.buffer);
    dv.setUint32(A.S_CONFIG, 0, true);
    dv.setUint32(A.S_STATE, 0, true);
    dv.setUint32(A.S_NEXT, 0, true);
    return copy;
  }

  /** Puts a slot state readSlot() copied into a live slot of the same configuration. */
  writeSlot(slot: number, state: Uint8Array): void {
    const { u8, u32 } = this.instance.views();
    const config = u32[(slot + A.S_CONFIG) >>> 2] as number;
    const live = u32[(slot + A.S_STATE) >>> 2] as number;
    const next = u32[(slot + A.S_NEXT) >>> 2] as number;
    u8.set(state, slot);
    u32[(slot + A.S_CONFIG) >>> 2] = config;
    u32[(slot + A.S_STATE) >>> 2] = live & ~A.SLOT_POISONED;
    u32[(slot + A.S_NEXT) >>> 2] = next;
  }

  /** Calls recorded in a slot. */
  count(slot: number): number {
    return this.instance.exports.slotCount(slot) >>> 0;
  }

  // regions of the module's memory, as the host last reserved them (they survive traps: the header holds them)
  private inPtr = 0;
  private inSize = 0;
  private outPtr = 0;
  private outSize = 0;
  private listsPtr = 0;
  private listsSize = 0;
  private scratchSize = 0;
  /** Per config: the scratch bytes a record of any size needs (assembly/event.ts scratchNeeded). */
  private readonly scratchNeed: number[] = [];

  /** Makes a region hold `size` bytes; its address, or 0 when the memory has no room for it. */
  private reserve(kind: 'in' | 'out' | 'lists' | 'scratch', size: number): number {
    const ex = this.instance.exports;
    return (kind === 'in' ? ex.reserveInput(size) : kind === 'out' ? ex.reserveOutput(size) : kind === 'lists' ? ex.reserveLists(size) : ex.reserveScratch(size)) >>> 0;
  }

  /** The error of a call that needed `bytes` of room the memory does not have. */
  private noRoom(what: string, bytes: number): CapacityError {
    return new CapacityError(`loopwatch: this thread's WebAssembly memory (${this.memoryText()}) has no room for ${what} (${bytes} bytes); the call was not recorded`);
  }

  /** Whether a run is under way (its sinks may start another: a verdict listener checking a session). */
  private running = false;

  /** Processes `items` in order, calling `sink` for each as soon as its output is ready. */
  run(items: readonly BatchItem[], sink: OutputSink): void {
    if (this.running) {
      this.runNested(items, sink);
      return;
    }
    this.running = true;
    try {
      this.runChunks(items, sink, false);
    } finally {
      this.running = false;
    }
  }

  /**
   * A run started from a sink of another run. Both write the same output and list areas, and the outer
   * run still has outputs to read there (and what the writer learnt about them), so those are copied aside
   * and put back afterwards. Areas never move back: one the nested run outgrew is simply left as it was.
   */
  private runNested(items: readonly BatchItem[], sink: OutputSink): void {
    const { u8 } = this.instance.views();
    const outAt = this.outPtr;
    const listsAt = this.listsPtr;
    const out = u8.slice(outAt, outAt + this.outSize);
    const lists = u8.slice(listsAt, listsAt + this.listsSize);
    const learnt = this.learnt.map((l) => [l.errorText, l.infra] as const);
    try {
      this.runChunks(items, sink, true);
    } finally {
      const v = this.instance.views().u8;
      v.set(out, outAt);
      v.set(lists, listsAt);
      learnt.forEach(([errorText, infra], k) => {
        const l = this.learnt[k] as Learnt;
        l.errorText = errorText;
        l.infra = infra;
      });
    }
  }

  /** Grows the output, unit-list and scratch areas for a chunk of `m` records; a CapacityError when one cannot grow. */
  private roomFor(m: number, listBytes: number, scratch: number): CapacityError | null {
    if (this.outSize < m * A.OUT_SIZE) {
      let size = Math.max(m * A.OUT_SIZE, 2 * this.outSize);
      let p = this.reserve('out', size);
      if (p === 0) p = this.reserve('out', (size = m * A.OUT_SIZE));
      if (p === 0) return this.noRoom('the outputs of a batch', size);
      this.outPtr = p;
      this.outSize = size;
    }
    if (this.listsSize < listBytes) {
      const size = Math.max(listBytes, 2 * this.listsSize);
      const p = this.reserve('lists', size);
      if (p === 0) return this.noRoom('the call lists of a batch', size);
      this.listsPtr = p;
      this.listsSize = size;
    }
    if (this.scratchSize < scratch) {
      if (this.reserve('scratch', scratch) === 0) return this.noRoom('the scratch area of a batch', scratch);
      this.scratchSize = scratch;
    }
    return null;
  }

  /**
   * Similar args' summaries made as the calls' args were encoded (ArgsPlan.summaryAt): those of the chunk
   * being read, and of runs nested in its sinks.
   */
  get summaries(): ArgsSummaryMirror {
    return this.writer.summaries;
  }

  /** `nested`: a run started from a sink of another, whose chunk's summaries are still to be read (kept). */
  private runChunks(items: readonly BatchItem[], sink: OutputSink, nested: boolean): void {
    let from = 0;
    // the most records, and unit-list bytes, a chunk may take: unbounded until the output or list area could
    // not grow for a chunk (the memory is full; evicting sessions frees slots and blocks, never the memory top
    // these areas are bumped from), then what the areas hold, so a batch wider than any before runs in chunks
    let cap = Infinity;
    let listCap = Infinity;
    while (from < items.length) {
      if (this.inSize < this.inputSize) {
        const p = this.reserve('in', this.inputSize);
        if (p === 0) {
          // the area grows only for a record that did not fit: that call fails, the others go on
          const need = this.inputSize;
          this.inputSize = Math.max(this.inSize, 1 << 18);
          if (this.inSize !== 0) {
            sink(from, 0, (this.learnt[0] ??= { errorText: undefined, infra: false }), this.noRoom('the call\'s record', need));
            from++;
            continue;
          }
          throw this.noRoom('its input area', need);
        }
        this.inPtr = p;
        this.inSize = this.inputSize;
      }
      // write as many records as fit
      let { u8, dv } = this.instance.views();
      const inPtr = this.inPtr;
      const end = inPtr + this.inSize;
      let pos = inPtr;
      let m = 0;
      let listBytes = 16;
      let sideBytes = 0;
      let scratch = 0;
      let unwritable: Error | null = null;
      // the size of a first record that did not fit, counted past the area's end (0: none)
      let measured = 0;
      if (this.chunkSlots.size !== 0) this.chunkSlots.clear();
      if (!nested) this.writer.summaries.reset();
      while (from + m < items.length) {
        const it = items[from + m] as BatchItem;
        if (m !== 0 && (m >= cap || listBytes + (this.layouts[it.config] as SlotLayout).listBytes > listCap)) break;
        if (it.readsRings) {
          if (this.chunkSlots.has(it.slot)) break;
          this.chunkSlots.add(it.slot);
        }
        const learnt = (this.learnt[m] ??= { errorText: undefined, infra: false });
        let size: number;
        try {
          // a chunk's first record is walked whole even when it does not fit, its size counted, so the area
          // grows once to hold it (not doubled and the record begun again, its values walked again, until it
          // fits); a later record that does not fit goes first in the next chunk
          size = this.writer.write(u8, dv, pos, end, it.slot, it.event, it.args, it.ignore, it.maxDepth, it.maskResults, learnt, m === 0);
        } catch (e) {
          // an event that cannot be written: the records before it go first, then it fails on its own
          if (!(e instanceof EncodeOverflow)) unwritable = unreadable(this.writer.field, e);
          break;
        }
        if (size > end - pos) {
          measured = size;
          break;
        }
        if (it.proposed === true || it.readsAck === true || it.skipsPass === true) {
          const asked = (it.proposed === true ? A.F_PROPOSED : 0) | (it.readsAck === true ? A.F_HEAD_ACK : 0) | (it.skipsPass === true ? A.F_HEAD_NO_PASS : 0);
          dv.setUint32(pos + A.R_FLAGS, dv.getUint32(pos + A.R_FLAGS, true) | asked, true);
        }
        if (trapArmed !== 0 && it.slot === trapArmed) {
          dv.setUint32(pos + A.R_FLAGS, dv.getUint32(pos + A.R_FLAGS, true) | A.F_DEBUG_TRAP, true);
          trapArmed = 0;
        }
        pos += size;
        const layout = this.layouts[it.config] as SlotLayout;
        listBytes += layout.listBytes;
        // a call may grow its state ring's block (assembly/state-ring.ts): at most the block of the whole window
        if (layout.stateBlockBytes !== 0) sideBytes += layout.stateBlockBytes + 16;
        // and its semantic sketch a block, carved from a chunk of its class (assembly/sketch-blocks.ts)
        if (layout.semantic.cap !== 0) sideBytes += A.SKETCH_CHUNK + 16;
        const need = this.scratchNeed[it.config] as number;
        if (need > scratch) scratch = need;
        m++;
      }
      if (m === 0) {
        if (unwritable !== null) {
          sink(from, 0, this.learnt[0] as Learnt, unwritable);
          from++;
        } else {
          // the size counted, in whole 64 KiB pages, and at least twice the area (a value that reads larger
          // when walked again, a getter's, makes it grow again until the record fits)
          this.inputSize = Math.max(2 * this.inputSize, Math.ceil(measured / 65536) * 65536);
        }
        continue;
      }
      // room for outputs, unit lists and scratch (reserving may grow memory; records already written stay)
      // room for the blocks the calls may take, so the module never grows the memory midway (fails soft: a
      // block the memory cannot give fails its call alone)
      if (sideBytes !== 0 && this.instance.memory.buffer.byteLength - (this.instance.views().u32[(A.HEADER + A.H_MEMTOP) >>> 2] as number) < sideBytes + 16) this.instance.exports.growFor(sideBytes);
      const short = this.roomFor(m, listBytes, scratch);
      if (short !== null && this.outSize >= A.OUT_SIZE && this.scratchSize >= scratch && (cap > this.outSize / A.OUT_SIZE || listCap > this.listsSize)) {
        // the areas hold fewer records than were written: write again as many as they hold (the calls still to
        // run are those from `from` on, so no record runs twice), as a narrower batch would have
        cap = Math.floor(this.outSize / A.OUT_SIZE);
        listCap = this.listsSize;
        if (16 + (this.layouts[(items[from] as BatchItem).config] as SlotLayout).listBytes <= listCap) continue;
      }
      if (short !== null) {
        // none of these calls can run: each fails, unrecorded
        for (let k = 0; k < m; k++) sink(from + k, 0, this.learnt[k] as Learnt, short);
        from += m;
        continue;
      }
      const outPtr = this.outPtr;
      let u32 = this.instance.views().u32;
      for (let k = 0; k < m; k++) u32[(outPtr + k * A.OUT_SIZE + A.O_STATUS) >>> 2] = SENTINEL;

      let done: number;
      let trapped = -1;
      let trap: WasmTrapError | null = null;
      this.crossings++;
      try {
        done = this.instance.exports.processBatch(inPtr, m, outPtr, this.listsPtr, this.listsPtr + this.listsSize) >>> 0;
      } catch (e) {
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        u32 = this.instance.views().u32;
        trapped = 0;
        while (trapped < m && u32[(outPtr + trapped * A.OUT_SIZE + A.O_STATUS) >>> 2] !== SENTINEL) trapped++;
        done = trapped;
        trap = new WasmTrapError(`the WebAssembly module trapped on this call (${e.message}); the session is quarantined until reset()`, { cause: e });
        this.instance.recover();
        const it = items[from + trapped];
        if (it !== undefined) this.instance.exports.poisonSlot(it.slot);
      }
      for (let k = 0; k < done; k++) sink(from + k, outPtr + k * A.OUT_SIZE, this.learnt[k] as Learnt, null);
      if (trap !== null && trapped < m) {
        sink(from + trapped, outPtr + trapped * A.OUT_SIZE, this.learnt[trapped] as Learnt, trap);
        from += trapped + 1;
        continue;
      }
      if (done < m) (items[from + done] as BatchItem).args.viaHost = true;
      from += done;
    }
  }
}

let shared: WasmCore | null = null;

/** This thread's core, created on first use. */
export function sharedCore(): WasmCore {
  if (shared === null) shared = new WasmCore();
  return shared;
}
