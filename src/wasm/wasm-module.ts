/**
 * Loading the loopwatch WebAssembly module: compiled once per process from the bytes shipped inside the
 * JavaScript (no file paths, so worker threads just import it), instantiated once per thread over a memory
 * the host owns. Because the memory is the host's, a trap is survivable: `recover()` makes a fresh instance
 * over the same memory, and every session's state is still there.
 *
 * Typed-array views over the memory are rebuilt whenever the memory has grown (`views()`).
 */
import { MODULE_BASE64 } from './generated/module-bytes.js';
import { STOP_SLOTS, STOP_TABLE } from './generated/abi.js';
import { STOP_HASHES } from '../text/token-set.js';

/** The module's exports, as the host calls them. */
export interface WasmExports {
  setup(): number;
  allocSlot(config: number): number;
  freeSlot(slot: number): number;
  resetSlot(slot: number): number;
  poisonSlot(slot: number): number;
  slotCount(slot: number): number;
  slotOk(slot: number): number;
  /** Gives a live slot's state ring a zeroed block of `cap` keys (assembly/state-ring.ts); its address, 0 for none. */
  stateResize(slot: number, cap: number): number;
  /** Makes a live slot's state ring hold its next `n` calls' keys now (assembly/state-ring.ts): 1, or 0 when memory is exhausted. */
  stateReserve(slot: number, n: number): number;
  /** Grows the memory so that `bytes` more can be handed out without growing it (assembly/slots.ts): 1, or 0 when it cannot grow. */
  growFor(bytes: number): number;
  /** Whether the next `n` semantic sketches of `k` hashes at most can be had without growing the memory midway (assembly/sketch-blocks.ts): 1 or 0. */
  sketchReserve(n: number, k: number): number;
  /** Gives entry `e` of a live slot head word `head` and a block for its hashes (assembly/sketch-blocks.ts): its address, 0 for no hashes, 1 when memory is exhausted. */
  sketchPut(slot: number, e: number, head: number): number;
  /** Frees a live slot's semantic sketch blocks and clears its entries (assembly/sketch-blocks.ts). */
  sketchDrop(slot: number): void;
  processOne(rec: number, out: number, lists: number, listsEnd: number): number;
  processBatch(recs: number, n: number, outs: number, lists: number, listsEnd: number): number;
  kernel(slot: number, sigLo: number, toolLo: number, outcomeLo: number, flags: number, out: number, lists: number, listsEnd: number): number;
  /** Scratch bytes a record of any size needs with configuration `config` (none scales with the record). */
  scratchNeeded(config: number): number;
  configure(config: number): void;
  reserveInput(size: number): number;
  reserveOutput(size: number): number;
  reserveScratch(size: number): number;
  reserveLists(size: number): number;
  reserveBytes(size: number): number;
  /** Makes the caches' regions (assembly/mask-cache.ts, sketch-cache.ts) now, before any batch: 1 when both are there. */
  cachesReady(): number;
  stuck(slot: number): number;
  debugTrap(): void;
  xxh64(ptr: number, len: number, seed: bigint): bigint;
  /** The fingerprint of the value the host encoded at `ptr` (assembly/tree.ts), no action text collected. */
  encodedFp(ptr: number): bigint;
  /** Similar args' hashes of a long string's start, middle and end (assembly/unit-hash.ts): six u32 at `out`. */
  longStringHashes(ptr: number, len: number, k: number, out: number): void;
  /** Similar args' summary of the JSON text at `ptr` (assembly/args-summary.ts), written at `area`: its length, 0 for none. */
  summarizeJsonArgs(ptr: number, len: number, area: number, size: number): number;
  /** Similar args' summary of the value encoded at `ptr` (assembly/args-summary-encoded.ts), written at `area`: its length, 0 for none. */
  summarizeEncodedArgs(ptr: number, len: number, area: number, size: number): number;
  tokenize(ptr: number, len: number, maxTokens: number, k: number, sketch: number, table: number): void;
  lastTokenCount(): number;
  lastSketchLen(): number;
  /** Whether two bottom-k sketches' Jaccard reaches `threshold` (assembly/tokens.ts); exported for the tests. */
  sketchReaches(a: number, la: number, na: number, b: number, lb: number, nb: number, k: number, threshold: number, needFull: number): number;
  /** The fewest common values of two full sketches whose estimate reaches `threshold`, 0xffffffff when none. */
  leastCommonFull(k: number, threshold: number): number;
  saysNothingFound(ptr: number, len: number): number;
  /**
   * What a text result says (assembly/result-pass.ts), the readings sharing passes: its fingerprint
   * (resultFp()), its head into output record `out` (with `how`'s RP_HEAD), OF_EMPTY, OF_NOTHING and OF_BRIEF
   * returned. For the tests and bench/result-pass.ts.
   */
  textResultPass(ptr: number, len: number, how: number, out: number): number;
  /** textResultPass's specification: the same readings one after another. */
  textResultSeparate(ptr: number, len: number, how: number, out: number): number;
  /** The fingerprint (xxh64, seed TAG_STRING) of the text result textResultPass or textResultSeparate read last. */
  resultFp(): bigint;
  /** xxh64 of [ptr, ptr + len) with seed `a`, and with seed `b` (xxh64PairSecond()), in one pass (assembly/xxh64.ts). */
  xxh64Pair(ptr: number, len: number, a: bigint, b: bigint): bigint;
  /** The second hash xxh64Pair computed last. */
  xxh64PairSecond(): bigint;
  /** What an output holds for failure-report.ts and acknowledgement.ts (assembly/report-scan.ts): SCAN_ bits. */
  reportScan(ptr: number, len: number, ack: number): number;
  /** reportScan's reference twin, a loop over every byte (assembly/report-scan-bytewise.ts); for the tests. */
  reportScanBytewise(ptr: number, len: number, ack: number): number;
  /** Whether an error text may say something error-reading.ts reads (assembly/error-screen.ts): 1 maybe, 0 none. */
  errorMaySay(ptr: number, len: number): number;
  /** errorMaySay's reference twin, a loop over every byte (assembly/error-screen.ts); for the tests. */
  errorMaySayBytewise(ptr: number, len: number): number;
  maskBytes(src: number, len: number, limit: number, dst: number): number;
  /** The place of a failure whose error is [src, src + len): the tests it names as failed (assembly/test-place.ts), 0n for none. For the tests. */
  testPlace(src: number, len: number): bigint;
  scanEventLine(ptr: number, len: number, maxNesting: number): number;
  routeSession(ptr: number, len: number): number;
  lineFields(): number;
  unescapeJsonInPlace(ptr: number, len: number): number;
  reserveText(size: number): number;
  chantPush(region: number, text: number, n: number, piece: number, limit: number): number;
  chantRebase(region: number): number;
  chantReset(region: number): number;
  chantCheck(region: number): number;
}

/** Most 64 KiB pages a thread's memory grows to: 4 GiB, all a 32-bit module addresses. */
export const MAX_MEMORY_PAGES = 65536;

/** Bytes of chanting's text area (wasm-prose-stream.ts: 16,384 UTF-16 code units a push), one a thread, made with its instance. */
export const CHANT_TEXT_BYTES = 16_384 * 2;

/** Pages new instances stop at (tests lower it to fill the memory quickly). */
let maxPages = MAX_MEMORY_PAGES;

/** Makes instances created from now on stop growing at `pages` (tests that fill the memory). @internal */
export function limitMemoryForTesting(pages: number): void {
  maxPages = pages;
}

let compiled: WebAssembly.Module | null = null;

/** The compiled module (compiled on first use, synchronously). */
export function compiledModule(): WebAssembly.Module {
  if (compiled === null) compiled = new WebAssembly.Module(Buffer.from(MODULE_BASE64, 'base64'));
  return compiled;
}

/** Views over the module's memory, valid until it grows. */
export interface MemoryViews {
  readonly u8: Uint8Array;
  readonly u32: Uint32Array;
  readonly dv: DataView;
}

/** One instance of the module over a memory of its own. */
export class WasmInstance {
  readonly memory: WebAssembly.Memory;
  /** The most bytes the memory may grow to. */
  readonly maxBytes: number;
  private ex: WasmExports;
  private cached: MemoryViews | null = null;
  /** How many times the instance was rebuilt after a trap. */
  recoveries = 0;

  constructor() {
    this.memory = new WebAssembly.Memory({ initial: 4, maximum: maxPages });
    this.maxBytes = maxPages * 65536;
    this.ex = this.instantiate();
    this.ex.setup();
    // the caches' regions now: made at a batch's first result or text, their growth of the memory would
    // detach the views that batch's reader holds
    this.ex.cachesReady();
    // chanting's text area too: it comes from the memory top, which evicting sessions never frees, so made at
    // the first text of a memory already full it could never be had (every text's call failed)
    this.ex.reserveText(CHANT_TEXT_BYTES);
    this.writeStopWords();
  }

  private instantiate(): WasmExports {
    const instance = new WebAssembly.Instance(compiledModule(), { env: { memory: this.memory } });
    return instance.exports as unknown as WasmExports;
  }

  /** The exports of the current instance. */
  get exports(): WasmExports {
    return this.ex;
  }

  /**
   * Views over the memory, rebuilt after growth. Growth detaches the old buffer, which empties its views,
   * so a zero length is the cheap test (reading `memory.buffer` on every call is not).
   */
  views(): MemoryViews {
    const c = this.cached;
    if (c !== null && c.u8.length !== 0) return c;
    const b = this.memory.buffer;
    this.cached = { u8: new Uint8Array(b), u32: new Uint32Array(b), dv: new DataView(b) };
    return this.cached;
  }

  /** After a trap: a fresh instance over the same memory (state kept; the header says where things are). */
  recover(): void {
    this.ex = this.instantiate();
    this.ex.setup();
    this.recoveries++;
  }

  private writeStopWords(): void {
    const { u32 } = this.views();
    const base = STOP_TABLE >>> 2;
    for (const h of STOP_HASHES) {
      if (h === 0) continue; // 0 marks an empty slot; a stop word hashing to 0 is simply not dropped by either twin
      let i = h & (STOP_SLOTS - 1);
      while (u32[base + i] !== 0 && u32[base + i] !== h) i = (i + 1) & (STOP_SLOTS - 1);
      u32[base + i] = h;
    }
  }
}

let shared: WasmInstance | null = null;

/**
 * Bytes of the area the module keeps for host bytes, made with the thread's instance: similar args hashes
 * long strings there (module-unit-hash.ts) without ever growing the memory; snapshot checksums may grow it.
 */
export const HOST_BYTES_AREA = 64 * 1024;

/** This thread's instance, created on first use. */
export function sharedInstance(): WasmInstance {
  if (shared === null) {
    shared = new WasmInstance();
    // made now, before any batch: what the host hashes there must never grow the memory mid-batch
    shared.exports.reserveBytes(HOST_BYTES_AREA);
  }
  return shared;
}
