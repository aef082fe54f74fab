/**
 * The engines of `loopwatch serve` when its config has a `families` section (`calibrate --per-family`,
 * config-families.ts): the pooled engine and one per family, each with its options (an engine's sessions
 * share one resolution of the options). A call names its agent (`agent` on a call, or the hook route's
 * agent); a session goes to its agent's family's engine when it starts (the pooled one for no agent, or an
 * agent of no family in the config) and stays there until it ends: a later call of a live session goes to
 * the engine holding it whatever agent it names. Which engine holds a session is asked of the engines
 * (`has`), so nothing here grows with the sessions.
 */
import { LoopEngine } from '../engine/loop-engine.js';
import type { LoopEngineOptions } from '../engine/engine-options.js';
import { familyOf } from '../presets/agent-families.js';
import type { LoopDetectorOptions } from '../options/options.js';

/** The pooled engine and each family's. */
export class FamilyEngines {
  /** The engine of sessions of no family in the config. */
  readonly pooled: LoopEngine;
  /** Every engine: the pooled one first, then the families' in the config's order. */
  readonly all: readonly LoopEngine[];
  private readonly byFamily: ReadonlyMap<string, LoopEngine>;

  /**
   * `engine`: the pooled engine's options; `families`: each family's detection options (laid over the
   * pooled ones already), given the same engine options (sessions, idle time, onEvict).
   */
  constructor(engine: LoopEngineOptions, families: ReadonlyMap<string, LoopDetectorOptions> = new Map()) {
    this.pooled = new LoopEngine(engine);
    const { maxSessions, idleTtlMs, onEvict, onEvictError, clock, meter } = engine;
    const shared = { maxSessions, idleTtlMs, onEvict, onEvictError, clock, meter };
    const byFamily = new Map<string, LoopEngine>();
    for (const [name, options] of families) byFamily.set(name, new LoopEngine({ ...options, ...definedOf(shared) }));
    this.byFamily = byFamily;
    this.all = [this.pooled, ...byFamily.values()];
  }

  /** The engine holding the live session `session`, or undefined. */
  holding(session: string): LoopEngine | undefined {
    if (this.all.length === 1) return this.pooled.has(session) ? this.pooled : undefined;
    return this.all.find((e) => e.has(session));
  }

  /** The engine of a call of `session` naming `agent`: the one holding the session, else the agent's family's, else the pooled one. */
  engineFor(session: string, agent: string | undefined): LoopEngine {
    if (this.all.length === 1) return this.pooled;
    const held = this.holding(session);
    if (held !== undefined) return held;
    return agent === undefined ? this.pooled : (this.byFamily.get(familyOf(agent)) ?? this.pooled);
  }

  /** The engine of `family` (a name of the config's `families`), or undefined. */
  family(family: string): LoopEngine | undefined {
    return this.byFamily.get(family);
  }

  /** The family names, in the config's order, each with its engine. */
  families(): IterableIterator<[string, LoopEngine]> {
    return this.byFamily.entries();
  }

  /** Live sessions in all engines. */
  get size(): number {
    let n = 0;
    for (const e of this.all) n += e.size;
    return n;
  }

  /** Closes every engine. */
  close(): void {
    for (const e of this.all) e.close();
  }
}

/** `o` without its undefined members (so they do not override a family's own). */
function definedOf<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
