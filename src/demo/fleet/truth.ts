/**
 * What the synthetic fleet is made of: sessions of two agent styles, each carrying the truth about it
 * (the loop injected into it and where it starts, or the legitimate repetition it is full of).
 */
import type { BuiltInLoopKind, ToolEvent } from '../../types.js';

/** The two kinds of agent the fleet simulates. */
export type AgentStyle = 'coding' | 'support';

/**
 * A loop kind the fleet injects: each kind the built-in detectors report. `failing_again` is not one: it
 * is the policy's own warning-only signal (seven failures of one call with new errors), read from the
 * same calls a dead end or a state repeat is made of.
 */
export type InjectedKind = Exclude<BuiltInLoopKind, 'failing_again'>;

/** Every loop kind the fleet injects, in the order the fleet injects and reports them. */
export const INJECTED_KINDS: readonly InjectedKind[] = Object.freeze([
  'exact_repeat',
  'cycle',
  'frequency',
  'state_repeat',
  'dead_end',
  'similar_args',
  'semantic',
  'result_repeat',
  'chanting',
] as const);

/**
 * Legitimate repetition a clean session is built around:
 * `job_polling`: the same status call until the job is done (results changing, or not, between polls);
 * `pagination`: one tool over page 1, 2, 3...; `batch_edit`: one edit over many files;
 * `test_reruns`: the same test command after each edit; `range_reads`: one file read range by range;
 * `several_orders`: a support agent looking up each of a customer's orders;
 * `rate_limit_retry`: the same call retried after rate-limit errors until it goes through.
 */
export type LegitPattern = 'job_polling' | 'pagination' | 'batch_edit' | 'test_reruns' | 'range_reads' | 'several_orders' | 'rate_limit_retry';

/** Every legitimate pattern, in report order. */
export const LEGIT_PATTERNS: readonly LegitPattern[] = Object.freeze([
  'job_polling',
  'pagination',
  'batch_edit',
  'test_reruns',
  'range_reads',
  'several_orders',
  'rate_limit_retry',
] as const);

/** A run of calls showing one scenario, named by `variant` (`gh-run-view-same-answer`, `rerun-failing-tests`). */
export interface Block {
  readonly variant: string;
  readonly events: readonly ToolEvent[];
}

/** The loop injected into a session: its kind and the index of its first call. */
export interface InjectedLoop {
  readonly kind: InjectedKind;
  /** Index (from 0) of the loop's first call: the first occurrence of what then repeats. */
  readonly startIndex: number;
}

/** One generated session and the truth about it. */
export interface FleetSession {
  /** Session id, unique in the fleet. */
  readonly session: string;
  readonly style: AgentStyle;
  /** The injected loop (the session loops from its start to its last call), or null for a clean session. */
  readonly injected: InjectedLoop | null;
  /** The legitimate pattern a clean session is built around, or null (plain work, or a looping session). */
  readonly legit: LegitPattern | null;
  /** Which scenario of the loop or legitimate pattern the session shows (`plain` for plain work). */
  readonly variant: string;
  /** The calls, in order. */
  readonly events: readonly ToolEvent[];
}

/** The truth of a session without its calls: what scoring needs. */
export type SessionTruth = Pick<FleetSession, 'session' | 'style' | 'injected' | 'legit' | 'variant'>;

/** Options of {@link generateFleet}. */
export interface FleetOptions {
  /** Seed of the whole fleet: a safe integer. @default 42 */
  readonly seed?: number;
  /** Number of sessions, 0 to 1,000,000. @default 2000 */
  readonly sessions?: number;
}

/** Default fleet seed. */
export const DEFAULT_SEED = 42;
/** Default number of sessions. */
export const DEFAULT_SESSIONS = 2000;
/** Shortest and longest session, in calls. */
export const SESSION_CALLS = Object.freeze({ min: 15, max: 80 });
/**
 * Sessions are planned in blocks of `size`: `injected` of them get a loop (every kind once, the rest
 * spread at random), `plain` are plain work, and the others are built around a legitimate pattern.
 */
export const PLAN_BLOCK = Object.freeze({ size: 40, injected: 14, plain: 4 });
