/**
 * The worst sessions of a scan, at most `size` of them, in bounded memory: an ended session is offered once
 * and kept only while it ranks among the worst. Worst first: most calls after the first break-level
 * verdict, then highest action, then most verdicts, then first seen (so the ranking is deterministic).
 * The summary's `--top` list and the HTML report's timelines both rank this way.
 */
import type { SessionReport } from './session-report.js';
import { ACTION_RANK } from './session-tally.js';

/** A session kept among the worst, with what its keeper attached to it. */
export interface RankedSession<T> {
  readonly r: SessionReport;
  /** Order of the session's first call in the scan. */
  readonly seq: number;
  readonly extra: T;
}

const rank = (r: SessionReport): number => (r.worstAction === null ? 0 : ACTION_RANK[r.worstAction]);

/** Negative when `a` is worse than `b`. */
export function worseFirst(a: { readonly r: SessionReport; readonly seq: number }, b: { readonly r: SessionReport; readonly seq: number }): number {
  return b.r.wastedCalls - a.r.wastedCalls || rank(b.r) - rank(a.r) || b.r.verdicts - a.r.verdicts || a.seq - b.seq;
}

/** The `size` worst sessions offered so far, worst first. */
export class WorstSessions<T = undefined> {
  private readonly kept: RankedSession<T>[] = [];

  constructor(private readonly size: number) {}

  /** Offers an ended session; returns whether it is kept (for now). */
  offer(e: RankedSession<T>): boolean {
    const w = this.kept;
    if (this.size <= 0 || (w.length >= this.size && worseFirst(e, w[w.length - 1] as RankedSession<T>) >= 0)) return false;
    let at = w.length;
    while (at > 0 && worseFirst(e, w[at - 1] as RankedSession<T>) < 0) at--;
    w.splice(at, 0, e);
    if (w.length > this.size) w.pop();
    return true;
  }

  /** The sessions kept, worst first. */
  list(): readonly RankedSession<T>[] {
    return this.kept;
  }
}
