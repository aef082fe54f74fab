/**
 * Options of the built-in detectors, each documented where it is declared, with its default.
 * The README's options table follows this order. Windows count calls unless said otherwise;
 * every window and count is at most 10,000, which bounds a session's memory. A `@default` is the shipped
 * default's value (the fitted default preset: shipped-default.ts); HAND_TUNED_DETECTORS holds the built-in ones.
 */
import { fittedDetector, shippedValues } from './shipped-default.js';

/** Exact repeat: the same call several times in a row. */
export interface ExactRepeatOptions {
  /** Consecutive identical calls that make a loop. Minimum 2. @default 3 */
  readonly threshold: number;
  /** Most recent calls kept; a run longer than this is reported as this long. Minimum `threshold`. @default 10 */
  readonly window: number;
}

/** Frequency: the same call several times anywhere in a window, consecutive or not. */
export interface FrequencyOptions {
  /** Occurrences of the current call in the window that make a loop. Minimum 2. @default 3 */
  readonly threshold: number;
  /** Calls looked at, the current one included. Minimum `threshold`. @default 20 */
  readonly window: number;
}

/** Cycle: a unit of several calls repeated back to back at the tail (A-B-A-B, A-B-C-A-B-C). */
export interface CycleOptions {
  /** Shortest unit, in calls. Minimum 2. @default 2 */
  readonly minPeriod: number;
  /** Longest unit, in calls. Minimum `minPeriod`. @default 5 */
  readonly maxPeriod: number;
  /** Back-to-back repetitions of the unit that make a loop. Minimum 2. @default 2 */
  readonly repetitions: number;
  /** Most recent calls kept. Minimum `maxPeriod * repetitions`. @default 20 */
  readonly window: number;
  /** Compare whole calls (`call`) or only tool names (`tool`, as oscillation detectors over action types do). @default 'call' */
  readonly key: 'call' | 'tool';
}

/** Semantic repeat: token-set Jaccard similarity of what the calls say. */
export interface SemanticOptions {
  /** Jaccard similarity from which two actions count as the same idea, in (0, 1]. @default 0.65 */
  readonly threshold: number;
  /** Earlier actions compared against. Minimum 1. @default 30 */
  readonly window: number;
  /** Similar earlier actions that make a loop. Minimum 1. @default 2 */
  readonly minSimilar: number;
  /** Distinct tokens kept per action (the first ones seen). Minimum 1. @default 256 */
  readonly maxTokens: number;
  /** Bytes of action text (UTF-8) tokenised; the rest is ignored. Minimum 16. @default 4096 */
  readonly maxTextLength: number;
  /** Actions with fewer tokens than this are too short to call paraphrases and are not compared. Minimum 1. @default 3 */
  readonly minTokens: number;
  /** Compare only actions of the same tool (paraphrased retries of one idea use one tool). @default true */
  readonly sameTool: boolean;
  /** Fire on identical actions too (by default they are left to the exact-repeat and frequency detectors). @default false */
  readonly countIdentical: boolean;
  /**
   * Put the tool name in the action text. Off, only the description (or the args' string values) is
   * compared, as corteX compares descriptions: paraphrases made through differently named tools still
   * match. @default true
   */
  readonly includeTool: boolean;
  /**
   * How Jaccard similarity is computed: `sketch` keeps the `sketchSize` smallest token hashes of each action
   * (bottom-k), exact whenever both actions have at most `sketchSize` distinct tokens and otherwise the
   * bottom-k estimate; `exact` keeps whole token sets (TypeScript only). @default 'sketch'
   */
  readonly method: 'sketch' | 'exact';
  /** Token hashes kept per action by the sketch. 4 to 64. @default 24 */
  readonly sketchSize: number;
}

/** Similar arguments: the same tool with arguments that are nearly the same (`foo`, `fo0`, `f00`). */
export interface SimilarArgsOptions {
  /** Similarity (normalised edit distance per field, and structure) from which args count as similar, in (0, 1]. @default 0.8 */
  readonly similarity: number;
  /** Similar calls, the current one included, that make a loop. Minimum 2. @default 4 (hand-tuned: 3) */
  readonly threshold: number;
  /** Earlier calls looked at. Minimum 1. @default 10 */
  readonly window: number;
}

/** Result repeat: calls that keep producing the same or a near-identical result. */
export interface ResultRepeatOptions {
  /** Same results, the current one included, that make a loop. Minimum 2. @default 3 */
  readonly threshold: number;
  /** Calls looked at, the current one included. Minimum `threshold`. @default 10 */
  readonly window: number;
  /**
   * Also count near-identical results: equal once their volatile parts (numbers, ids, quoted parts, paths)
   * are masked ("0 results at 10:01:22" and "0 results at 10:01:29"). @default true
   */
  readonly masked: boolean;
}

/** Dead end: the same error again and again, also with varying arguments. */
export interface DeadEndOptions {
  /** Same errors that make a loop. Minimum 2. @default 3 */
  readonly threshold: number;
  /** Calls looked at, the current one included. Minimum `threshold`. @default 15 */
  readonly window: number;
  /** Also match errors of the same class: text with numbers, paths, ids and quoted parts masked. @default true */
  readonly matchClass: boolean;
}

/** State repeat: the same (action, outcome) state seen again. */
export interface StateRepeatOptions {
  /** Sightings of the same state that make a loop. Minimum 2. @default 3 */
  readonly threshold: number;
  /** States kept, the current one included. Minimum `threshold`. @default 500 */
  readonly window: number;
}

/**
 * Chanting: the agent's text repeating the same chunk back to back, or the same long sentence again and
 * again. Text is compared char by char against itself shifted by every period up to `maxPeriod` (sliding
 * chunks), and its sentences against the last 16; code fences, tables, list items, headings, quotes,
 * dividers and log lines are left out of the comparison.
 */
export interface ChantingOptions {
  /** Longest repeated chunk looked for, in characters. 1 to 4096. @default 200 */
  readonly maxPeriod: number;
  /** Back-to-back repetitions of one chunk that make chanting. Minimum 2. @default 10 */
  readonly threshold: number;
  /** Shortest repeated span that counts, in characters (keeps "hahaha" and "....." quiet). Minimum 2. @default 100 */
  readonly minLength: number;
  /**
   * Chunks and sentences at least this many characters long are chanting at `longRepetitions`: a long
   * chunk repeated back to back, or a long sentence said again among the last 16 sentences, other text
   * between (one repetition more when they come from different pieces of text). 1 to 4096. @default 60
   */
  readonly longChunk: number;
  /** Repetitions of a chunk or sentence of `longChunk` characters or more that make chanting. Minimum 2. @default 3 */
  readonly longRepetitions: number;
}

/** Every built-in detector's options, as the options name them. */
export interface BuiltInDetectorOptions {
  readonly exactRepeat: ExactRepeatOptions;
  readonly frequency: FrequencyOptions;
  readonly cycle: CycleOptions;
  readonly semantic: SemanticOptions;
  readonly similarArgs: SimilarArgsOptions;
  readonly resultRepeat: ResultRepeatOptions;
  readonly deadEnd: DeadEndOptions;
  readonly stateRepeat: StateRepeatOptions;
  readonly chanting: ChantingOptions;
}

/**
 * The hand-tuned built-in values of every detector (preset `hand-tuned`): what the fit starts from. The
 * defaults below are these with the fitted values laid over (shipped-default.ts).
 */
export const HAND_TUNED_DETECTORS: BuiltInDetectorOptions = Object.freeze({
  // chimera's ExactRepeatDetector
  exactRepeat: Object.freeze({ threshold: 3, window: 10 }),
  // ToolLoopDetector's 3 in 20
  frequency: Object.freeze({ threshold: 3, window: 20 }),
  cycle: Object.freeze({ minPeriod: 2, maxPeriod: 5, repetitions: 2, window: 20, key: 'call' as const }),
  // corteX's SemanticJaccardDetector
  semantic: Object.freeze({ threshold: 0.65, window: 30, minSimilar: 2, maxTokens: 256, maxTextLength: 4096, minTokens: 3, sameTool: true, countIdentical: false, includeTool: true, method: 'sketch' as const, sketchSize: 24 }),
  similarArgs: Object.freeze({ similarity: 0.8, threshold: 3, window: 10 }),
  resultRepeat: Object.freeze({ threshold: 3, window: 10, masked: true }),
  // corteX's DeadEndDetector
  deadEnd: Object.freeze({ threshold: 3, window: 15, matchClass: true }),
  // corteX's ExactHashDetector
  stateRepeat: Object.freeze({ threshold: 3, window: 500 }),
  chanting: Object.freeze({ maxPeriod: 200, threshold: 10, minLength: 100, longChunk: 60, longRepetitions: 3 }),
});

const shipped = <K extends keyof BuiltInDetectorOptions>(name: K): BuiltInDetectorOptions[K] => shippedValues(HAND_TUNED_DETECTORS[name], fittedDetector(name));

/** Default exact repeat options (the shipped default: hand-tuned, fitted values laid over). */
export const EXACT_REPEAT_DEFAULTS: ExactRepeatOptions = shipped('exactRepeat');
/** Default frequency options (the shipped default). */
export const FREQUENCY_DEFAULTS: FrequencyOptions = shipped('frequency');
/** Default cycle options (the shipped default). */
export const CYCLE_DEFAULTS: CycleOptions = shipped('cycle');
/** Default semantic options (the shipped default). */
export const SEMANTIC_DEFAULTS: SemanticOptions = shipped('semantic');
/** Default similar-arguments options (the shipped default). */
export const SIMILAR_ARGS_DEFAULTS: SimilarArgsOptions = shipped('similarArgs');
/** Default result repeat options (the shipped default). */
export const RESULT_REPEAT_DEFAULTS: ResultRepeatOptions = shipped('resultRepeat');
/** Default dead end options (the shipped default). */
export const DEAD_END_DEFAULTS: DeadEndOptions = shipped('deadEnd');
/** Default state repeat options (the shipped default). */
export const STATE_REPEAT_DEFAULTS: StateRepeatOptions = shipped('stateRepeat');
/** Default chanting options (the shipped default). */
export const CHANTING_DEFAULTS: ChantingOptions = shipped('chanting');

/** Every detector's default options by name (the shipped default), beside HAND_TUNED_DETECTORS. */
export const DETECTOR_DEFAULTS: BuiltInDetectorOptions = Object.freeze({
  exactRepeat: EXACT_REPEAT_DEFAULTS,
  frequency: FREQUENCY_DEFAULTS,
  cycle: CYCLE_DEFAULTS,
  semantic: SEMANTIC_DEFAULTS,
  similarArgs: SIMILAR_ARGS_DEFAULTS,
  resultRepeat: RESULT_REPEAT_DEFAULTS,
  deadEnd: DEAD_END_DEFAULTS,
  stateRepeat: STATE_REPEAT_DEFAULTS,
  chanting: CHANTING_DEFAULTS,
});
