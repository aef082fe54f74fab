/**
 * How much of its calls' content each session of `loopwatch serve` may be holding, and the least recently
 * used sessions evicted when all of them together pass a budget: what bounds the server's memory whatever
 * its callers send (sessions are bounded in number by `--max-sessions`, and their calls in size by the
 * door, call-door.ts; this bounds their product).
 *
 * A session holds content of its last `calls` checked or recorded calls at most (the call log keeps the
 * args, previews and descriptions of its newest calls, within the detectors' history), and of its last
 * `proposals` proposals at most (those still waiting for their record, MAX_PENDING). So a session is
 * counted for the sizes the door gave those: an upper bound on what it holds (a proposal and its record
 * are both counted), in two rings made once one of its calls is large; a session whose calls were all
 * small is counted for their sum, at most SMALL_CALL x both windows, without rings.
 *
 * Every session is also counted for what it holds whatever its calls: `perSession` bytes (its slot and
 * rings in the WebAssembly memory, its objects in the engine, and its entries and id in this map and the
 * engine's table: session-cost.ts), so that a client opening sessions without end is evicted within the
 * budget too, not only by `--max-sessions`.
 *
 * ```
 *   first call of S -> total += perSession
 *   call of S admitted (bytes b) -> S's ring of its kind: [n % window] replaced by b; S moved to the newest end
 *   after each request: while total > budget, evict the least recently used session (engine.evict)
 *   S ended, evicted or expired by the engine -> forget(S)
 * ```
 */

/** A call counted in a session without rings at most for this many bytes (a larger one makes its rings). */
export const SMALL_CALL = 1024;

/** What a session's calls are counted in: those checked or recorded, and proposals. */
export type HeldKind = 'call' | 'proposal';

/** One kind of a session's calls: how many, and their last sizes. */
interface Ring {
  n: number;
  sizes: Float64Array;
}

interface Held {
  /** Bytes counted now. */
  sum: number;
  /** Calls counted while every one was small (no rings yet). */
  small: number;
  calls: Ring | null;
  proposals: Ring | null;
}

/** The memory a server's sessions may hold of their calls, and who goes when it is full. */
export class HeldMemory {
  private readonly sessions = new Map<string, Held>();
  private held = 0;

  /**
   * `budget`: bytes all sessions may hold together; `calls`, `proposals`: how many of each a session may
   * hold the content of; `evict`: drops a session from the engine (which then calls forget());
   * `perSession`: bytes every session is counted for beside its calls (its fixed cost).
   */
  constructor(
    readonly budget: number,
    readonly calls: number,
    readonly proposals: number,
    private readonly evict: (session: string) => void,
    readonly perSession = 0,
  ) {}

  /** Bytes counted for every session together. */
  get total(): number {
    return this.held;
  }

  /** Counts a call of `bytes` admitted for `session`, the session's newest use. */
  add(session: string, bytes: number, kind: HeldKind = 'call'): void {
    let h = this.sessions.get(session);
    if (h === undefined) {
      h = { sum: 0, small: 0, calls: null, proposals: null };
      this.held += this.perSession;
    } else this.sessions.delete(session); // moved to the newest end below
    this.sessions.set(session, h);
    const before = h.sum;
    if (h.calls === null && bytes <= SMALL_CALL) {
      h.small++;
      h.sum = Math.min(h.sum + bytes, (this.calls + this.proposals) * SMALL_CALL);
    } else {
      if (h.calls === null) {
        // from now on exactly: the small calls so far count SMALL_CALL each, as recent calls of both kinds
        h.calls = { n: 0, sizes: new Float64Array(this.calls) };
        h.proposals = { n: 0, sizes: new Float64Array(this.proposals) };
        h.sum = 0;
        for (const r of [h.calls, h.proposals]) {
          for (; r.n < Math.min(h.small, r.sizes.length); r.n++) r.sizes[r.n] = SMALL_CALL;
          h.sum += r.n * SMALL_CALL;
        }
      }
      const r = kind === 'call' ? h.calls : (h.proposals as Ring);
      const at = r.n % r.sizes.length;
      h.sum += bytes - (r.sizes[at] as number);
      r.sizes[at] = bytes;
      r.n++;
    }
    this.held += h.sum - before;
  }

  /** Counts a session restored from a snapshot (`bytes`: what its calls left in it), its newest use. */
  restored(session: string, bytes: number): void {
    this.forget(session);
    this.add(session, Math.max(bytes, SMALL_CALL + 1));
  }

  /** Stops counting a session (ended, evicted or expired). */
  forget(session: string): void {
    const h = this.sessions.get(session);
    if (h === undefined) return;
    this.sessions.delete(session);
    this.held -= h.sum + this.perSession;
  }

  /** Evicts the least recently used sessions while the total is over the budget; how many went. */
  enforce(): number {
    let n = 0;
    for (let oldest = this.sessions.keys().next(); this.held > this.budget && oldest.done !== true; oldest = this.sessions.keys().next()) {
      this.evict(oldest.value);
      this.forget(oldest.value); // in case the engine did not have it
      n++;
    }
    return n;
  }
}
