/**
 * The messages between a LoopPool shard and its worker thread (pool-worker.ts): the tasks the shard sends
 * (start, run a packed batch) and what each answers. Two-phase decisions travel as codes (wire-decisions.ts),
 * errors as WireErrors (wire-errors.ts).
 */
import type { Verdict } from '../types.js';
import type { WireError } from './wire-errors.js';

/** Starts (or restarts) the shard: the engine's options and the sessions to restore. */
export interface StartTask {
  readonly kind: 'start';
  readonly epoch: number;
  readonly options: Readonly<Record<string, unknown>>;
  readonly snapshotEvery: number;
  readonly snapshots: readonly (readonly [string, Uint8Array])[];
  /** Tests only (Shard.hangForTesting): spin this long before starting. */
  readonly hangMs?: number;
}

/** Tests only (Shard.hangForTesting): hold the worker's thread this long, as a worker stuck in a loop would. */
export interface HangTask {
  readonly kind: 'hang';
  readonly ms: number;
}

/** A packed batch of operations. */
export interface RunTask {
  readonly kind: 'run';
  readonly epoch: number;
  readonly buffer: ArrayBuffer;
  readonly length: number;
}

/** What a start task answers: the sessions whose snapshot could not be restored, with why. */
export interface StartResult {
  readonly failed: readonly (readonly [string, string])[];
}

/** What a run task answers. */
export interface RunResult {
  /** The batch was for an older incarnation of the shard and was not applied. */
  readonly stale?: true;
  /** The batch's bytes, returned (transferred): a stale batch's to be sent again, another's to be written over. */
  readonly buffer?: ArrayBuffer;
  /** Op indices with a verdict, and the verdicts (a two-phase call's decision's verdict among them). */
  readonly verdictAt: number[];
  readonly verdicts: Verdict[];
  /** Op indices of two-phase calls whose decision is not a plain `allow`, and their codes (wire-decisions.ts). */
  readonly decisionAt: number[];
  readonly decisions: number[];
  /** Op indices whose operation failed, and the errors. */
  readonly errorAt: number[];
  readonly errors: WireError[];
  /** Op indices of SNAPSHOT and STATS operations, and what they returned. */
  readonly valueAt: number[];
  readonly values: unknown[];
  /** Snapshots taken after this batch: session, calls checked, bytes. */
  readonly snapshots: (readonly [string, number, Uint8Array])[];
  /** Sessions the engine evicted or expired while applying this batch. */
  readonly dropped: string[];
  /** Op indices of calls read from their lines, with each call's step (NaN: none) and fact flags (wire/routed-line.ts). */
  readonly factAt?: number[];
  readonly factStep?: number[];
  readonly factFlags?: number[];
}
