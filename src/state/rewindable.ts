/**
 * One-level undo for session state, so a call can be checked before it runs (a proposal) without being
 * recorded: `mark()` remembers what the next record will overwrite, `rollback()` puts it back. Each part
 * keeps only what one record changes (a ring slot and a count), so a mark costs O(1), not a copy of the
 * session.
 *
 * ```
 *   mark()  ->  observe(proposed call)  ->  read signals, evidence  ->  rollback()
 *                      (writes slot n % capacity, n += 1)                (slot and n as before)
 * ```
 */

/** State that can undo the one record made after its last `mark()`. */
export interface Rewindable {
  /** Remembers the state the next record changes. */
  mark(): void;
  /** Puts back the state as it was at the last `mark()`; nothing when no mark is pending. */
  rollback(): void;
}
