/**
 * Test helpers: build detectors with one built-in detector on, and run event sequences through them.
 */
import { LoopDetector } from '../../src/index.js';
import type { LoopDetectorOptions, ToolEvent, Verdict } from '../../src/index.js';

/** Every built-in detector, off. */
export const ALL_OFF = {
  exactRepeat: false,
  frequency: false,
  cycle: false,
  semantic: false,
  similarArgs: false,
  resultRepeat: false,
  deadEnd: false,
  stateRepeat: false,
  chanting: false,
} as const;

type DetectorName = keyof typeof ALL_OFF;

/**
 * A LoopDetector with only `name` on (its options may be given), a flat warn ladder, no confidence floor
 * and results ignored, so the detector itself is tested; tests of the policy set `progress` themselves.
 */
export function only(name: DetectorName, options: object | true = true, extra: LoopDetectorOptions = {}): LoopDetector {
  return new LoopDetector({
    ...extra,
    detectors: { ...ALL_OFF, [name]: options },
    policy: { ladder: ['warn'], minConfidence: 0, progress: 'ignore', ...extra.policy },
  });
}

/** Runs the events through the detector and returns the verdict (or null) of each. */
export function run(d: LoopDetector, events: readonly ToolEvent[]): (Verdict | null)[] {
  return events.map((e) => d.check(e));
}

/** Indices of the events that got a verdict. */
export function fired(verdicts: readonly (Verdict | null)[]): number[] {
  return verdicts.flatMap((v, i) => (v === null ? [] : [i]));
}

/** Kinds of the signals behind a verdict. */
export function kinds(v: Verdict | null): string[] {
  return v === null ? [] : v.signals.map((s) => s.kind);
}

/** `n` copies of an event. */
export function times(n: number, e: ToolEvent): ToolEvent[] {
  return Array.from({ length: n }, () => e);
}
