/**
 * The reference pipeline: every built-in detector in plain TypeScript over the call-history rings. It
 * defines what the answers are; the WebAssembly pipeline must give the same ones.
 */
import { DisposedError, SnapshotError } from '../errors.js';
import type { ChantingDetector } from '../detectors/chanting.js';
import type { Detector } from '../detectors/detector.js';
import type { FrequencyDetector } from '../detectors/frequency.js';
import type { ResolvedOptions } from '../options/options.js';
import { parseArgs } from '../fingerprint/signature.js';
import { CallHistory, type HistoryReader } from '../state/call-history.js';
import type { Rewindable } from '../state/rewindable.js';
import { type ArgsNormaliser, CallLog } from '../state/call-log.js';
import type { LoopSignal, ToolEvent } from '../types.js';
import { argsRetention, buildDetectors, historyCapacity } from './build-detectors.js';
import { EventObserver } from './observe-event.js';
import { NO_SIGNALS, type Pipeline } from './pipeline.js';
import { withPlainResult } from '../wasm/raw-json-string.js';
import type { ObservedCall } from '../detectors/detector.js';
import type { LoggedCall } from './observed-call.js';

function isRewindable(d: Detector): d is Detector & Rewindable {
  const r = d as Partial<Rewindable>;
  return typeof r.mark === 'function' && typeof r.rollback === 'function';
}

/** The plain-TypeScript pipeline. */
export class ReferencePipeline implements Pipeline, ArgsNormaliser {
  readonly log: CallLog;
  private readonly rings: CallHistory;
  private readonly observer: EventObserver;
  private readonly detectors: readonly Detector[];
  private readonly frequency: FrequencyDetector | null;
  private readonly chanting: ChantingDetector | null;

  constructor(private readonly o: ResolvedOptions) {
    const capacity = historyCapacity(o.detectors);
    this.rings = new CallHistory(capacity);
    this.log = new CallLog(capacity, this, argsRetention(o.detectors, capacity, o.custom.length !== 0));
    this.observer = new EventObserver(o, this.rings, this.log);
    const built = buildDetectors({ history: this.rings, log: this.log }, o.detectors, o.normalizeVolatile, (tool) => this.observer.walkFor(tool), o.policy.progress === 'suppress');
    this.detectors = built.all;
    this.frequency = built.frequency;
    this.chanting = built.chanting;
  }

  get count(): number {
    return this.rings.count;
  }

  /** Whether a call of `tool` has its args as compared exactly as parsed: no identity applies (the call log's ArgsNormaliser). */
  parsedAsIs(tool: string): boolean {
    return this.o.tools.get(tool)?.identity === undefined;
  }

  /** Args as compared: JSON strings parsed, the tool's identity applied (the call log's ArgsNormaliser). */
  normaliseArgs(args: unknown, tool: string): unknown {
    const identity = this.o.tools.get(tool)?.identity;
    const parsed = parseArgs(args);
    return identity === undefined ? parsed : identity(parsed, tool);
  }

  private last: LoggedCall | null = null;

  get lastIndex(): number {
    return this.last?.index ?? 0;
  }

  lastCall(): ObservedCall {
    return this.last as LoggedCall;
  }

  get history(): HistoryReader {
    return this.rings;
  }

  get recentWords(): HistoryReader {
    return this.rings;
  }

  observe(e: ToolEvent, proposed = false): readonly LoopSignal[] {
    if (this.disposed) throw new DisposedError('loopwatch: this LoopDetector was disposed');
    // the reference reads values as given: a result still in its JSON bytes becomes its string first
    const call = this.observer.observe(withPlainResult(e), proposed);
    this.last = call;
    let signals: LoopSignal[] | null = null;
    for (const d of this.detectors) {
      if (proposed && d === this.chanting) continue;
      d.record(call);
      const s = d.check();
      if (s !== null) (signals ??= []).push(s);
    }
    return signals ?? NO_SIGNALS;
  }

  private undoLast: LoggedCall | null = null;

  mark(): void {
    this.rings.mark();
    this.log.mark();
    for (const d of this.detectors) if (isRewindable(d)) d.mark();
    this.undoLast = this.last;
  }

  rollback(): void {
    this.rings.rollback();
    this.log.rollback();
    for (const d of this.detectors) if (isRewindable(d)) d.rollback();
    this.last = this.undoLast;
  }

  save(): void {
    throw new SnapshotError('loopwatch: snapshots need the WebAssembly engine (engine: "wasm")');
  }

  load(): void {
    throw new SnapshotError('loopwatch: snapshots need the WebAssembly engine (engine: "wasm")');
  }

  observeText(text: string): LoopSignal | null {
    if (this.chanting === null) return null;
    this.chanting.recordText(text, Math.max(this.rings.count - 1, 0));
    return this.chanting.check();
  }

  anyAtThreshold(): boolean {
    return this.frequency?.anyAtThreshold() ?? false;
  }

  reset(): void {
    this.rings.reset();
    this.log.reset();
    for (const d of this.detectors) d.reset();
  }

  /** Whether dispose() was called: the reference holds nothing outside the heap, but refuses calls as the module's pipeline does. */
  disposed = false;

  dispose(): void {
    this.disposed = true;
  }
}
