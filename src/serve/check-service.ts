/**
 * What `loopwatch serve` does with a call once its request is read: the calls go to one LoopEngine in the
 * calling thread (on this 2-core machine the engine beats the pool; docs/service.md has the figures), and
 * come back as plain JSON-able results. The HTTP routes (the hook routes too) and the NATS workers are
 * codecs around this, and every call they hand to the engine goes through here, so every route counts
 * the same way: `counts` (for /healthz), `verdicts` and `decisions` (for /metrics). With a HeldMemory
 * (the HTTP server), every call also passes the door first (call-door.ts: capped, redacted, its size
 * counted), and after each request the least recently used sessions go while their calls' content
 * together is over its budget. A NATS worker's calls pass the same door as their message is read
 * (call-message.ts), so they reach this service already capped and redacted.
 */
import { isLoopwatchError } from '../errors.js';
import type { LoopEngine } from '../engine/loop-engine.js';
import { redactSecrets } from '../text/redact.js';
import type { Verdict } from '../types.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { BUILT_IN_KINDS } from '../metrics/engine-metrics.js';
import { countInto } from '../metrics/tally.js';
import { admitCall } from './call-door.js';
import type { PhasedCall, ServiceCall } from './call-schema.js';
import type { HeldKind, HeldMemory } from './held-memory.js';
import type { FamilyEngines } from './family-engines.js';
import { SaidNotes } from './said-notes.js';

/** One call's answer: its id (when the call had one) and verdict, or the error it met. */
export type CallResult =
  | { readonly id?: string; readonly verdict: Verdict | null }
  | { readonly id?: string; readonly error: { readonly code: string; readonly message: string; readonly field?: string } };

/** The answer of an error, as data (loopwatch errors keep their code and field; secrets in the message and field redacted). */
export function errorResult(id: string | undefined, e: unknown): CallResult {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = isLoopwatchError(err) ? err.code : 'ERR_LOOPWATCH_INTERNAL';
  const field = (err as { field?: unknown }).field;
  return { ...(id === undefined ? {} : { id }), error: { code, message: redactSecrets(err.message), ...(typeof field === 'string' ? { field: redactSecrets(field) } : {}) } };
}

/** Checks calls on one engine and answers as data, counting every call the same way whatever its route. */
export class CheckService {
  /** Calls handed to the engine (checks, proposals, records), verdicts given and calls the engine refused, since start. */
  readonly counts = { calls: 0, verdicts: 0, failed: 0 };
  /** Verdicts by `kind/action` (built-in kinds, else `custom`), for /metrics. */
  readonly verdicts = new Map<string, number>();
  /** Two-phase decisions by `phase/action`, for /metrics. */
  readonly decisions = new Map<string, number>();
  /**
   * What the hook routes last said to each session (said-notes.ts): forgotten here when a session ends, is given
   * a fresh start or is restored; the engine's `onEvict` must forget an evicted or expired one (the HTTP server's does).
   */
  readonly said = new SaidNotes();

  /**
   * `memory`: what the sessions may hold, each its fixed cost and its calls (the HTTP server gives one; its `evict` must end
   * in the engine's `onEvict` calling `memory.forget`). Without it, calls reach the engine as given.
   * `families`: the engines of a config's families (`engine` is then their pooled one): a call goes to
   * the engine its session and `agent` give (family-engines.ts).
   */
  constructor(
    readonly engine: LoopEngine,
    private readonly memory: HeldMemory | null = null,
    private readonly families: FamilyEngines | null = null,
  ) {}

  /** The engine of a call of `session` naming `agent`. */
  engineFor(session: string, agent?: string): LoopEngine {
    return this.families === null ? this.engine : this.families.engineFor(session, agent);
  }

  /** The engine holding the live session `session` (the pooled one when none does). */
  private holding(session: string): LoopEngine {
    return this.families?.holding(session) ?? this.engine;
  }

  /** One call: its verdict (null when the session is not looping). Throws for a call the engine refuses. */
  check(call: ServiceCall): CallResult {
    const engine = this.engineFor(call.session, call.agent);
    const c = this.admit(call);
    const verdict = this.settled(() => this.counted(() => engine.check(c.session, c)));
    if (verdict !== null) this.countVerdict(verdict);
    return call.id === undefined ? { verdict } : { id: call.id, verdict };
  }

  /**
   * Before a call runs: the session's LiveDecision for it (LoopEngine.propose; `everyOutcome` for a hook
   * route's call, whose agent records every call that ran). Throws for a call the engine refuses.
   */
  propose(call: ServiceCall, everyOutcome = false): LiveDecision {
    const engine = this.engineFor(call.session, call.agent);
    const c = this.admit(call, 'proposal');
    return this.decided(this.settled(() => this.counted(() => engine.propose(c.session, c, everyOutcome))));
  }

  /** After a call ran, with its outcome: the session's LiveDecision (LoopEngine.record). Throws for a call the engine refuses. */
  record(call: ServiceCall): LiveDecision {
    const engine = this.engineFor(call.session, call.agent);
    const c = this.admit(call);
    return this.decided(this.settled(() => this.counted(() => engine.record(c.session, c))));
  }

  /**
   * A proposed call that did not run, for a reason not the loop's (LoopEngine.didNotRun: never recorded as
   * run, no longer in flight). A session the engine does not hold has no call waiting: nothing is made for it
   * (a hook route's PostToolBatch names every call of a turn, and may come after the session ended). Whether
   * the call was still waiting, taken now as not run. Throws for a call the engine refuses.
   */
  didNotRun(call: ServiceCall): boolean {
    const engine = this.engineFor(call.session, call.agent);
    const c = call.agent === undefined ? call : withoutAgent(call);
    if (!engine.has(c.session)) return false;
    return this.settled(() => engine.didNotRun(c.session, c));
  }

  /** A live session's proposals with an id still waiting for their outcome (LoopEngine.waiting); none when it is not live. */
  waiting(session: string): readonly LiveCall[] {
    return this.holding(session).waiting(session);
  }

  /** Gives a session a fresh start (a new prompt: LoopEngine.freshStart; false when it was not live). What it holds of its calls is unchanged. */
  freshStart(session: string): boolean {
    this.said.forget(session); // a fresh start: what was said is forgotten
    return this.holding(session).freshStart(session);
  }

  /**
   * Ends a session's agent turn without a fresh start (a prompt that only answers the agent:
   * LoopEngine.endTurn); whether a proposal still waiting was taken as not run.
   */
  endTurn(session: string): boolean {
    return this.holding(session).endTurn(session);
  }

  /** Ends a session; false when it was not live. */
  end(session: string): boolean {
    this.memory?.forget(session);
    this.said.forget(session);
    return this.holding(session).end(session);
  }

  /** The snapshot of a live session (LoopEngine.snapshot), or null when it is not live. */
  snapshot(session: string): Uint8Array | null {
    return this.holding(session).snapshot(session);
  }

  /**
   * Restores (or starts) a session from snapshot bytes, into `engine` when given (a family's, from the state
   * directory), else the engine holding it, else the pooled one. Throws SnapshotError, changing nothing,
   * for bytes that are not a good snapshot.
   */
  restore(session: string, bytes: Uint8Array, engine: LoopEngine = this.holding(session)): void {
    engine.restore(session, bytes);
    this.said.forget(session); // the note, if any, is the snapshot's file's (serve-server.ts)
    // what the snapshot holds of its calls is in the bytes, in a smaller form than in memory
    this.memory?.restored(session, 2 * bytes.length);
    this.memory?.enforce();
  }

  /** Two-phase calls of many sessions, in order; a failed call's place holds its error. */
  decideBatch(calls: readonly PhasedCall[]): (LiveDecision | CallResult)[] {
    const admitted = this.memory === null ? calls : calls.map((c) => this.admit(c, c.phase === 'propose' ? 'proposal' : 'call'));
    const out = this.settled(() => this.perEngine(calls, admitted, (e, part) => e.decideBatch(part)));
    this.counts.calls += calls.length;
    return out.map((d, i) => {
      if (!(d instanceof Error)) return this.decided(d);
      this.counts.failed++;
      return errorResult((calls[i] as PhasedCall).id, d);
    });
  }

  /** Calls of many sessions, in order: each gets what check() one by one gives; a failed call's place holds its error. */
  checkBatch(calls: readonly ServiceCall[]): CallResult[] {
    const admitted = this.memory === null ? calls : calls.map((c) => this.admit(c));
    const out = this.settled(() => this.perEngine(calls, admitted, (e, part) => e.checkBatch(part)));
    this.counts.calls += calls.length;
    return out.map((v, i) => {
      const id = (calls[i] as ServiceCall).id;
      if (v instanceof Error) {
        this.counts.failed++;
        return errorResult(id, v);
      }
      if (v !== null) this.countVerdict(v);
      return id === undefined ? { verdict: v } : { id, verdict: v };
    });
  }

  /**
   * `run` on the batch `admitted` (`calls` as admitted): all of it on the pooled engine without families;
   * with them, each engine's part (its sessions' calls in order, a session's engine chosen at its first
   * call of the batch) and the answers put back in the batch's order.
   */
  private perEngine<T extends ServiceCall, R>(calls: readonly T[], admitted: readonly T[], run: (engine: LoopEngine, part: readonly T[]) => (R | Error)[]): (R | Error)[] {
    if (this.families === null) return run(this.engine, admitted);
    const chosen = new Map<string, LoopEngine>();
    const parts = new Map<LoopEngine, { calls: T[]; at: number[] }>();
    calls.forEach((c, i) => {
      let engine = chosen.get(c.session);
      if (engine === undefined) chosen.set(c.session, (engine = this.engineFor(c.session, c.agent)));
      let part = parts.get(engine);
      if (part === undefined) parts.set(engine, (part = { calls: [], at: [] }));
      part.calls.push(admitted[i] as T);
      part.at.push(i);
    });
    const out = new Array<R | Error>(calls.length);
    for (const [engine, part] of parts) {
      const got = run(engine, part.calls);
      part.at.forEach((i, k) => (out[i] = got[k] as R | Error));
    }
    return out;
  }

  /** The call as the door lets it in, counted for its session (as given without a memory), without its `agent`. */
  private admit<T extends ServiceCall>(call: T, kind: HeldKind = 'call'): T {
    const plain = call.agent === undefined ? call : withoutAgent(call);
    if (this.memory === null) return plain;
    const a = admitCall(plain);
    this.memory.add(call.session, a.bytes, kind);
    return a.call;
  }

  /** What `run` returns, the sessions over the memory's budget evicted after it (whether it threw or not). */
  private settled<T>(run: () => T): T {
    try {
      return run();
    } finally {
      this.memory?.enforce();
    }
  }

  /** One call handed to the engine: counted, and counted as failed when the engine refuses it (rethrown). */
  private counted<T>(run: () => T): T {
    this.counts.calls++;
    try {
      return run();
    } catch (e) {
      this.counts.failed++;
      throw e;
    }
  }

  private decided(d: LiveDecision): LiveDecision {
    countInto(this.decisions, `${d.phase}/${d.action}`);
    // a call's verdict counts once: when it is recorded, or when its proposal blocked it
    if (d.verdict !== null && (d.phase === 'record' || d.action === 'deny' || d.action === 'stop')) this.countVerdict(d.verdict);
    return d;
  }

  private countVerdict(v: Verdict): void {
    this.counts.verdicts++;
    countInto(this.verdicts, `${BUILT_IN_KINDS.has(v.kind) ? v.kind : 'custom'}/${v.action}`);
  }
}

/** `call` without its `agent` (the engine is not given it). */
function withoutAgent<T extends ServiceCall>(call: T): T {
  const { agent: _agent, ...rest } = call;
  return rest as T;
}
