/**
 * The reference pipeline: every built-in detector in plain TypeScript over the call-history rings. It
 * defines what the answers are; the WebAssembly pipeline must give the same ones.
 */
import { SnapshotError } from '../errors.js';
import type { ChantingDetector } from '../detectors/chanting.js';
import type { Detector } from '../detectors/detector.js';
import type { FrequencyDetector } from '../detectors/frequency.js';
import type { ResolvedOptions } from '../options/options.js';
import { parseArgs } from '../fingerprint/signature.js';
import { CallHistory } from '../state/call-history.js';
import { CallLog } from '../state/call-log.js';
import type { LoopSignal, ToolEvent } from '../types.js';
import { buildDetectors, historyCapacity } from './build-detectors.js';
import { EventObserver } from './observe-event.js';
import { NO_SIGNALS, type Pipeline } from './pipeline.js';
import type { ObservedCall } from '../detectors/detector.js';
import type { LoggedCall } from './observed-call.js';

/** The plain-TypeScript pipeline. */
export class ReferencePipeline implements Pipeline {
  readonly log: CallLog;
  private readonly history: CallHistory;
  private readonly observer: EventObserver;
  private readonly detectors: readonly Detector[];
  private readonly frequency: FrequencyDetector | null;
  private readonly chanting: ChantingDetector | null;

  constructor(o: ResolvedOptions) {
    const capacity = historyCapacity(o.detectors);
    this.history = new CallHistory(capacity);
    this.log = new CallLog(capacity, (args, tool) => {
      const identity = o.tools.get(tool)?.identity;
      const parsed = parseArgs(args);
      return identity === undefined ? parsed : identity(parsed, tool);
    });
    this.observer = new EventObserver(o, this.history, this.log);
    const built = buildDetectors({ history: this.history, log: this.log }, o.detectors, o.normalizeVolatile, (tool) => this.observer.walkFor(tool), o.policy.progress === 'suppress');
    this.detectors = built.all;
    this.frequency = built.frequency;
    this.chanting = built.chanting;
  }

  get count(): number {
    return this.history.count;
  }

  private last: LoggedCall | null = null;

  get lastIndex(): number {
    return this.last?.index ?? 0;
  }

  lastCall(): ObservedCall {
    return this.last as LoggedCall;
  }

  observe(e: ToolEvent): readonly LoopSignal[] {
    const call = this.observer.observe(e);
    this.last = call;
    let signals: LoopSignal[] | null = null;
    for (const d of this.detectors) {
      d.record(call);
      const s = d.check();
      if (s !== null) (signals ??= []).push(s);
    }
    return signals ?? NO_SIGNALS;
  }

  save(): void {
    throw new SnapshotError('loopwatch: snapshots need the WebAssembly engine (engine: "wasm")');
  }

  load(): void {
    throw new SnapshotError('loopwatch: snapshots need the WebAssembly engine (engine: "wasm")');
  }

  observeText(text: string): LoopSignal | null {
    if (this.chanting === null) return null;
    this.chanting.recordText(text, Math.max(this.history.count - 1, 0));
    return this.chanting.check();
  }

  anyAtThreshold(): boolean {
    return this.frequency?.anyAtThreshold() ?? false;
  }

  reset(): void {
    this.history.reset();
    this.log.reset();
    for (const d of this.detectors) d.reset();
  }

  dispose(): void {}
}
