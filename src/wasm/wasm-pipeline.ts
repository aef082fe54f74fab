/**
 * The WebAssembly pipeline of one session: a slot in the thread's module holds the session's rings and
 * runs the call detectors; the host keeps the call log and runs what stays in TypeScript (similar args,
 * chanting, the exact semantic method). Signals come back in the reference's detector order, built by the
 * same functions, so verdicts are identical to the reference pipeline's.
 */
import { ARGS_SUMMARIES_SINCE, CALL_NAMES_FROM_ONE_SINCE, SUMMARY_FORM_SINCE } from '../snapshot/snapshot-format.js';
import { EncodedArgs } from './encoded-args.js';
import { withPlainResult } from './raw-json-string.js';
import { ChantingDetector, type ProseStreamFactory } from '../detectors/chanting.js';
import { cycleSignal } from '../detectors/cycle.js';
import { deadEndSignal } from '../detectors/dead-end.js';
import type { Detector } from '../detectors/detector.js';
import { exactRepeatSignal } from '../detectors/exact-repeat.js';
import { frequencySignal } from '../detectors/frequency.js';
import { resultRepeatSignal } from '../detectors/result-repeat.js';
import { SemanticDetector, semanticUnitSignal } from '../detectors/semantic.js';
import { SimilarArgsDetector } from '../detectors/similar-args.js';
import { RecentWords } from '../state/recent-words.js';
import { stateRepeatSignal } from '../detectors/state-repeat.js';
import { CapacityError, DisposedError, SnapshotError, WasmTrapError } from '../errors.js';
import type { CanonicalWalkOptions } from '../fingerprint/canonical-hash.js';
import { parseArgs } from '../fingerprint/signature.js';
import type { ResolvedOptions } from '../options/options.js';
import { FAILING_WINDOW } from '../policy/failing-again.js';
import { argsRetention, historyCapacity } from '../session/build-detectors.js';
import { LoggedCall } from '../session/observed-call.js';
import { unreadable } from '../session/observe-event.js';
import { NO_SIGNALS, type Pipeline } from '../session/pipeline.js';
import type { ObservedCall } from '../detectors/detector.js';
import type { HistoryReader } from '../state/call-history.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { restoreSlot, saveSlotInto, savedSlot } from './state-block.js';
import { checkSavedSlot } from './saved-slot-check.js';
import { type ArgsNormaliser, type ArgsRetention, CallLog } from '../state/call-log.js';
import { weighsAcknowledgement } from '../text/acknowledgement.js';
import { FactsRead, factsRead } from '../policy/facts-read.js';
import { maskVolatile } from '../text/mask-volatile.js';
import type { ModuleReading } from '../text/module-reading.js';
import type { LoopSignal, Progress, ToolEvent } from '../types.js';
import * as A from './generated/abi.js';
import type { ArgsPlan } from './record-writer.js';
import type { BatchItem, Learnt, OutputSink } from './wasm-core.js';
import { type WasmCore, sharedCore } from './wasm-core.js';
import { type SlotHolder, WasmHistoryView } from './wasm-history.js';
import { WasmProseStream } from './wasm-prose-stream.js';
import { type SlotLayout, shareLayout, slotLayout } from './slot-layout.js';

const PROGRESS: readonly Progress[] = ['unknown', 'stalled', 'changing', 'mixed'];
const NO_EVENT: ToolEvent = Object.freeze({ tool: '' });
/** No call being read. */
const NO_PLAN: ArgsPlan = Object.freeze({ value: undefined, normalised: false, viaHost: false, summarize: false, summaryAt: -1, summaryLength: 0 });

/**
 * The call being read, shared by every pipeline of the thread rather than kept by each session: a read
 * runs no caller's code (verdict listeners run after it), so reads never overlap.
 */
const reading: { event: ToolEvent | null; plan: ArgsPlan; proposing: boolean; result: readonly LoopSignal[]; failure: Error | null } = {
  event: null,
  plan: NO_PLAN,
  proposing: false,
  result: NO_SIGNALS,
  failure: null,
};

/** Each retention with `everyValue` off (see noValuesRead). */
const withoutValues = new WeakMap<ArgsRetention, ArgsRetention>();

/** `r` with `everyValue` off: similar args' summaries come from the module, not from the args as values. */
function noValuesRead(r: ArgsRetention): ArgsRetention {
  if (r.everyValue !== true) return r;
  let v = withoutValues.get(r);
  if (v === undefined) {
    v = Object.freeze({ ...r, everyValue: false });
    withoutValues.set(r, v);
  }
  return v;
}

/** Per resolved options (shared by every session made from them), the canonical walk per tool. */
const walksByOptions = new WeakMap<ResolvedOptions, Map<string, CanonicalWalkOptions>>();

/** The canonical walk for a tool's args under some options: the ignored fields and the depth cap. */
function walkOf(o: ResolvedOptions, tool: string): CanonicalWalkOptions {
  let walks = walksByOptions.get(o);
  if (walks === undefined) {
    walks = new Map();
    walksByOptions.set(o, walks);
  }
  let w = walks.get(tool);
  if (w === undefined) {
    const fields = [...o.ignoreFields, ...(o.tools.get(tool)?.ignoreFields ?? [])];
    w = { ignoreKeys: fields.length === 0 ? null : new Set(fields), maxDepth: o.maxDepth };
    if (walks.size < 10_000) walks.set(tool, w);
  }
  return w;
}

/** Chanting's prose stream in this thread's module (the core the pipelines share). */
const wasmStream: ProseStreamFactory = (c) => new WasmProseStream(c);

/** Releases slots of detectors that were garbage-collected without dispose(). */
const collector = new FinalizationRegistry<Pipeline>((pipeline) => pipeline.dispose());

/** Frees a pipeline's slot when its owner is garbage-collected (the pipeline is held, no closure made). */
export function releaseOnCollect(owner: object, pipeline: Pipeline): void {
  collector.register(owner, pipeline, pipeline);
}

const NO_BYTES = new Uint8Array(0);

/**
 * The thread's undo area: mark() copies a slot into it and rollback() copies it back. propose() marks and
 * rolls back within one synchronous call, so one session at a time holds it; a session marking while
 * another still holds a mark gets an area of its own. Before, each mark() sliced the slot into a new
 * ~6 KB ArrayBuffer: ~15% of a two-phase call's time with every detector (CPU profile of propose and
 * record over the bench's small calls), and garbage.
 */
let sharedUndo: Uint8Array = NO_BYTES;
let sharedUndoHolder: WasmPipeline | null = null;

/** The area `p` copies its `size` slot bytes into for its mark (the shared one when no other holds it). */
function undoArea(p: WasmPipeline, size: number): Uint8Array {
  const holder = sharedUndoHolder;
  if (holder !== null && holder !== p && holder.holdsMark) return new Uint8Array(size);
  if (sharedUndo.length < size) sharedUndo = new Uint8Array(size);
  sharedUndoHolder = p;
  return sharedUndo;
}

/** An ObservedCall the pipeline reuses for its own TypeScript detectors (custom detectors get fresh ones). */
class ReusedCall implements ObservedCall {
  index = 0;
  event: ToolEvent = { tool: '' };
  isError = false;
  isInfraFailure = false;
  errorText: string | undefined = undefined;

  constructor(public log: CallLog) {}

  get tool(): string {
    return this.event.tool;
  }

  get args(): unknown {
    return this.log.argsOf(this.index);
  }

  get signature(): string {
    return this.log.ref(this.index)?.signature ?? '';
  }
}

/**
 * The call the pipelines' TypeScript detectors read, one for the thread: they read it while signals() runs,
 * which runs no caller's code, and keep nothing of it.
 */
let hostCallObject: ReusedCall | null = null;

/** The log the thread's reused call reads between calls: none of a session's. */
const NO_LOG = new CallLog(1, { normaliseArgs: (args) => args });

/** What a pipeline's mark() kept for rollback(): made by mark(), dropped by rollback(). */
interface PipelineUndo {
  /** Where mark() copied the slot's bytes: the thread's shared undo area, or an area of its own. */
  bytes: Uint8Array;
  readonly index: number;
  readonly event: ToolEvent | null;
  readonly errorText: string | undefined;
  readonly infra: boolean;
}

/**
 * What the module read of the call recorded last (see Pipeline.reading), one for the thread: the outcome
 * facts read it right after the call's read (a batch concludes each call before it reads the next), so it
 * is of the slot that read last (`slot`); a pipeline of another slot gets NO_READING.
 */
const threadReading: ModuleReading & { slot: number } = { slot: 0, index: -1, word: 0, key: 0, errorKey: 0, errorMaySay: true, infra: false };
const NO_READING: ModuleReading = Object.freeze({ index: -1, word: 0, key: 0, errorKey: 0, errorMaySay: true, infra: false });

/** The last canonical walk asked for, by the thread's pipelines (a one-entry cache before walkOf's maps). */
let lastWalkOptions: ResolvedOptions | null = null;
let lastWalkTool = '';
let lastWalk: CanonicalWalkOptions | null = null;

/** The WebAssembly-backed pipeline. */
export class WasmPipeline implements Pipeline, ArgsNormaliser, SlotHolder {
  readonly log: CallLog;
  private readonly config: number;
  private slot: number;
  /** The rings as TypeScript detectors read them (made when one first does). */
  private view: WasmHistoryView | null = null;
  private readonly similar: SimilarArgsDetector | null;
  /**
   * The newest calls' ring words, read after a call is recorded by similar args (its window) and the
   * failing-again rule (on with dead end); null when neither is on.
   */
  private readonly recent: RecentWords | null;
  private readonly semanticHost: SemanticDetector | null;
  private readonly chanting: ChantingDetector | null;
  /** What observe() hands the core, made on its first use (sessions of an engine never call it). */
  private single: { readonly items: BatchItem[]; readonly plan: ArgsPlan; readonly sink: OutputSink } | null = null;
  private lastEvent: ToolEvent | null = null;
  private lastErrorText: string | undefined = undefined;
  private lastInfra = false;
  /** The index of the call recorded last. */
  lastIndex = 0;
  /** What mark() kept that rollback() puts back (null: no mark held). */
  private undo: PipelineUndo | null = null;

  /** What the module read of the call recorded last (see Pipeline.reading): the thread's, when this slot read last. */
  get reading(): ModuleReading {
    return this.slot !== 0 && threadReading.slot === this.slot ? threadReading : NO_READING;
  }

  /** Forgets the module's reading of this session's last call (a rollback, a reset, a restore). */
  private dropReading(): void {
    if (threadReading.slot === this.slot) threadReading.index = -1;
  }

  /** Whether the session weighs an acknowledgement: the module looks for its words in short result heads. */
  private get readsAck(): boolean {
    return weighsAcknowledgement(this.o);
  }

  /** Whether the session reads no pass (facts-read.ts's CLEAN): the module skips it in result heads. */
  private get skipsPass(): boolean {
    return this.passLater || (factsRead(this.o) & FactsRead.CLEAN) === 0;
  }

  /** Whether similar args' summaries are made as the args are encoded (ArgsPlan.summarize); of masked args (a copy, masked), by the detector. */
  private get summarizeInWalk(): boolean {
    return this.similar !== null && !this.o.normalizeVolatile;
  }

  /** The thread's core (one for the thread, never replaced: read, not kept, which saves a session a field). */
  private get core(): WasmCore {
    return sharedCore();
  }

  /**
   * `passLater`: the session reads a check that passed only of the call being checked, at its screen, from
   * the call's text (LoopDetector's checksOnly): the module skips the pass in result heads.
   */
  constructor(
    private readonly o: ResolvedOptions,
    private readonly passLater = false,
  ) {
    this.config = this.core.acquire(slotLayout(o));
    this.slot = this.core.alloc(this.config);
    // the registered layout, shared by every session of this configuration
    const layout = this.core.layout(this.config);
    shareLayout(o, layout);
    const capacity = historyCapacity(o.detectors);
    // similar args' summaries are made by the module (in the encoder's walk, or from JSON text) unless masked:
    // then nothing reads every call's args as values, and the outcome facts read their members from the bytes
    const retention = argsRetention(o.detectors, capacity, o.custom.length !== 0);
    // the log's words (and the call facts') in a block of the thread's shared chunks, given back by dispose()
    this.log = new CallLog(capacity, this, o.normalizeVolatile ? retention : noValuesRead(retention), true);
    const d = o.detectors;
    const hostRings = d.semantic !== null && d.semantic.method === 'exact';
    const ctx = hostRings ? { history: this.history, log: this.log } : null;
    const mask = o.normalizeVolatile ? (s: string) => maskVolatile(s) : null;
    // similar args and the failing-again rule read ring words from the host's copy, taken from each call's output
    const reach = recentReach(o);
    this.recent = reach === 0 ? null : new RecentWords(d.similarArgs === null ? 1 : d.similarArgs.window + 1, reach, true);
    this.similar = d.similarArgs && this.recent !== null ? new SimilarArgsDetector({ history: this.recent, log: this.log }, d.similarArgs, mask, o.policy.progress === 'suppress', true) : null;
    this.semanticHost = d.semantic && d.semantic.method === 'exact' && ctx !== null ? new SemanticDetector(ctx, d.semantic, o.normalizeVolatile, (t) => this.walkFor(t)) : null;
    // chanting's per-character work runs in the module too, in a region made when the first text arrives
    this.chanting = d.chanting ? new ChantingDetector(d.chanting, undefined, wasmStream, true) : null;
  }

  /**
   * Whether host detectors read this session's rings (so its calls cross one per crossing in a batch): only
   * the exact semantic method; similar args and the failing-again rule read the host's words (`recent`).
   */
  private readsRings(): boolean {
    return this.semanticHost !== null;
  }

  /** The single-call state observe() uses. */
  private singleCall(): { readonly items: BatchItem[]; readonly plan: ArgsPlan; readonly sink: OutputSink } {
    if (this.single !== null) return this.single;
    const plan: ArgsPlan = { value: undefined, normalised: false, viaHost: false, summarize: false, summaryAt: -1, summaryLength: 0 };
    const sink: OutputSink = (_k, out, learnt, failure) => {
      if (failure !== null) {
        reading.failure = failure;
        return;
      }
      reading.result = this.read(out, learnt.errorText, learnt.infra);
    };
    const items: BatchItem[] = [{ slot: this.slot, config: this.config, event: NO_EVENT, args: plan, ignore: null, maxDepth: this.o.maxDepth, maskResults: this.o.detectors.resultRepeat?.masked === true, readsRings: false, readsAck: this.readsAck, skipsPass: this.skipsPass }];
    return (this.single = { items, plan, sink });
  }

  /** Whether a call of `tool` has its args as compared exactly as parsed: no identity applies (the call log's ArgsNormaliser). */
  parsedAsIs(tool: string): boolean {
    return this.o.tools.get(tool)?.identity === undefined;
  }

  /** Args as compared: JSON strings parsed, the tool's identity applied (the call log's ArgsNormaliser). */
  normaliseArgs(args: unknown, tool: string): unknown {
    const identity = this.o.tools.get(tool)?.identity;
    const parsed = EncodedArgs.is(args) ? args.value() : parseArgs(args);
    return identity === undefined ? parsed : identity(parsed, tool);
  }

  private walkFor(tool: string): CanonicalWalkOptions {
    if (tool === lastWalkTool && this.o === lastWalkOptions && lastWalk !== null) return lastWalk;
    const w = walkOf(this.o, tool);
    lastWalkOptions = this.o;
    lastWalkTool = tool;
    lastWalk = w;
    return w;
  }

  get count(): number {
    return this.slot === 0 ? 0 : this.core.count(this.slot);
  }

  /** Whether dispose() was called (its slot is 0 then). */
  get disposed(): boolean {
    return this.slot === 0;
  }

  /** The session's slot handle, 0 once disposed (what its history view reads). */
  get liveSlot(): number {
    return this.slot;
  }

  lastCall(): ObservedCall {
    return new LoggedCall(this.log, this.lastIndex, this.lastEvent as ToolEvent, this.lastErrorText !== undefined, this.lastInfra, this.lastErrorText);
  }

  /**
   * Prepares an event for a batch of many calls (see {@link runWasmBatch}): fills `item` (the caller's,
   * reused from batch to batch) with what the core writes. The item must be completed with
   * {@link complete} in batch order.
   */
  stage(e: ToolEvent, item: BatchItem): void {
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    const identity = this.o.tools.size === 0 ? undefined : this.o.tools.get(e.tool)?.identity;
    const args = item.args;
    if (identity === undefined) {
      args.value = e.args;
      args.normalised = false;
    } else {
      args.value = identityOf(identity, e);
      args.normalised = true;
    }
    args.viaHost = false;
    item.slot = this.slot;
    item.config = this.config;
    item.event = e;
    item.ignore = this.walkFor(e.tool).ignoreKeys;
    args.summarize = this.summarizeInWalk && item.ignore === null;
    item.maxDepth = this.o.maxDepth;
    item.maskResults = this.o.detectors.resultRepeat?.masked === true;
    item.readsRings = this.readsRings();
    item.readsAck = this.readsAck;
    item.skipsPass = this.skipsPass;
  }

  /** Reads a staged item's output (or throws its failure or status error): the call's signals. */
  complete(item: BatchItem, out: number, learnt: Learnt, failure: Error | null): readonly LoopSignal[] {
    if (failure !== null) throw failure;
    reading.event = item.event;
    reading.plan = item.args;
    try {
      return this.read(out, learnt.errorText, learnt.infra);
    } finally {
      reading.plan = NO_PLAN;
      reading.event = null;
    }
  }

  observe(e: ToolEvent, proposed = false): readonly LoopSignal[] {
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    reading.proposing = proposed;
    const single = this.singleCall();
    const plan = single.plan;
    const identity = this.o.tools.size === 0 ? undefined : this.o.tools.get(e.tool)?.identity;
    plan.viaHost = false;
    if (identity === undefined) {
      plan.value = e.args;
      plan.normalised = false;
    } else {
      plan.value = identityOf(identity, e);
      plan.normalised = true;
    }
    const item = single.items[0] as BatchItem;
    item.slot = this.slot;
    item.event = e;
    item.ignore = this.walkFor(e.tool).ignoreKeys;
    plan.summarize = this.summarizeInWalk && item.ignore === null;
    item.proposed = proposed;
    reading.result = NO_SIGNALS;
    reading.failure = null;
    reading.event = e;
    reading.plan = plan;
    try {
      this.core.run(single.items, single.sink);
    } finally {
      reading.event = null;
      reading.proposing = false;
      item.proposed = false;
      // nothing of the caller's event stays reachable from the session
      item.event = NO_EVENT;
      plan.value = undefined;
      reading.plan = NO_PLAN;
    }
    const { failure, result } = reading;
    reading.failure = null;
    reading.result = NO_SIGNALS;
    if (failure !== null) throw failure;
    return result;
  }

  /** Builds the signals from an output record (the same signals, in the same order, as the reference). */
  read(out: number, errorText: string | undefined, infra: boolean): readonly LoopSignal[] {
    const e = reading.event as ToolEvent;
    const u32 = this.core.instance.views().u32;
    const o4 = out >>> 2;
    const status = u32[o4 + (A.O_STATUS >>> 2)] as number;
    if (status === A.ST_BAD_SLOT) {
      if (this.core.poisoned(this.slot)) throw new WasmTrapError('loopwatch: this session is quarantined after a WebAssembly trap; call reset() to use it again');
      throw new DisposedError('loopwatch: this session has no live WebAssembly slot');
    }
    // no room for the state ring's block (assembly/state-ring.ts) or a sketch's (assembly/sketch-blocks.ts): nothing was recorded
    if (status === A.ST_NO_MEMORY) throw new CapacityError(`loopwatch: this thread's WebAssembly memory has no room to record this call (state repeat's ring could not grow, or a semantic sketch's block could not be had); the call was not recorded`);
    if (status !== A.ST_OK) throw new RangeError(`loopwatch: the WebAssembly module could not process the call (status ${status})`);
    const index = u32[o4 + (A.O_INDEX >>> 2)] as number;
    this.lastIndex = index;
    // the module's reading of the result's head (assembly/result-head.ts) and the error's key, for the outcome facts
    const m = threadReading;
    m.slot = this.slot;
    m.index = index;
    m.word = u32[o4 + (A.O_HEAD >>> 2)] as number;
    m.key = m.word === 0 ? 0 : (u32[o4 + (A.O_HEAD_KEY_HI >>> 2)] as number) * 0x1_0000_0000 + (u32[o4 + (A.O_HEAD_KEY_LO >>> 2)] as number);
    // the key's high word carries the module's screen of the error's words (assembly/error-screen.ts) in its top bit
    const errHi = errorText === undefined ? 0 : (u32[o4 + (A.O_ERR_KEY_HI >>> 2)] as number);
    m.errorKey = errorText === undefined ? 0 : (errHi & 0x1fffff) * 0x1_0000_0000 + (u32[o4 + (A.O_ERR_KEY_LO >>> 2)] as number);
    m.errorMaySay = (errHi & A.ERR_MAY_SAY) !== 0;
    m.infra = infra;
    // kept only for lastCall(), which only custom detectors read: a session holds no event of its callers'
    this.lastEvent = this.o.custom.length === 0 ? null : withPlainResult(e);
    this.lastErrorText = errorText;
    this.lastInfra = infra;
    this.log.push(e.tool, reading.plan.value, reading.plan.normalised, e.description, u32[o4 + (A.O_SIG_HI >>> 2)] as number, u32[o4 + (A.O_SIG_LO >>> 2)] as number, e.step, e.round);
    if (this.recent !== null) this.keepWords(u32, o4, index);
    const mask = u32[o4 + (A.O_MASK >>> 2)] as number;
    if (mask === 0 && this.similar === null && this.semanticHost === null && (this.chanting === null || e.text === undefined)) {
      if (!reading.proposing && this.chanting !== null) {
        this.chanting.record(this.hostCall(index, e, errorText, infra));
        this.dropHostCall();
      }
      return NO_SIGNALS;
    }
    try {
      return this.signals(u32, o4, index, mask, e, errorText, infra);
    } finally {
      this.dropHostCall();
    }
  }

  /** The slow path of read(): some detector fired, or TypeScript detectors must run. */
  private signals(u32: Uint32Array, o4: number, index: number, mask: number, e: ToolEvent, errorText: string | undefined, infra: boolean): readonly LoopSignal[] {
    // no closures over the output here: they would make V8 allocate a context on every call that runs
    // TypeScript detectors (with similar args on, every call)
    const call = this.hostCall(index, e, errorText, infra);
    const d = this.o.detectors;
    const signals: LoopSignal[] = [];
    if ((mask & A.M_EXACT) !== 0 && d.exactRepeat) {
      signals.push(exactRepeatSignal(this.log, d.exactRepeat, index, word(u32, o4, A.O_EX), word(u32, o4, A.O_EX + 4), PROGRESS[word(u32, o4, A.O_EX + 8)] as Progress));
    }
    if ((mask & A.M_FREQ) !== 0 && d.frequency) {
      signals.push(frequencySignal(this.log, d.frequency, index, word(u32, o4, A.O_FR), word(u32, o4, A.O_FR + 4), word(u32, o4, A.O_FR + 8), PROGRESS[word(u32, o4, A.O_FR + 12)] as Progress));
    }
    if ((mask & A.M_CYCLE) !== 0 && d.cycle) {
      signals.push(cycleSignal(this.log, d.cycle, index, word(u32, o4, A.O_CY), word(u32, o4, A.O_CY + 12), PROGRESS[word(u32, o4, A.O_CY + 8)] as Progress));
    }
    if (this.semanticHost !== null) {
      this.semanticHost.record(call);
      const s = this.semanticHost.check();
      if (s !== null) signals.push(s);
    } else if ((mask & A.M_SEMANTIC) !== 0) {
      // the module's list: the similar actions, then this one (named by its index)
      const unit = listAt(u32, word(u32, o4, A.O_SE + 16));
      if (unit.length === 0) unit.push(index);
      else unit[unit.length - 1] = index;
      signals.push(semanticUnitSignal(this.log, unit, word(u32, o4, A.O_SE + 8), PROGRESS[word(u32, o4, A.O_SE + 12)] as Progress));
    }
    if (this.similar !== null) {
      // its summary made as the args were encoded, when it could be (args-summary-mirror.ts)
      const plan = reading.plan;
      if (plan.summaryAt >= 0) this.similar.recordSummary(this.core.summaries.bytes, plan.summaryAt, plan.summaryLength);
      else this.similar.record(call);
      const s = this.similar.check();
      if (s !== null) signals.push(s);
    }
    if ((mask & A.M_RESULT) !== 0 && d.resultRepeat) signals.push(resultRepeatSignal({ count: word(u32, o4, A.O_RR_SAME), varied: word(u32, o4, A.O_RR_VARIED) === 1 }, d.resultRepeat, listAt(u32, word(u32, o4, A.O_RR + 12)), word(u32, o4, A.O_RR + 8)));
    if ((mask & A.M_DEADEND) !== 0 && d.deadEnd) {
      signals.push(deadEndSignal(d.deadEnd, errorText ?? '', listAt(u32, word(u32, o4, A.O_DE + 16)), word(u32, o4, A.O_DE + 8), PROGRESS[word(u32, o4, A.O_DE + 12)] as Progress));
    }
    if ((mask & A.M_STATE) !== 0 && d.stateRepeat) signals.push(stateRepeatSignal(this.log, d.stateRepeat, index, word(u32, o4, A.O_ST), word(u32, o4, A.O_ST + 4)));
    if (this.chanting !== null && !reading.proposing) {
      this.chanting.record(call);
      const s = this.chanting.check();
      if (s !== null) signals.push(s);
    }
    return signals.length === 0 ? NO_SIGNALS : signals;
  }

  /**
   * Adds the call's ring words (from its output) to the host's words; when they have missed calls the
   * module recorded (a call that failed after it was recorded), they are taken again from the rings first.
   */
  private keepWords(u32: Uint32Array, o4: number, index: number): void {
    const win = this.recent as RecentWords;
    if (win.count !== index) this.refillWords(index);
    win.push(u32[o4 + (A.O_TOOL_LO >>> 2)] as number, u32[o4 + (A.O_SIG_LO >>> 2)] as number, u32[o4 + (A.O_OUT_LO >>> 2)] as number, u32[o4 + (A.O_MASKED_LO >>> 2)] as number, u32[o4 + (A.O_OFLAGS >>> 2)] as number);
  }

  /** Takes the host's words of the calls before `count` from the module's rings. */
  private refillWords(count: number): void {
    const h = this.history;
    (this.recent as RecentWords).fill(count, (ring, i) => h.word(ring, i), (i) => h.flagsOf(i));
  }

  /** The call as the TypeScript detectors of this pipeline read it (one reused object). */
  private hostCall(index: number, e: ToolEvent, errorText: string | undefined, infra: boolean): ObservedCall {
    const c = (hostCallObject ??= new ReusedCall(this.log));
    c.log = this.log;
    c.index = index;
    c.event = e;
    c.isError = errorText !== undefined;
    c.isInfraFailure = infra;
    c.errorText = errorText;
    return c;
  }

  /** Lets go of the caller's event (and this session's log) the thread's reused call held while the detectors read it. */
  private dropHostCall(): void {
    const c = hostCallObject;
    if (c === null) return;
    c.event = NO_EVENT;
    c.errorText = undefined;
    c.log = NO_LOG;
  }

  observeText(text: string): LoopSignal | null {
    // (a disposed session's chanting would make a region again that nothing frees)
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    if (this.chanting === null) return null;
    this.chanting.recordText(text, Math.max(this.count - 1, 0));
    return this.chanting.check();
  }

  get recentWords(): HistoryReader {
    return this.recent ?? this.history;
  }

  get history(): WasmHistoryView {
    return (this.view ??= new WasmHistoryView(this.core.instance, this.core.layout(this.config), this));
  }

  mark(): void {
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    // a rollback rewrites the slot whole: a quarantined slot must stay quarantined, so it is never marked
    if (this.core.poisoned(this.slot)) throw new WasmTrapError('loopwatch: this session is quarantined after a WebAssembly trap; call reset() to use it again');
    const layout = this.core.layout(this.config);
    const bytes = undoArea(this, layout.savedSize);
    saveSlotInto(this.core, this.slot, layout, bytes, true);
    this.undo = { bytes, index: this.lastIndex, event: this.lastEvent, errorText: this.lastErrorText, infra: this.lastInfra };
    this.log.mark();
    this.recent?.mark();
    this.similar?.mark();
    this.semanticHost?.mark();
  }

  rollback(): void {
    const u = this.undo;
    if (u === null || this.slot === 0) return;
    this.undo = null;
    this.dropReading();
    const layout = this.core.layout(this.config);
    restoreSlot(this.core, this.slot, layout, u.bytes.subarray(0, layout.savedSize), true);
    // the area is free again, and the thread keeps no reference to this session
    if (sharedUndoHolder === this) sharedUndoHolder = null;
    this.lastIndex = u.index;
    this.lastEvent = u.event;
    this.lastErrorText = u.errorText;
    this.lastInfra = u.infra;
    this.log.rollback();
    this.recent?.rollback();
    this.similar?.rollback();
    this.semanticHost?.rollback();
  }

  /** Whether mark() kept a state that rollback() has not put back yet. @internal */
  get holdsMark(): boolean {
    return this.undo !== null;
  }

  reserve(calls: number, batch: number, text = false): boolean {
    const layout = this.core.layout(this.config);
    if (this.slot === 0) return true;
    // chanting's stream region, made when the first text is read: made now, so that a full memory evicts
    if (text && !this.streamRoom()) return false;
    if (calls === 0) return true;
    // the state ring's room is taken now (this session's own block), and before the sketches' is counted: a
    // block it takes is then not counted for them
    if (!this.stateRoom(layout, calls)) return false;
    // each call of the batch takes a sketch block (assembly/sketch-blocks.ts): the free blocks are the
    // thread's, so they are counted for every call of the batch, not this session's alone (each session
    // counting the same free blocks, a batch could fail its calls in a full memory rather than evict)
    return layout.semantic.cap === 0 || this.core.sketchRoom(batch, layout.semantic.k);
  }

  /** Makes chanting's prose stream now if no text made it yet; false when the memory has no room for its region. */
  private streamRoom(): boolean {
    if (this.chanting === null) return true;
    try {
      this.chanting.ready();
      return true;
    } catch (err) {
      if (err instanceof CapacityError) return false;
      throw err;
    }
  }

  /** Makes state repeat's ring hold the session's next `calls` keys now; false when the memory has no room. */
  private stateRoom(layout: SlotLayout, calls: number): boolean {
    if (layout.stateWindow === 0) return true;
    const { u8, u32 } = this.core.instance.views();
    // the ring's capacity, and its write position (the calls seen while they are fewer than the window)
    const cap = u32[(this.slot + layout.stateOff + 4) >>> 2] as number;
    if (cap >= layout.stateWindow || (u8[this.slot + A.S_STATE_POS] as number) + 256 * (u8[this.slot + A.S_STATE_POS + 1] as number) + calls <= cap) return true;
    return this.core.instance.exports.stateReserve(this.slot, calls) === 1;
  }

  anyAtThreshold(): boolean {
    if (this.slot === 0 || this.o.detectors.frequency === null) return false;
    return this.core.instance.exports.stuck(this.slot) === 1;
  }

  reset(): void {
    // a disposed session's shared blocks went back as they were: its log and rings hold none to reset
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    this.dropReading();
    this.core.reset(this.slot);
    this.log.reset();
    this.recent?.reset();
    const hostDetectors: (Detector | null)[] = [this.similar, this.semanticHost, this.chanting];
    for (const d of hostDetectors) d?.reset();
  }

  save(w: ByteWriter): void {
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    if (this.core.poisoned(this.slot)) throw new SnapshotError('loopwatch: a session quarantined after a WebAssembly trap cannot be saved; reset() it first');
    w.bytes(savedSlot(this.core, this.slot, this.core.layout(this.config)));
    w.f64(this.lastIndex);
    w.optStr(this.lastErrorText);
    w.bool(this.lastInfra);
    this.log.save(w);
    if (this.similar !== null) this.similar.save(w);
    if (this.semanticHost !== null) this.semanticHost.save(w);
    if (this.chanting !== null) this.chanting.save(w);
  }

  load(r: ByteReader, version: number): void {
    if (this.slot === 0) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    const state = r.bytes();
    const layout = this.core.layout(this.config);
    if (state.length !== layout.savedSize) throw new SnapshotError(`loopwatch: the snapshot's session state has ${state.length} bytes where these options lay out ${layout.savedSize}`);
    checkSavedSlot(layout, state);
    this.lastIndex = r.f64();
    this.dropReading();
    this.lastErrorText = r.optStr();
    this.lastInfra = r.bool();
    this.lastEvent = null;
    // before ARGS_SUMMARIES_SINCE, the log held similar args' window of args: summarised as they are read
    const similar = this.similar;
    const old = similar !== null && version < ARGS_SUMMARIES_SINCE ? new Map<number, unknown>() : null;
    this.log.load(r, old === null ? null : (i, args) => old.set(i, args), version < CALL_NAMES_FROM_ONE_SINCE);
    if (similar !== null) similar.load(r, old === null ? null : (i) => old.get(i), version < SUMMARY_FORM_SINCE);
    if (this.semanticHost !== null) this.semanticHost.load(r);
    if (this.chanting !== null) this.chanting.load(r, version);
    restoreSlot(this.core, this.slot, layout, state);
    if (this.recent !== null) this.refillWords(this.history.count);
  }

  dispose(): void {
    if (this.slot === 0) return;
    this.undo = null;
    this.dropReading();
    if (sharedUndoHolder === this) sharedUndoHolder = null;
    this.chanting?.dispose();
    this.core.free(this.slot);
    this.core.release(this.config);
    // nothing reads a disposed session (LoopDetector refuses every read): its shared blocks go back as they are
    this.log.dropWords();
    this.recent?.dropWords();
    this.similar?.dropWords();
    this.slot = 0;
    collector.unregister(this);
  }
}

/** What a tool's identity makes of an event's args; when it throws, an InvalidEventError (nothing recorded). */
function identityOf(identity: (args: unknown, tool: string) => unknown, e: ToolEvent): unknown {
  try {
    return identity(parseArgs(e.args), e.tool);
  } catch (err) {
    throw unreadable('args', err);
  }
}

/**
 * Calls whose signatures and outcomes the host keeps (src/state/recent-words.ts): similar args' window (and
 * the call itself), and the calls the failing-again rule reads (FAILING_WINDOW, on with dead end) as far as
 * the history holds them, so the rule reads as far back as over the rings. 0 when neither is on.
 */
export function recentReach(o: ResolvedOptions): number {
  const d = o.detectors;
  return Math.max(d.similarArgs === null ? 0 : d.similarArgs.window + 1, d.deadEnd === null ? 0 : Math.min(FAILING_WINDOW, historyCapacity(d)));
}

/** The output word at byte offset `off` of the record whose first word is `o4`. */
function word(u32: Uint32Array, o4: number, off: number): number {
  return u32[o4 + (off >>> 2)] as number;
}

/** The call list (u32 count, then indices) the module wrote at `ptr`. */
function listAt(u32: Uint32Array, ptr: number): number[] {
  const n = u32[ptr >>> 2] as number;
  const xs: number[] = new Array<number>(n);
  for (let k = 0; k < n; k++) xs[k] = u32[(ptr >>> 2) + 1 + k] as number;
  return xs;
}

/**
 * Runs staged calls of any number of sessions (call k: `items[k]`, staged by `pipelines[k]`) through the
 * thread's module in as few crossings as fit its input buffer; `done(k, signals or error)` is called for
 * each call in order, right after it was recorded (so the session's last call is call k while `done`
 * runs). A trap fails only its own call and quarantines its session; the other calls go on.
 */
export function runWasmBatch(pipelines: readonly WasmPipeline[], items: readonly BatchItem[], done: (k: number, result: readonly LoopSignal[] | Error) => void): void {
  if (items.length === 0) return;
  sharedCore().run(items, (k, out, learnt, trap) => {
    let result: readonly LoopSignal[] | Error;
    try {
      result = (pipelines[k] as WasmPipeline).complete(items[k] as BatchItem, out, learnt, trap);
    } catch (err) {
      result = err instanceof Error ? err : new Error(String(err));
    }
    done(k, result);
  });
}
