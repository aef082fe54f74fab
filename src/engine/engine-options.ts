/**
 * Options of a {@link LoopEngine}: the detection options every session shares (those of a LoopDetector),
 * plus how many sessions may live at once and how long an idle one is kept.
 */
import { OptionTypeError } from '../errors.js';
import type { MeterLike } from '../metrics/engine-metrics.js';
import { bool, describe, func, integer, knownKeys, record } from '../options/checks.js';
import type { LoopDetectorOptions, ResolvedOptions } from '../options/options.js';
import { TOP_KEYS, resolveOptions } from '../options/resolve-options.js';
import { StatsAggregate } from '../session/stats.js';
import { fitSessions } from '../wasm/session-capacity.js';

/** A session an engine dropped: which, why, and how many calls it had checked. */
export interface EvictedSessionInfo {
  /** The session. */
  readonly sessionId: string;
  /** `evicted`: the live-session cap needed room and it was the least recently used; `expired`: idle too long. */
  readonly reason: 'evicted' | 'expired';
  /** Calls the session had checked. */
  readonly checks: number;
}

/** What an engine tells `onEvict` about a session it is about to drop. */
export interface EvictedSession extends EvictedSessionInfo {
  /** The session's snapshot, for persisting it (valid only during the callback; throws as LoopDetector.snapshot() does). */
  snapshot(): Uint8Array;
}

/** Options of a LoopEngine. */
export interface LoopEngineOptions extends Omit<LoopDetectorOptions, 'sessionId' | 'custom'> {
  /**
   * Most sessions live at once; making one more evicts the least recently used. With the WebAssembly
   * engine, at most what one thread's 4 GiB of WebAssembly memory holds under the options (long windows
   * make sessions large): a larger value is refused, naming the window. @default 100000, or that capacity when smaller
   */
  readonly maxSessions?: number;
  /** A session unused this long (ms) expires; 0 keeps idle sessions until evicted or ended. @default 3600000 */
  readonly idleTtlMs?: number;
  /** Called before a session is evicted or expires (for example to persist its snapshot). */
  readonly onEvict?: (session: EvictedSession) => void;
  /**
   * Called when a session was dropped without being persisted: `onEvict` threw, or the snapshot it asked
   * for could not be taken (a SnapshotError, e.g. a session quarantined after a trap), even if `onEvict`
   * caught it. @default a process warning of type `LoopwatchEvictWarning` naming the session and the error
   */
  readonly onEvictError?: (error: Error, session: EvictedSessionInfo) => void;
  /** The clock for idle times, in ms (tests pass their own). @default performance.now */
  readonly clock?: () => number;
  /**
   * Where the engine's OpenTelemetry metrics go (docs/metrics.md): a Meter (`@opentelemetry/api`'s), `false` for none, or (by
   * default) the meter of the MeterProvider registered globally when the engine is made; with no provider
   * registered, nothing is measured.
   */
  readonly meter?: MeterLike | false;
  /**
   * Every session only checks calls after the fact (LoopDetector's SessionMode.checksOnly): the very same
   * verdicts, a check that passed read only of the call being checked (~1 us a call less with the detectors
   * whose repetitions are spaced); propose, record, decline, snapshot and restore are refused (and an `onEvict`
   * that takes a snapshot gets a SnapshotError). For hosts that replay recorded runs (`loopwatch scan`). @default false
   */
  readonly checksOnly?: boolean;
}

/** Engine options with defaults filled in and the detection options resolved once for every session. */
export interface ResolvedEngineOptions {
  readonly detection: ResolvedOptions;
  readonly maxSessions: number;
  readonly idleTtlMs: number;
  readonly onEvict: ((session: EvictedSession) => void) | undefined;
  readonly onEvictError: ((error: Error, session: EvictedSessionInfo) => void) | undefined;
  readonly clock: () => number;
  readonly meter: MeterLike | false | undefined;
  readonly checksOnly: boolean;
}

/** Engine option names beside the detection options. */
export const ENGINE_KEYS = ['maxSessions', 'idleTtlMs', 'onEvict', 'onEvictError', 'clock', 'meter', 'checksOnly'] as const;

/** Most sessions an engine may be asked to hold. */
export const MAX_SESSIONS_LIMIT = 10_000_000;

function resolveMeter(value: unknown): MeterLike | false | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null || typeof (value as { createCounter?: unknown }).createCounter !== 'function') {
    throw new OptionTypeError('options.meter', `options.meter must be an OpenTelemetry Meter or false, received ${describe(value)}`);
  }
  return value as MeterLike;
}

/** Validates engine options (errors name the option, the rule and the value). */
export function resolveEngineOptions(input: unknown = {}): ResolvedEngineOptions {
  const o = record('options', input);
  knownKeys('options', o, [...TOP_KEYS, ...ENGINE_KEYS]);
  for (const k of ['sessionId', 'custom'] as const) {
    if (o[k] !== undefined) {
      throw new OptionTypeError(`options.${k}`, `options.${k} is per session and cannot be given to an engine (received ${describe(o[k])}); ${k === 'custom' ? 'custom detectors keep state of their own: use one LoopDetector per session for them' : 'each call names its session'}`);
    }
  }
  const detection: Record<string, unknown> = {};
  for (const k of TOP_KEYS) if (o[k] !== undefined) detection[k] = o[k];
  // The engine's totals: the caller's aggregate, or one of its own.
  detection.stats ??= new StatsAggregate();
  const now = (): number => performance.now();
  const resolved = resolveOptions(detection as LoopDetectorOptions);
  const maxSessions = o.maxSessions === undefined ? 100_000 : integer('options.maxSessions', o.maxSessions, 1, MAX_SESSIONS_LIMIT);
  return Object.freeze({
    detection: resolved,
    maxSessions: fitSessions(resolved, maxSessions, o.maxSessions === undefined, 'options.maxSessions'),
    idleTtlMs: o.idleTtlMs === undefined ? 3_600_000 : integer('options.idleTtlMs', o.idleTtlMs, 0),
    onEvict: o.onEvict === undefined ? undefined : func<(session: EvictedSession) => void>('options.onEvict', o.onEvict),
    onEvictError: o.onEvictError === undefined ? undefined : func<(error: Error, session: EvictedSessionInfo) => void>('options.onEvictError', o.onEvictError),
    clock: o.clock === undefined ? now : func<() => number>('options.clock', o.clock),
    meter: resolveMeter(o.meter),
    checksOnly: o.checksOnly === undefined ? false : bool('options.checksOnly', o.checksOnly),
  });
}
