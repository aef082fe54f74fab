/**
 * The stops of sessions an engine dropped while they were stopped (evicted for room, or expired idle): the
 * one memory of a stop besides the live session's own (LoopDetector.stopped, kept in its snapshot). A stop
 * is in one place at a time: the session's while it is live, here once it is dropped, and back in the
 * session when its id starts again, so a host's stop condition sees it whatever the engine did meanwhile.
 *
 * ```
 *   live, stopped --evict/expire--> here --next call of the id--> live again, stopped
 *                                    |--restore(id) / end(id) / freshStart(id)--> forgotten
 * ```
 *
 * Bounded: MAX_STOPPED sessions, the one dropped longest ago forgotten first. A deleted key leaves its
 * entry in V8's Map until the table is rebuilt (src/formats/capped-map.ts): within this cap the oldest
 * key is still found in a few microseconds, and only when a stopped session is dropped.
 */
import type { LiveDecision } from '../live/live-call.js';

/** Sessions whose stop decision is remembered after they were dropped, at most (the oldest is forgotten first). */
export const MAX_STOPPED = 1024;

/** The stop decisions of dropped sessions, by session id, at most MAX_STOPPED. */
export class DroppedStops {
  private readonly stops = new Map<string, LiveDecision>();

  /** Sessions whose stop is remembered. */
  get size(): number {
    return this.stops.size;
  }

  /** Remembers the stop of session `id`, dropped now. */
  keep(id: string, decision: LiveDecision): void {
    this.stops.delete(id);
    this.stops.set(id, decision);
    if (this.stops.size > MAX_STOPPED) this.stops.delete(this.stops.keys().next().value as string);
  }

  /** The stop of session `id`, if remembered. */
  get(id: string): LiveDecision | undefined {
    return this.stops.get(id);
  }

  /** The stop of session `id`, if remembered, forgotten here (its session holds it again). */
  take(id: string): LiveDecision | undefined {
    const d = this.stops.get(id);
    if (d !== undefined) this.stops.delete(id);
    return d;
  }

  /** Forgets the stop of session `id` (ended, given a fresh start, or restored from a snapshot that says). */
  forget(id: string): void {
    this.stops.delete(id);
  }

  /** Forgets every stop. */
  clear(): void {
    this.stops.clear();
  }
}
