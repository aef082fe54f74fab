/**
 * What `loopwatch serve`'s hook routes last said to each session about a loop (src/hooks/said-once.ts: a
 * warning said once), the memory `loopwatch hook` keeps in a session's state file (session-meta.ts `said`).
 *
 * A note lives as long as its session: one entry a live session at most, dropped when the session ends,
 * is evicted or expires (the server's `onEvict`), is given a fresh start (a new prompt) or is restored from
 * a snapshot (the note then is the snapshot's file's, if any). It is kept in the session's state file across
 * a restart (state-files.ts), so a restarted server does not say again what it said before it stopped.
 *
 * ```
 *   hook route's verdict -> speak(decision, get(S)) -> set(S, spoken.said)
 *   S ended, evicted, expired, fresh start, restored -> forget(S)
 * ```
 */
import { type SaidNote, isSaidNote } from '../hooks/said-once.js';

/** The notes of what the hook routes last said, one a live session at most. */
export class SaidNotes {
  private readonly notes = new Map<string, SaidNote>();

  /** Sessions with a note. */
  get size(): number {
    return this.notes.size;
  }

  /** What was last said to engine session `session`, if anything. */
  get(session: string): SaidNote | undefined {
    return this.notes.get(session);
  }

  /**
   * Notes `note` as what was last said to `session` (undefined: nothing). A note that is not one said-once.ts
   * writes (a custom kind longer than it keeps) is not kept: the warning is then said again rather than held.
   */
  set(session: string, note: SaidNote | undefined): void {
    if (note === undefined || !isSaidNote(note)) this.notes.delete(session);
    else this.notes.set(session, note);
  }

  /** Forgets what was said to `session` (ended, evicted, expired, a fresh start, restored). */
  forget(session: string): void {
    this.notes.delete(session);
  }
}
