/**
 * LoopDetector: one agent session's loop detection. `check(event)` records a tool call and returns a
 * verdict when the session is looping, else null.
 *
 * ```
 * event -> validate -> normalise + fingerprint (observe-event) -> call history rings
 *       -> built-in + custom detectors (record, check) -> signals
 *       -> policy (progress gate, fusion, ladder, message, onDetect) -> verdict -> stats, listeners
 * ```
 */
import type { Detector, ObservedCall } from '../detectors/detector.js';
import type { FrequencyDetector } from '../detectors/frequency.js';
import type { ChantingDetector } from '../detectors/chanting.js';
import { DetectorError, InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import type { LoopDetectorOptions, ResolvedOptions } from '../options/options.js';
import { resolveOptions } from '../options/resolve-options.js';
import { VerdictPolicy } from '../policy/verdict-policy.js';
import { CallHistory } from '../state/call-history.js';
import { CallLog, previewCall } from '../state/call-log.js';
import type { LoopSignal, ToolEvent, Verdict } from '../types.js';
import { buildDetectors, historyCapacity } from './build-detectors.js';
import { EventObserver, validateEvent } from './observe-event.js';
import { type SessionStats, StatsTally } from './stats.js';

/** Receives every verdict a session gives. */
export type VerdictListener = (verdict: Verdict) => void;

function checkSignal(d: Detector, s: unknown): LoopSignal {
  const bad = (why: string): never => {
    throw new DetectorError(d.name, `detector "${d.name}" returned an invalid signal: ${why}`);
  };
  if (typeof s !== 'object' || s === null) return bad(`expected an object or null, received ${describe(s)}`);
  const o = s as Record<string, unknown>;
  if (typeof o.kind !== 'string' || o.kind.length === 0) bad(`kind must be a non-empty string, received ${describe(o.kind)}`);
  if (typeof o.pattern !== 'string') bad(`pattern must be a string, received ${describe(o.pattern)}`);
  if (typeof o.confidence !== 'number' || !(o.confidence >= 0 && o.confidence <= 1)) bad(`confidence must be a number in [0, 1], received ${describe(o.confidence)}`);
  return { ...(o as unknown as LoopSignal), detector: typeof o.detector === 'string' ? o.detector : d.name };
}

/** Loop detection for one agent session. */
export class LoopDetector {
  /** The resolved options (defaults filled in). */
  readonly options: ResolvedOptions;
  private readonly history: CallHistory;
  private readonly log: CallLog;
  private readonly observer: EventObserver;
  private readonly builtIn: readonly Detector[];
  private readonly frequency: FrequencyDetector | null;
  private readonly chanting: ChantingDetector | null;
  private readonly policy: VerdictPolicy;
  private readonly tally = new StatsTally();
  private readonly listeners = new Set<VerdictListener>();
  private last: Verdict | null = null;

  /** Validates every option (throws OptionTypeError / OptionRangeError naming it) and sets up the session. */
  constructor(options: LoopDetectorOptions = {}) {
    this.options = resolveOptions(options);
    const capacity = historyCapacity(this.options.detectors);
    this.history = new CallHistory(capacity);
    this.log = new CallLog(capacity);
    this.observer = new EventObserver(this.options, this.history);
    const built = buildDetectors({ history: this.history, log: this.log }, this.options.detectors, this.options.normalizeVolatile, (tool) => this.observer.walkFor(tool), this.options.policy.progress === 'suppress');
    this.builtIn = built.all;
    this.frequency = built.frequency;
    this.chanting = built.chanting;
    this.policy = new VerdictPolicy(this.options.policy, this.log, this.options.redactSecrets);
    this.options.stats?.join();
  }

  /**
   * Records one tool call and says whether the session is looping.
   * Throws {@link InvalidEventError} (nothing recorded) when the event is not a readable tool call.
   */
  check(event: ToolEvent): Verdict | null {
    const e = validateEvent(event);
    this.count((t) => t.checks++);
    if (this.observer.rule(e.tool)?.exempt === true) {
      this.count((t) => t.skipped++);
      return null;
    }
    const call = this.observer.observe(e);
    this.log.push(
      Object.freeze({
        index: call.index,
        tool: call.tool,
        signature: call.signature,
        ...(e.step === undefined ? {} : { step: e.step }),
        ...(e.round === undefined ? {} : { round: e.round }),
      }),
      previewCall(call.tool, e.description ?? call.args),
    );
    const signals: LoopSignal[] = [];
    for (const d of this.builtIn) {
      d.record(call);
      const s = d.check();
      if (s !== null) signals.push(s);
    }
    this.runCustom(call, signals);
    return this.finish(signals, call.index, e.step);
  }

  /**
   * Feeds streamed agent text (outside tool calls) to the chanting detector; returns a verdict when the
   * text is chanting. Lines may be split across calls.
   */
  checkText(text: string): Verdict | null {
    if (typeof text !== 'string') throw new InvalidEventError('text', `text must be a string, received ${describe(text)}`);
    if (this.chanting === null) return null;
    const index = Math.max(this.history.count - 1, 0);
    this.chanting.recordText(text, index);
    const s = this.chanting.check();
    return this.finish(s === null ? [] : [s], index, undefined);
  }

  private runCustom(call: ObservedCall, signals: LoopSignal[]): void {
    for (const d of this.options.custom) {
      let s: unknown;
      try {
        d.record(call);
        s = d.check();
      } catch (err) {
        throw new DetectorError(d.name, `detector "${d.name}" threw: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      if (s !== null && s !== undefined) signals.push(checkSignal(d, s));
    }
  }

  private finish(signals: readonly LoopSignal[], index: number, step: number | undefined): Verdict | null {
    const { verdict, tolerated } = this.policy.decide(signals, index, step);
    if (tolerated > 0) this.count((t) => (t.tolerated += tolerated));
    this.last = verdict;
    if (verdict === null) return null;
    this.count((t) => t.addVerdict(verdict.kind, verdict.action, verdict.confidence));
    this.emit(verdict);
    return verdict;
  }

  private count(f: (t: StatsTally) => void): void {
    f(this.tally);
    if (this.options.stats !== undefined) f(this.options.stats.tally);
  }

  private emit(verdict: Verdict): void {
    const all: VerdictListener[] = [...this.listeners];
    if (this.options.onDetection !== undefined) all.unshift(this.options.onDetection);
    for (const l of all) {
      try {
        l(verdict);
      } catch (err) {
        process.emitWarning(`loopwatch: a verdict listener threw: ${err instanceof Error ? err.message : String(err)}`, 'LoopwatchListenerWarning');
      }
    }
  }

  /** Subscribes to verdicts; returns the function that unsubscribes. */
  subscribe(listener: VerdictListener): () => void {
    if (typeof listener !== 'function') throw new TypeError(`listener must be a function, received ${describe(listener)}`);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Whether the session looks stuck: the last call got a verdict, or a call in the frequency window has
   * reached its threshold (the ToolLoopDetector `is_stuck()` view).
   */
  isStuck(): boolean {
    return this.last !== null || (this.frequency?.anyAtThreshold() ?? false);
  }

  /** Reports that a verdict of this session was a false positive (counted in stats). */
  reportFalsePositive(): void {
    this.count((t) => t.falsePositives++);
  }

  /** This session's statistics (they survive `reset()`). */
  stats(): SessionStats {
    return Object.freeze({ ...this.tally.snapshot(), sessionId: this.options.sessionId });
  }

  /** Forgets every call and starts the action ladder again (after a successful replan, for example). */
  reset(): void {
    this.history.reset();
    this.log.reset();
    for (const d of this.builtIn) d.reset();
    for (const d of this.options.custom) d.reset();
    this.policy.reset();
    this.last = null;
  }
}
