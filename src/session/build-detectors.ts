/**
 * Builds the built-in detectors a session's options turn on, in their fixed order, over one shared
 * context, and says how much call history they need.
 */
import { ChantingDetector } from '../detectors/chanting.js';
import type { DetectorContext } from '../detectors/context.js';
import { CycleDetector } from '../detectors/cycle.js';
import { DeadEndDetector } from '../detectors/dead-end.js';
import type { Detector } from '../detectors/detector.js';
import { ExactRepeatDetector } from '../detectors/exact-repeat.js';
import { FrequencyDetector } from '../detectors/frequency.js';
import { ResultRepeatDetector } from '../detectors/result-repeat.js';
import { SemanticDetector } from '../detectors/semantic.js';
import { SimilarArgsDetector } from '../detectors/similar-args.js';
import { StateRepeatDetector } from '../detectors/state-repeat.js';
import type { DetectorsOptions } from '../options/options.js';
import { maskVolatile } from '../text/mask-volatile.js';
import type { WalkLookup } from '../detectors/semantic.js';
import type { ArgsRetention } from '../state/call-log.js';

/** Calls of history the enabled detectors read (at least 1). */
export function historyCapacity(d: DetectorsOptions): number {
  return Math.max(
    1,
    d.exactRepeat?.window ?? 0,
    d.frequency?.window ?? 0,
    d.cycle?.window ?? 0,
    (d.semantic?.window ?? 0) + 1,
    (d.similarArgs?.window ?? 0) + 1,
    d.resultRepeat?.window ?? 0,
    d.deadEnd?.window ?? 0,
  );
}

/**
 * Which recent calls' args (and previews) a session keeps, for what reads them after the call itself was
 * checked: a cycle's message names the calls of its unit (at most `maxPeriod`, the newest ones, each a
 * repeat of the call a period before it: only their previews are kept); every other message names the
 * current call, and similar args keeps summaries of its own. Custom detectors may keep a call and read its
 * args later: with them, the whole history's args.
 */
export function argsRetention(d: DetectorsOptions, capacity: number, custom: boolean): ArgsRetention {
  // one object per options (and custom or not), shared by their sessions
  let both = retentions.get(d);
  if (both === undefined) {
    both = [null, null];
    retentions.set(d, both);
  }
  const k = custom ? 1 : 0;
  const known = both[k];
  if (known !== null && known.capacity === capacity) return known.retention;
  const retention = retentionOf(d, capacity, custom);
  both[k] = { capacity, retention };
  return retention;
}

const retentions = new WeakMap<DetectorsOptions, [{ capacity: number; retention: ArgsRetention } | null, { capacity: number; retention: ArgsRetention } | null]>();

function retentionOf(d: DetectorsOptions, capacity: number, custom: boolean): ArgsRetention {
  // similar args reads every call's args as values (its summary): the outcome facts read them from those too
  const everyValue = d.similarArgs !== null;
  if (custom) return Object.freeze({ window: capacity, keepAll: true, minPeriod: 0, maxPeriod: 0, everyValue });
  const cycleCalls = d.cycle !== null && d.cycle.key !== 'tool';
  const window = Math.min(capacity, Math.max(1, cycleCalls ? (d.cycle?.maxPeriod ?? 0) : 0));
  return Object.freeze({ window, keepAll: false, minPeriod: cycleCalls ? (d.cycle?.minPeriod ?? 0) : 0, maxPeriod: cycleCalls ? (d.cycle?.maxPeriod ?? 0) : 0, everyValue });
}

/** The built-in detectors, and direct handles on the two the session talks to. */
export interface BuiltDetectors {
  readonly all: readonly Detector[];
  readonly frequency: FrequencyDetector | null;
  readonly chanting: ChantingDetector | null;
}

/** Instantiates the enabled built-in detectors in their fixed order. */
export function buildDetectors(ctx: DetectorContext, d: DetectorsOptions, normalizeVolatile: boolean, walk: WalkLookup, suppressProgress: boolean): BuiltDetectors {
  const mask = normalizeVolatile ? (s: string) => maskVolatile(s) : null;
  const frequency = d.frequency ? new FrequencyDetector(ctx, d.frequency) : null;
  const chanting = d.chanting ? new ChantingDetector(d.chanting) : null;
  const all: (Detector | null)[] = [
    d.exactRepeat ? new ExactRepeatDetector(ctx, d.exactRepeat) : null,
    frequency,
    d.cycle ? new CycleDetector(ctx, d.cycle) : null,
    d.semantic ? new SemanticDetector(ctx, d.semantic, normalizeVolatile, walk) : null,
    d.similarArgs ? new SimilarArgsDetector(ctx, d.similarArgs, mask, suppressProgress) : null,
    d.resultRepeat ? new ResultRepeatDetector(ctx, d.resultRepeat) : null,
    d.deadEnd ? new DeadEndDetector(ctx, d.deadEnd) : null,
    d.stateRepeat ? new StateRepeatDetector(ctx, d.stateRepeat) : null,
    chanting,
  ];
  return { all: all.filter((x): x is Detector => x !== null), frequency, chanting };
}
