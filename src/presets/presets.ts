/**
 * Presets that reproduce the documented behaviour and defaults of the seed designs, so their users can
 * move over. Each returns a configured {@link LoopDetector}; `presetOptions` returns the options instead,
 * to extend before constructing. Extra options (sessionId, stats, onDetection, ...) go in `extra`.
 *
 * | preset            | seed design                                   | detectors                                   |
 * |-------------------|-----------------------------------------------|---------------------------------------------|
 * | chimera           | chimera LoopDetector + OnDetect               | exact repeat, then pattern cycle (first wins)|
 * | toolLoop          | ToolLoopDetector (record / is_stuck / reset)  | frequency 3 in 20, action break             |
 * | balanced          | Rust LoopDetectorConfig::default              | duplicates then patterns, warn-warn-break   |
 * | conservative      | Rust conservative config                      | fewer false positives, warn x3 then break   |
 * | aggressive        | Rust aggressive config                        | catch loops early, warn-break               |
 * | multiResolution   | corteX MultiResolutionLoopDetector            | state hash, Jaccard, oscillation, dead end  |
 *
 * Differences from the seeds, by design: calls are compared by loopwatch's canonical xxh64 signature (not
 * MD5 of sorted JSON); the Rust design's habit of not recording a call it flagged is not reproduced (every
 * call is recorded, so the window always holds the last calls).
 */
import { OptionRangeError } from '../errors.js';
import { integer, knownKeys, oneOf, ratio, record } from '../options/checks.js';
import { HAND_TUNED_DETECTORS } from '../options/detector-options.js';
import { HAND_TUNED_POLICY, type LoopDetectorOptions } from '../options/options.js';
import { LoopDetector } from '../session/loop-detector.js';
import type { LoopAction } from '../types.js';

const OFF = {
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

/**
 * A seed design's options over the hand-tuned values: each detector it turns on, and the policy, keep the
 * built-in value of every field the seed does not set (the shipped default's fitted values, a signal kind's
 * weight among them, are loopwatch's, not the seed's).
 */
function seed(o: LoopDetectorOptions): LoopDetectorOptions {
  const detectors: Record<string, unknown> = { ...o.detectors };
  for (const [name, setting] of Object.entries(detectors)) {
    if (typeof setting === 'object' && setting !== null) detectors[name] = { ...HAND_TUNED_DETECTORS[name as keyof typeof HAND_TUNED_DETECTORS], ...setting };
  }
  return { ...o, detectors, policy: { ...HAND_TUNED_POLICY, ...o.policy } };
}

function params(name: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  const p = record(`presets.${name}() options`, value === undefined ? {} : value);
  knownKeys(`presets.${name}() options`, p, known);
  return p;
}

/** A parameter's value, or its default when it was not given (`null` is a value, and is rejected). */
function given(p: Record<string, unknown>, key: string, fallback: unknown): unknown {
  return p[key] === undefined ? fallback : p[key];
}

/**
 * The entries of `o` whose value is not `undefined` (an `undefined` option means "not given"), each an own
 * property of the result: a key `__proto__` (JSON.parse makes it an own one) stays a key, which validation
 * then refuses, never becomes the result's prototype, silently dropped by the spread that reads it.
 */
function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Lays `extra` over a preset's options: top-level keys replace, `policy` fields replace one by one, and a
 * detector given as an object changes only the fields it names (`false` still turns it off).
 */
export function merge(base: LoopDetectorOptions, extra: LoopDetectorOptions | undefined): LoopDetectorOptions {
  if (extra === undefined) return base;
  const path = 'preset extra options';
  const e = record(path, extra) as LoopDetectorOptions;
  const extraDetectors = e.detectors === undefined ? {} : record(`${path}.detectors`, e.detectors);
  const extraPolicy = e.policy === undefined ? {} : record(`${path}.policy`, e.policy);
  const detectors: Record<string, unknown> = { ...base.detectors };
  for (const [name, setting] of Object.entries(extraDetectors)) {
    if (setting === undefined) continue;
    const before = Object.hasOwn(detectors, name) ? detectors[name] : undefined;
    const both = typeof setting === 'object' && setting !== null && typeof before === 'object' && before !== null;
    // defined as an own property: `detectors.__proto__ = x` would set the object's prototype instead
    Object.defineProperty(detectors, name, { value: both ? { ...before, ...defined(setting as Record<string, unknown>) } : setting, enumerable: true, writable: true, configurable: true });
  }
  return { ...base, ...defined(e as Record<string, unknown>), detectors, policy: { ...base.policy, ...defined(extraPolicy) } };
}

/** chimera's options: `window` (10), `threshold` (3, exact repeats), `cycleThreshold` (2), `onDetect` ('warn'). */
export interface ChimeraParams {
  readonly window?: number;
  readonly threshold?: number;
  readonly cycleThreshold?: number;
  readonly onDetect?: LoopAction;
}

/** ToolLoopDetector's options: `repeatThreshold` (3), `historySize` (20). */
export interface ToolLoopParams {
  readonly repeatThreshold?: number;
  readonly historySize?: number;
}

/** MultiResolutionLoopDetector's options and their defaults. */
export interface MultiResolutionParams {
  readonly exactThreshold?: number;
  readonly jaccardThreshold?: number;
  readonly oscillationMinCycles?: number;
  readonly deadEndThreshold?: number;
}

interface Graduated {
  readonly window: number;
  readonly maxDuplicates: number;
  readonly minPattern: number;
  readonly maxPattern: number;
  readonly repetitions: number;
  readonly ladder: readonly LoopAction[];
}

/** The Rust design's three graduated configurations. */
export const GRADUATED: Readonly<Record<'balanced' | 'conservative' | 'aggressive', Graduated>> = {
  balanced: { window: 10, maxDuplicates: 2, minPattern: 2, maxPattern: 5, repetitions: 2, ladder: ['warn', 'warn', 'break'] },
  conservative: { window: 15, maxDuplicates: 4, minPattern: 3, maxPattern: 5, repetitions: 3, ladder: ['warn', 'warn', 'warn', 'break'] },
  aggressive: { window: 10, maxDuplicates: 1, minPattern: 2, maxPattern: 4, repetitions: 2, ladder: ['warn', 'break'] },
};

function graduated(g: Graduated): LoopDetectorOptions {
  return seed({
    detectors: {
      ...OFF,
      // max_duplicates earlier identical calls among the last `window` → a frequency of max + 1 in window + 1
      frequency: { threshold: g.maxDuplicates + 1, window: g.window + 1 },
      cycle: { minPeriod: g.minPattern, maxPeriod: g.maxPattern, repetitions: g.repetitions, window: Math.max(g.window, g.maxPattern * g.repetitions) },
    },
    policy: { ladder: g.ladder, fusion: 'first', progress: 'ignore', cooldown: 0, minConfidence: 0 },
  });
}

/** Options of each preset (validated when a LoopDetector is built from them). */
export const presetOptions = {
  /** chimera: ExactRepeatDetector then PatternCycleDetector (first result wins), one fixed OnDetect action. */
  chimera(p: ChimeraParams = {}, extra?: LoopDetectorOptions): LoopDetectorOptions {
    const o = params('chimera', p, ['window', 'threshold', 'cycleThreshold', 'onDetect']);
    const path = 'presets.chimera() options';
    const window = integer(`${path}.window`, given(o, 'window', 10), 4, 10_000);
    const threshold = integer(`${path}.threshold`, given(o, 'threshold', 3), 2, window, ' (window)');
    const cycleThreshold = integer(`${path}.cycleThreshold`, given(o, 'cycleThreshold', 2), 2, 10_000);
    const onDetect = oneOf(`${path}.onDetect`, given(o, 'onDetect', 'warn'), ['warn', 'ask', 'break'] as const);
    const maxPeriod = Math.floor(window / cycleThreshold);
    if (maxPeriod < 2) {
      throw new OptionRangeError(`${path}.window`, `${path}.window must be at least 2 * cycleThreshold (${2 * cycleThreshold}), received ${window} (number)`);
    }
    return merge(
      seed({
        detectors: { ...OFF, exactRepeat: { threshold, window }, cycle: { minPeriod: 2, maxPeriod, repetitions: cycleThreshold, window } },
        policy: { ladder: [onDetect], fusion: 'first', progress: 'ignore', cooldown: 0, minConfidence: 0 },
      }),
      extra,
    );
  },
  /** ToolLoopDetector: stuck when a call repeats `repeatThreshold` times in the last `historySize`; action break. */
  toolLoop(p: ToolLoopParams = {}, extra?: LoopDetectorOptions): LoopDetectorOptions {
    const o = params('toolLoop', p, ['repeatThreshold', 'historySize']);
    const threshold = integer('presets.toolLoop() options.repeatThreshold', given(o, 'repeatThreshold', 3), 2, 10_000);
    const window = integer('presets.toolLoop() options.historySize', given(o, 'historySize', 20), threshold, 10_000, ' (repeatThreshold)');
    return merge(seed({ detectors: { ...OFF, frequency: { threshold, window } }, policy: { ladder: ['break'], fusion: 'first', progress: 'ignore', cooldown: 0, minConfidence: 0 } }), extra);
  },
  /** The Rust design's default: window 10, 2 duplicates, patterns 2..5 x2, warn-warn-break. */
  balanced(extra?: LoopDetectorOptions): LoopDetectorOptions {
    return merge(graduated(GRADUATED.balanced), extra);
  },
  /** Fewer false positives: window 15, 4 duplicates, patterns 3..5 x3, warn-warn-warn-break. */
  conservative(extra?: LoopDetectorOptions): LoopDetectorOptions {
    return merge(graduated(GRADUATED.conservative), extra);
  },
  /** Catch loops early: window 10, 1 duplicate, patterns 2..4 x2, warn-break. */
  aggressive(extra?: LoopDetectorOptions): LoopDetectorOptions {
    return merge(graduated(GRADUATED.aggressive), extra);
  },
  /** corteX: state hash 3 in 500, Jaccard 0.65 in 30, oscillation of action types 2..4, dead end 3 in 15, fused. */
  multiResolution(p: MultiResolutionParams = {}, extra?: LoopDetectorOptions): LoopDetectorOptions {
    const o = params('multiResolution', p, ['exactThreshold', 'jaccardThreshold', 'oscillationMinCycles', 'deadEndThreshold']);
    const path = 'presets.multiResolution() options';
    return merge(
      seed({
        detectors: {
          ...OFF,
          stateRepeat: { threshold: integer(`${path}.exactThreshold`, given(o, 'exactThreshold', 3), 2, 500, ' (the 500-state window)'), window: 500 },
          semantic: { threshold: ratio(`${path}.jaccardThreshold`, given(o, 'jaccardThreshold', 0.65), 0, 1, true), window: 30, minSimilar: 2, minTokens: 1, sameTool: false, countIdentical: true, includeTool: false },
          cycle: { minPeriod: 2, maxPeriod: 4, repetitions: integer(`${path}.oscillationMinCycles`, given(o, 'oscillationMinCycles', 2), 2, 5, ' (4 * cycles within the 20-call window)'), window: 20, key: 'tool' },
          deadEnd: { threshold: integer(`${path}.deadEndThreshold`, given(o, 'deadEndThreshold', 3), 2, 15, ' (the 15-call window)'), window: 15, matchClass: true },
        },
        policy: { fusion: 'fuse', primary: 'confident', agreementBonus: 0.1, recommend: 'confidence', escalateConfidence: 0.85, escalateRepeats: 5, progress: 'ignore', cooldown: 0, minConfidence: 0 },
      }),
      extra,
    );
  },
};

/** Ready-made detectors for each preset (see {@link presetOptions}). */
export const presets = {
  chimera: (p?: ChimeraParams, extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.chimera(p, extra)),
  toolLoop: (p?: ToolLoopParams, extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.toolLoop(p, extra)),
  balanced: (extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.balanced(extra)),
  conservative: (extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.conservative(extra)),
  aggressive: (extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.aggressive(extra)),
  multiResolution: (p?: MultiResolutionParams, extra?: LoopDetectorOptions): LoopDetector => new LoopDetector(presetOptions.multiResolution(p, extra)),
};
