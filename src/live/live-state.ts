/**
 * What a session remembers between the two moments of its calls: proposals still waiting for their
 * outcome, calls that were blocked, and how often the session was blocked (strikes). Bounded in every
 * part, and written into the session's snapshot.
 *
 * ```
 *  propose(A) ──allow/warn/ask──> pending A ──record(A)──> recorded with its outcome
 *      │                              └── no outcome by the next proposal (no id), or after
 *      │                                  PENDING_PROPOSALS later proposals (with an id): recorded without one
 *      │                                  (a host that records every run, expectEveryOutcome(): not run, and
 *      │                                  an `ask` not answered counts as blocked)
 *      └──deny/stop──> blocked[sig(A)] += 1, strikes += 1 (never recorded as run)
 *  record(A) with a verdict ──> the kind of the latest verdict, for dead-end-wall.ts
 *  `cooldown` quiet records in a row: strikes, blocked calls and the latest verdict are forgotten (the agent recovered)
 *  a fresh start (fresh-start.ts): strikes and blocked calls forgotten, the call count it came at kept
 *  propose(A) ──stop──> the stop decision kept (LoopDetector.stopped) until a fresh start asked for or a reset
 * ```
 */
import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { readValue, writeValue } from '../snapshot/value-codec.js';
import { deepFreeze } from '../wire/deep-freeze.js';
import type { LiveDecision, LoopAction, ToolEvent } from '../types.js';
import { EncodedArgs } from '../wasm/encoded-args.js';
import type { Shown } from './live-call.js';

/** Proposals waiting for their record at most; beyond it the oldest is recorded without outcome. */
export const MAX_PENDING = 32;
/** Later proposals a proposal with an id waits for its record before it is recorded without outcome. */
export const PENDING_PROPOSALS = 8;
/** Blocked calls remembered at most (the oldest is forgotten first). */
export const MAX_BLOCKED = 64;
/** Ids of calls recorded without outcome remembered, so a late record of one is ignored, not counted twice. */
export const LATE_IDS = 32;
/**
 * Calls one turn of calls in flight together holds at most; the next one starts another turn (a caller
 * that proposes calls with ids and never records them is not taken for one endless turn).
 */
export const MAX_TURN_CALLS = 16;
/** The first snapshot format version that keeps the stop decision (LiveState.stopDecision). */
export const STOP_DECISION_SINCE = 14;

/** A proposal waiting for its outcome. */
export interface PendingCall {
  readonly id: string | undefined;
  readonly event: ToolEvent;
  /** What its proposal showed the model. */
  readonly shown: Shown | null;
  /** The call's signature (16 hex digits), as blocks are remembered by. */
  readonly sig: string;
  /** Later proposals seen since. */
  age: number;
  /** The turn of calls in flight together it belongs to (a negative number), when others were proposed beside it. */
  turn: number | undefined;
}

/**
 * The key under which a snapshot holds the kind of the latest recorded verdict, among the blocked calls (as
 * a call blocked 0 times of that kind). No call's signature (16 hex digits) is this, and older readers take
 * it for a call that broke and never comes again, so the snapshot format is unchanged.
 */
const LATEST_VERDICT_KEY = 'latest verdict';

/** A blocked call: how often (0: not blocked, it broke when it last ran: broken-call.ts), and the kind of loop that blocked it. */
export interface Blocked {
  readonly times: number;
  readonly kind: string;
}

const ACTIONS: readonly LoopAction[] = ['warn', 'ask', 'break'];

/** One session's two-phase state. */
export class LiveState {
  private pending: PendingCall[] = [];
  private readonly blocked = new Map<string, Blocked>();
  private late: string[] = [];
  /** Proposals blocked since the session last recovered. */
  strikes = 0;
  private quiet = 0;
  /** Turns of calls in flight together given so far, and the calls of the latest one. */
  private turns = 0;
  private turnCalls = 0;
  /** The count of calls recorded when the session last had a fresh start (0: never). */
  freshAt = 0;
  /** The kind of the latest verdict a recorded call got, until `cooldown` quiet records or a fresh start (null: none). */
  latestVerdictKind: string | null = null;
  /**
   * The decision that stopped the session's run (null: none), kept in the snapshot (format 14) so a host's
   * stop condition still sees it after a restart. Only a fresh start asked for (LoopDetector.freshStart) or
   * a reset forgets it, not one taken by itself, as LiveGuard's own memory of stops.
   */
  stopDecision: LiveDecision | null = null;

  /**
   * Takes out the proposals whose outcome is not coming, before a new proposal (with `id`): those without
   * an id, an earlier proposal with the same id, those that waited PENDING_PROPOSALS proposals, and the
   * oldest beyond MAX_PENDING - 1. The caller records them without outcome, in the order returned; or,
   * with `late` false, takes them for calls that did not run: their ids are not remembered as late, so a
   * record that still comes for one is taken as a call of its own (with its outcome).
   */
  overdue(id: string | undefined, late = true): PendingCall[] {
    const out: PendingCall[] = [];
    const keep: PendingCall[] = [];
    for (const p of this.pending) {
      p.age++;
      if (p.id === undefined || p.id === id || p.age > PENDING_PROPOSALS) out.push(p);
      else keep.push(p);
    }
    while (keep.length >= MAX_PENDING) out.push(keep.shift() as PendingCall);
    this.pending = keep;
    if (late) for (const p of out) if (p.id !== undefined) this.rememberLate(p.id);
    return out;
  }

  /**
   * Takes out the waiting proposals of the call with signature `sig` (for a host that records every run: the
   * same call proposed again means these did not run). Their ids are not remembered as late.
   */
  takeSameCall(sig: string): PendingCall[] {
    if (!this.pending.some((p) => p.sig === sig)) return [];
    const out = this.pending.filter((p) => p.sig === sig);
    this.pending = this.pending.filter((p) => p.sig !== sig);
    return out;
  }

  /** The waiting proposals that have an id, oldest first (left waiting). */
  waitingWithIds(): readonly PendingCall[] {
    return this.pending.filter((p) => p.id !== undefined);
  }

  /** Every waiting proposal, taken out (to record them without outcome, e.g. when the session ends). */
  drain(): PendingCall[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  private rememberLate(id: string): void {
    this.late.push(id);
    if (this.late.length > LATE_IDS) this.late.shift();
  }

  /** Adds an allowed proposal that waits for its outcome (of the turn `turn`, see inFlightTurn). */
  add(id: string | undefined, event: ToolEvent, shown: Shown | null, sig: string, turn?: number): void {
    this.pending.push({ id, event, shown, sig, age: 0, turn });
  }

  /**
   * The turn of a call (with an id, and no round from the caller) proposed now: calls proposed while others
   * with ids still wait for their outcome run beside them, as the calls a model makes in one answer do, so
   * they share a turn (a negative number, apart from callers' rounds); the calls in flight that had none
   * join it. Undefined when nothing is in flight (one call at a time: each its own turn). A turn holds at
   * most MAX_TURN_CALLS calls. Call it after overdue().
   */
  inFlightTurn(): number | undefined {
    let latest: PendingCall | undefined;
    for (const p of this.pending) if (p.id !== undefined) latest = p;
    if (latest === undefined) return undefined;
    if (latest.turn !== undefined && latest.turn === -this.turns && this.turnCalls < MAX_TURN_CALLS) {
      this.turnCalls++;
      return latest.turn;
    }
    const turn = -++this.turns;
    this.turnCalls = 1;
    for (const p of this.pending) {
      if (p.id === undefined || p.turn !== undefined || this.turnCalls >= MAX_TURN_CALLS) continue;
      p.turn = turn;
      this.turnCalls++;
    }
    return turn;
  }

  /**
   * The proposal a record answers: by id, else the latest proposal without id of the same tool. `late` when
   * the id's call was already recorded without outcome; null when nothing matches (a record without proposal).
   */
  take(id: string | undefined, tool: string): PendingCall | 'late' | null {
    let at = -1;
    if (id !== undefined) at = this.pending.findIndex((p) => p.id === id);
    else for (let i = this.pending.length - 1; i >= 0 && at < 0; i--) if (this.pending[i]?.id === undefined && this.pending[i]?.event.tool === tool) at = i;
    if (at >= 0) return this.pending.splice(at, 1)[0] as PendingCall;
    if (id !== undefined && this.late.includes(id)) return 'late';
    return null;
  }

  /** Puts back a proposal take() took out (its record could not be read). */
  putBack(p: PendingCall): void {
    this.pending.unshift(p);
  }

  /** How often the call with signature `sig` was blocked, if it was. */
  blockedAs(sig: string): Blocked | undefined {
    return this.blocked.get(sig);
  }

  /** Counts a blocked proposal. */
  block(sig: string, kind: string): void {
    const b = this.blocked.get(sig);
    this.blocked.delete(sig);
    this.blocked.set(sig, { times: (b?.times ?? 0) + 1, kind });
    if (this.blocked.size > MAX_BLOCKED) this.blocked.delete(this.blocked.keys().next().value as string);
    this.strikes++;
    this.quiet = 0;
  }

  /**
   * Notes a recorded call's verdict (not null): when it is a break, the call (signature `sig`) is kept as
   * broken when it ran (a blocked-call entry blocked 0 times, see broken-call.ts) until the next verdict;
   * any verdict forgets the call kept so before. Its kind is kept as the latest (latestVerdictKind).
   */
  recordedVerdict(sig: string, broke: boolean, kind: string): void {
    this.latestVerdictKind = kind;
    for (const [s, b] of this.blocked) if (b.times === 0) this.blocked.delete(s);
    if (!broke || this.blocked.has(sig)) return;
    this.blocked.set(sig, { times: 0, kind });
    if (this.blocked.size > MAX_BLOCKED) this.blocked.delete(this.blocked.keys().next().value as string);
  }

  /** Counts a recorded call: `cooldown` quiet ones in a row (0: never) forget strikes, blocked calls and the latest verdict. */
  recorded(quiet: boolean, cooldown: number): void {
    if (!quiet) {
      this.quiet = 0;
      return;
    }
    this.quiet++;
    if (cooldown > 0 && this.quiet >= cooldown) {
      this.strikes = 0;
      this.blocked.clear();
      this.latestVerdictKind = null;
    }
  }

  /** Whether a call was blocked since the session last recovered (or had a fresh start). */
  hasBlocked(): boolean {
    if (this.strikes > 0) return true;
    for (const b of this.blocked.values()) if (b.times > 0) return true;
    return false;
  }

  /**
   * A fresh start after `calls` recorded calls: strikes and blocked calls are forgotten; proposals waiting
   * for their outcome stay (their records still pair with them).
   */
  freshStart(calls: number): void {
    this.blocked.clear();
    this.latestVerdictKind = null;
    this.strikes = 0;
    this.quiet = 0;
    this.freshAt = calls;
  }

  /** Forgets everything. */
  reset(): void {
    this.pending = [];
    this.blocked.clear();
    this.late = [];
    this.strikes = 0;
    this.quiet = 0;
    this.turns = 0;
    this.turnCalls = 0;
    this.freshAt = 0;
    this.latestVerdictKind = null;
    this.stopDecision = null;
  }

  /** Writes the state, for a session snapshot. */
  save(w: ByteWriter): void {
    w.f64(this.strikes);
    w.f64(this.quiet);
    w.f64(this.freshAt);
    w.f64(this.turns);
    w.f64(this.turnCalls);
    // the latest verdict's kind rides among the blocked calls (LATEST_VERDICT_KEY), in place of the oldest one when full
    const latest = this.latestVerdictKind;
    const skip = latest !== null && this.blocked.size >= MAX_BLOCKED ? this.blocked.size - MAX_BLOCKED + 1 : 0;
    w.u32(this.blocked.size - skip + (latest === null ? 0 : 1));
    let i = 0;
    for (const [sig, b] of this.blocked) {
      if (i++ < skip) continue;
      w.str(sig);
      w.f64(b.times);
      w.str(b.kind);
    }
    if (latest !== null) {
      w.str(LATEST_VERDICT_KEY);
      w.f64(0);
      w.str(latest);
    }
    w.u32(this.late.length);
    for (const id of this.late) w.str(id);
    w.u32(this.pending.length);
    for (const p of this.pending) {
      w.optStr(p.id);
      w.str(p.sig);
      w.f64(p.age);
      w.optStr(p.shown?.kind);
      w.u32(p.shown === null ? 0 : ACTIONS.indexOf(p.shown.action) + 1);
      w.str(p.event.tool);
      // args a LoopPool's worker received in the module's encoding are saved as the JSON data they encode
      writeValue(w, EncodedArgs.is(p.event.args) ? p.event.args.value() : p.event.args);
      w.optStr(p.event.description);
      w.f64(p.event.step ?? NaN);
      w.f64(p.event.round ?? NaN);
      w.f64(p.turn ?? NaN);
    }
    w.optStr(this.stopDecision === null ? undefined : JSON.stringify(this.stopDecision));
  }

  /**
   * Reads what save() wrote, in snapshot format `version` (before 7: no fresh start was held; before 8, no
   * turns of calls in flight together: the pending calls read as of none; before 14, no stop decision: read
   * as none, the session's next stop keeps one).
   */
  load(r: ByteReader, version: number): void {
    this.reset();
    this.strikes = r.f64();
    this.quiet = r.f64();
    this.freshAt = version >= 7 ? r.f64() : 0;
    if (version >= 8) {
      this.turns = r.f64();
      this.turnCalls = r.f64();
    }
    for (let n = r.count(MAX_BLOCKED, 'blocked calls'), i = 0; i < n; i++) {
      const sig = r.str();
      const b = { times: r.f64(), kind: r.str() };
      if (sig === LATEST_VERDICT_KEY) this.latestVerdictKind = b.kind;
      else this.blocked.set(sig, b);
    }
    for (let n = r.count(LATE_IDS, 'late call ids'), i = 0; i < n; i++) this.late.push(r.str());
    for (let n = r.count(MAX_PENDING, 'pending calls'), i = 0; i < n; i++) {
      const id = r.optStr();
      const sig = r.str();
      const age = r.f64();
      const kind = r.optStr();
      const a = r.u32();
      if (a > ACTIONS.length || (a === 0) !== (kind === undefined)) throw new SnapshotError('loopwatch: the snapshot is corrupt (a pending call shown with an unknown action)');
      const shown = kind === undefined ? null : { kind, action: ACTIONS[a - 1] as LoopAction };
      const tool = r.str();
      const args = readValue(r);
      const description = r.optStr();
      const step = r.f64();
      const round = r.f64();
      const turn = version >= 8 ? r.f64() : NaN;
      const event: ToolEvent = { tool, args, description, step: Number.isNaN(step) ? undefined : step, round: Number.isNaN(round) ? undefined : round };
      this.pending.push({ id, event, shown, sig, age, turn: Number.isNaN(turn) ? undefined : turn });
    }
    if (version >= STOP_DECISION_SINCE) this.stopDecision = readStop(r.optStr());
  }
}

/** A stop decision as save() wrote it (JSON), frozen; a SnapshotError for one that is no stop decision. */
function readStop(text: string | undefined): LiveDecision | null {
  if (text === undefined) return null;
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    throw new SnapshotError('loopwatch: the snapshot is corrupt (its stop decision is not JSON)');
  }
  const o = d as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || o.action !== 'stop' || o.phase !== 'propose' || typeof o.session !== 'string' || typeof o.verdict !== 'object' || o.verdict === null) {
    throw new SnapshotError('loopwatch: the snapshot is corrupt (its stop decision is not a stop)');
  }
  return deepFreeze(o) as unknown as LiveDecision;
}
