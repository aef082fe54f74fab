/**
 * What one folder walk may hold: at most `cap` trace files and folders over all the folders it lists
 * (list-inputs.ts), so a tree of many folders, each within a per-folder cap, cannot hold the cap's worth per
 * level or per folder. The walk lists folders depth first, by name; each listing takes its entries from
 * what is left. The folder whose listing passes what is left keeps the first of its entries by name that fit
 * (folder-entries.ts), and no folder is listed after it: one issue names the walk's root, where it stopped,
 * and how to go on.
 *
 * ```
 *   root/ (2 entries)   left: cap-2
 *     a/  (k entries)   left: cap-2-k
 *     b/  (more than left) -> keeps `left` of them, spent: said once, of root
 *     c/                -> not listed
 * ```
 */
import { MAX_FOLDER_ENTRIES_ENV } from './folder-entries.js';

/** The entries left to one walk, and where it ran out. */
export class WalkBudget {
  /** Entries the walk may still list. */
  left: number;
  /** The folder whose listing passed the cap, once one has. */
  private stoppedAt: string | null = null;
  /** Entries that folder held, of which it kept `kept`. */
  private held = 0;
  private kept = 0;

  constructor(
    /** The path the walk began at (named by its one issue). */
    readonly root: string,
    /** Most entries the walk lists in all. */
    readonly cap: number,
  ) {
    this.left = cap;
  }

  /** Whether the walk has passed its cap (nothing more is listed). */
  get spent(): boolean {
    return this.stoppedAt !== null;
  }

  /**
   * Takes `kept` entries of the `seen` that `dir` held; true when this is the listing that passed the cap
   * (`seen > kept`): the walk is then spent, and its one issue is to be said.
   */
  take(dir: string, seen: number, kept: number): boolean {
    this.left -= kept;
    if (seen <= kept || this.stoppedAt !== null) return false;
    this.stoppedAt = dir;
    this.held = seen;
    this.kept = kept;
    return true;
  }

  /** The message once spent: the cap, the folder where it ran out, what was read, and how to go on. */
  overMessage(): string {
    return `the walk holds more than ${this.cap} trace files and folders, the most one walk reads (held in memory to be sorted): it stopped at ${this.stoppedAt ?? this.root}, which holds ${this.held} of them, of which the first ${this.kept} by name were read; the folders after it were not walked (depth first, by name); scan fewer folders at a time, or raise the cap with ${MAX_FOLDER_ENTRIES_ENV}=N`;
  }
}
