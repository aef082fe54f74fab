/**
 * A call given to a pool as its events-format record's bytes, already routed by its session (the scan's
 * reader found the session in the line's first bytes: src/formats/line-route.ts), and what a check of it
 * says back besides its verdict: the few facts about the call a caller that never read the record needs
 * (`loopwatch scan`'s tallies: its step, whether it failed, whether it had args).
 */
import type { ToolEvent } from '../types.js';

/** An events-format record's bytes and the session its first bytes name. */
export class RoutedLine {
  constructor(
    /** The session the line's first bytes name (the worker checks the line names it). */
    readonly session: string,
    /** The record's bytes (a view; read before the batch that holds it settles). */
    readonly bytes: Uint8Array,
  ) {}
}

/** Fact flag: the call failed (its record's `error` was not null, false or ""). */
export const FACT_FAILED = 1;
/** Fact flag: the call had no `args`. */
export const FACT_NO_ARGS = 2;

/** The fact flags of a call read from a line. */
export function factFlags(e: ToolEvent): number {
  return (e.error !== undefined ? FACT_FAILED : 0) | (e.args === undefined ? FACT_NO_ARGS : 0);
}

/** The step a call read from a line carries, NaN when none (as facts travel: numbers only). */
export function factStep(e: ToolEvent): number {
  return e.step ?? Number.NaN;
}
