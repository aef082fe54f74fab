/**
 * The contract every loop detector implements, built-in or custom: record a call, say whether the
 * session is looping now, forget everything.
 */
import type { LoopSignal, ToolEvent } from '../types.js';

/** A call as detectors see it, after normalisation. */
export interface ObservedCall {
  /** Position of the call in the session, from 0. */
  readonly index: number;
  /** The tool called. */
  readonly tool: string;
  /** The normalised args: JSON strings parsed, the tool's identity function applied. */
  readonly args: unknown;
  /** The call's canonical 64-bit signature, 16 hex digits. */
  readonly signature: string;
  /** The event as the caller passed it. */
  readonly event: ToolEvent;
  /** True when the call failed (an `error` was given). */
  readonly isError: boolean;
  /** True when the failure was infrastructure (rate limit, HTTP 429/5xx, timeout, connection reset). */
  readonly isInfraFailure: boolean;
  /** The error as text, when there is one. */
  readonly errorText: string | undefined;
}

/** A loop detector. `check()` is called right after each `record()`. */
export interface Detector {
  /** Unique name, reported in signals and stats. */
  readonly name: string;
  /** Records one call. */
  record(call: ObservedCall): void;
  /** A signal when the session is looping after the last recorded call, else null. */
  check(): LoopSignal | null;
  /** Forgets every recorded call. */
  reset(): void;
}
