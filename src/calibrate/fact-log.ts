/**
 * The evidence screen's view of a recorded run's calls (a {@link ScreenFacts}): the facts a session's
 * CallFacts noted of each call (its outcome's CallFact bits, its turn, what a change changed), kept as
 * CallFacts keeps them (the newest `capacity` calls of those noted so far). While a call is proposed, its
 * facts are those of a proposal (CallFact.PROPOSED alone, no target), as LoopDetector.propose() notes them.
 */
import { CallFact } from '../policy/call-facts.js';
import type { ScreenFacts } from '../policy/screen-facts.js';

/** A recorded run's facts, per recorded call. */
export interface RunFacts {
  /** CallFact bits of each call's outcome. */
  readonly bits: Uint16Array;
  /** Each call's turn (NaN: none known); null when no call had one. */
  readonly turns: Float64Array | null;
  /** What each change changed (0: none known); null when no call had a target. */
  readonly targets: Uint32Array | null;
}

/** The facts of one run's recorded calls, as a session's CallFacts holds them after `count` calls. */
export class FactLog implements ScreenFacts {
  /** Calls noted so far (a proposal counts its own call). */
  count = 0;
  /** Whether the newest call (`count - 1`) is being proposed: not yet run. */
  proposing = false;

  constructor(
    private readonly facts: RunFacts,
    private readonly capacity: number,
  ) {}

  get oldest(): number {
    return Math.max(0, this.count - this.capacity);
  }

  private kept(index: number): boolean {
    return index >= 0 && index < this.count && index >= this.count - this.capacity;
  }

  of(index: number): number {
    if (!this.kept(index)) return 0;
    return this.proposing && index === this.count - 1 ? CallFact.PROPOSED : (this.facts.bits[index] as number);
  }

  turnOf(index: number): number | undefined {
    const turns = this.facts.turns;
    if (turns === null || !this.kept(index)) return undefined;
    const t = turns[index] as number;
    return Number.isNaN(t) ? undefined : t;
  }

  targetOf(index: number): number {
    const targets = this.facts.targets;
    if (targets === null || !this.kept(index) || (this.proposing && index === this.count - 1)) return 0;
    return targets[index] as number;
  }
}
