/**
 * Options of a LoopDetector, as callers write them (everything optional) and as they are resolved
 * (everything present). Each option is documented where it is declared, with its default.
 */
import type { Detector } from '../detectors/detector.js';
import type { StatsAggregate } from '../session/stats.js';
import type { LoopAction, Verdict } from '../types.js';
import type { AllowRule, ResolvedAllowRule } from './allow-rules.js';
import { HAND_TUNED_DETECTORS } from './detector-options.js';
import { fittedPolicy, shippedValues } from './shipped-default.js';
import type {
  ChantingOptions,
  CycleOptions,
  DeadEndOptions,
  ExactRepeatOptions,
  FrequencyOptions,
  ResultRepeatOptions,
  SemanticOptions,
  SimilarArgsOptions,
  StateRepeatOptions,
} from './detector-options.js';

/** How one tool's calls are normalised before they are compared. */
export interface ToolRule {
  /** Argument fields ignored at every depth (ids, timestamps, nonces). @default [] */
  readonly ignoreFields?: readonly string[];
  /** Maps the args to the value that identifies the call; its canonical form is hashed instead of the args. */
  readonly identity?: (args: unknown, tool: string) => unknown;
  /** Never check this tool's calls: they are not recorded and get no verdict. @default false */
  readonly exempt?: boolean;
  /**
   * A call of this tool that succeeded changes the workspace (an edit, a file write): after calls were
   * blocked, a new one (no verdict of its own) gives the session a fresh start (LoopDetector.freshStart),
   * so re-running a check after the change is not blocked again. @default false
   */
  readonly changesWorkspace?: boolean;
}

/**
 * What the policy does with signals whose repeated calls keep getting new results:
 * `suppress` them (progress), escalate them at half speed (`slow`), or `ignore` results altogether.
 */
export type ProgressMode = 'suppress' | 'slow' | 'ignore';

/** How a verdict is chosen when several detectors fire: fuse them all, or take the first in order. */
export type FusionMode = 'fuse' | 'first';

/**
 * Which signal gives a fused verdict its kind: the most `specific` (exact repeat before cycle, ...,
 * semantic) or the most `confident` (corteX's "primary loop type").
 */
export type PrimaryMode = 'specific' | 'confident';

/**
 * How the recommended next step is chosen: `ladder` escalates when the action is ask or break;
 * `confidence` escalates above a confidence or repeat count (the multi-resolution rule).
 */
export type RecommendMode = 'ladder' | 'confidence';

/** Policy: how signals become a verdict and an action. */
export interface PolicyOptions {
  /** Actions for the 1st, 2nd, ... verdict of a session; the last one repeats. Not empty. @default ['warn', 'warn', 'break'] */
  readonly ladder: readonly LoopAction[];
  /** Fuse all signals, or take the first signal in detector order (composite detectors). @default 'fuse' */
  readonly fusion: FusionMode;
  /** Which signal gives a fused verdict its kind, pattern and unit. @default 'specific' */
  readonly primary: PrimaryMode;
  /** Confidence added per agreeing detector beyond the first, in [0, 1]. @default 0.1 */
  readonly agreementBonus: number;
  /** Verdicts below this fused confidence are dropped, in [0, 1]. @default 0.5 */
  readonly minConfidence: number;
  /** What to do when the repeated calls keep getting new results. @default 'suppress' */
  readonly progress: ProgressMode;
  /** Ladder steps taken by a verdict with no-progress evidence (same call, same result). Minimum 1. @default 2 */
  readonly noProgressStep: number;
  /**
   * Ladder steps taken by a verdict about a repetition interleaved with new work (a new call between each
   * repeat), about a call whose answer says the work is still under way (polling), or, with
   * `progress: 'slow'`, about calls whose results keep changing. More than 0, at most 100. @default 0.5
   */
  readonly interleavedStep: number;
  /**
   * Weight of each signal kind (`exact_repeat`, `frequency`, `cycle`, `semantic`, `similar_args`,
   * `result_repeat`, `dead_end`, `state_repeat`, `chanting`, `failing_again`, or a custom detector's kind): a signal's
   * confidence is multiplied by its kind's weight (capped at 1) before fusion; 0 sets the kind aside (its
   * signals are dropped, as if its detector had said nothing). A kind not named weighs 1. Each weight from
   * 0 to 10. `{}`: every kind 1 (the hand-tuned policy's). @default `cycle` 0.8, every other kind 1 (fitted)
   */
  readonly kindWeights: Readonly<Record<string, number>>;
  /** How the recommended next step is chosen. @default 'ladder' */
  readonly recommend: RecommendMode;
  /** With `recommend: 'confidence'`: escalate above this confidence, in [0, 1]. @default 0.85 */
  readonly escalateConfidence: number;
  /** With `recommend: 'confidence'`: escalate above this repeat count. Minimum 1. @default 5 */
  readonly escalateRepeats: number;
  /** Calls without a verdict after which the ladder starts again from its first step (the agent recovered); 0 never. @default 10 */
  readonly cooldown: number;
  /**
   * Two-phase checks (LoopDetector.propose): the proposal that would be blocked for the `stopAfter`-th time
   * stops the run instead (1: the first break stops it). Forgotten after `cooldown` quiet calls. 1 to 1000.
   * @default 2
   */
  readonly stopAfter: number;
  /**
   * Called with every verdict before it is returned: return an action to override the decision, `null` to
   * drop the verdict (it then neither counts nor escalates), or nothing to keep it.
   */
  readonly onDetect?: ((verdict: Verdict) => LoopAction | null | undefined | void) | undefined;
}

/** The built-in detectors' options: `false` turns one off, an object changes some of its options. */
export interface DetectorsOptions {
  readonly exactRepeat: ExactRepeatOptions | null;
  readonly frequency: FrequencyOptions | null;
  readonly cycle: CycleOptions | null;
  readonly semantic: SemanticOptions | null;
  readonly similarArgs: SimilarArgsOptions | null;
  readonly resultRepeat: ResultRepeatOptions | null;
  readonly deadEnd: DeadEndOptions | null;
  readonly stateRepeat: StateRepeatOptions | null;
  readonly chanting: ChantingOptions | null;
}

/** What callers pass for one detector: `false` (off), `true` (defaults) or some of its options. */
export type DetectorSetting<T> = boolean | Partial<T>;

/** Where the hot paths run: the WebAssembly module, or the plain-TypeScript reference (same verdicts). */
export type Engine = 'wasm' | 'reference';

/** Options of `new LoopDetector(options)`, all optional. */
export interface LoopDetectorOptions {
  /** Where the hot paths run; both give the same verdicts. @default 'wasm' */
  readonly engine?: Engine;
  /** A name for the session, used in stats. @default '' */
  readonly sessionId?: string;
  /** The built-in detectors; leave one out for its defaults, `false` to turn it off. */
  readonly detectors?: { readonly [K in keyof DetectorsOptions]?: DetectorSetting<NonNullable<DetectorsOptions[K]>> };
  /** Custom detectors, checked after the built-in ones. @default [] */
  readonly custom?: readonly Detector[];
  /** Per-tool normalisation, by tool name. @default {} */
  readonly tools?: Readonly<Record<string, ToolRule>>;
  /** Argument fields ignored for every tool, at every depth. @default [] */
  readonly ignoreFields?: readonly string[];
  /**
   * Calls meant to repeat (checks, polls): recorded like any call, never warned, asked about, denied or
   * stopped for repeating. Each rule names a `tool`, a `command` pattern (a regular expression searched in
   * the call's `command` argument, made safe: see allow-rules.ts), or both. At most 256 rules. @default []
   */
  readonly allow?: readonly AllowRule[];
  /** Mask volatile text (numbers, hex ids, quoted parts, paths) before the similarity detectors compare. @default false */
  readonly normalizeVolatile?: boolean;
  /** Containers nested deeper than this are hashed as one marker. 1 to 1024. @default 64 */
  readonly maxDepth?: number;
  /** Redact secret-shaped strings (API keys, bearer tokens, passwords) in patterns and messages. @default true */
  readonly redactSecrets?: boolean;
  /**
   * Refuse (InvalidEventError, nothing recorded) the args and results a LoopPool's workers could not
   * receive unchanged (functions, symbols, Proxies, class instances with toJSON, Buffers, Errors with own
   * fields, very deep values), with the pool's messages, so answers never depend on the runner (see
   * docs/library.md, "Values and runners"). A pool always refuses them. @default false
   */
  readonly strictValues?: boolean;
  /** The policy. */
  readonly policy?: Partial<PolicyOptions>;
  /** Called with every verdict after the policy (an event subscription is the other way). */
  readonly onDetection?: (verdict: Verdict) => void;
  /** A shared tally that adds this session's stats to a total over many sessions. */
  readonly stats?: StatsAggregate;
}

/** Options with every value present, as the detector uses them. */
export interface ResolvedOptions {
  readonly engine: Engine;
  readonly sessionId: string;
  readonly detectors: DetectorsOptions;
  readonly custom: readonly Detector[];
  readonly tools: ReadonlyMap<string, ToolRule>;
  readonly ignoreFields: readonly string[];
  readonly allow: readonly ResolvedAllowRule[];
  readonly normalizeVolatile: boolean;
  readonly maxDepth: number;
  readonly redactSecrets: boolean;
  readonly strictValues: boolean;
  readonly policy: PolicyOptions;
  readonly onDetection: ((verdict: Verdict) => void) | undefined;
  readonly stats: StatsAggregate | undefined;
}

/** No signal kind weighed (every kind 1): `kindWeights` as the hand-tuned policy has it, and as `{}` resolves. */
export const NO_KIND_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({});

/** The hand-tuned built-in policy (preset `hand-tuned`): what the fit starts from. */
export const HAND_TUNED_POLICY: PolicyOptions = Object.freeze({
  ladder: Object.freeze(['warn', 'warn', 'break'] as const),
  fusion: 'fuse',
  primary: 'specific',
  agreementBonus: 0.1,
  minConfidence: 0.5,
  progress: 'suppress',
  noProgressStep: 2,
  interleavedStep: 0.5,
  kindWeights: NO_KIND_WEIGHTS,
  recommend: 'ladder',
  escalateConfidence: 0.85,
  escalateRepeats: 5,
  cooldown: 10,
  stopAfter: 2,
  onDetect: undefined,
});

/** Default policy: the shipped default's (HAND_TUNED_POLICY with the fitted fields laid over, shipped-default.ts). */
export const POLICY_DEFAULTS: PolicyOptions = shippedValues(HAND_TUNED_POLICY, fittedPolicy());

/** The hand-tuned built-in options, every detector and policy field given: what preset `hand-tuned` builds on. */
export const HAND_TUNED_OPTIONS: LoopDetectorOptions = Object.freeze({ detectors: HAND_TUNED_DETECTORS, policy: HAND_TUNED_POLICY });
