/**
 * Fleets of sessions in two-phase order for the many-session runners (engine, pool, NATS): each session's
 * operations (proposals, records, and plain checks beside them) planned against one LoopDetector per
 * session, which gives the answers every runner must give, then the sessions interleaved at random (each
 * session's operations stay in order). A call denied at its proposal is never recorded, as a host does.
 */
import { LoopDetector } from '../../src/index.js';
import { Rng, streamSeed } from '../../src/demo/fleet/random.js';
import type { LiveCall, LoopDetectorOptions, SessionEvent } from '../../src/index.js';
import { LEGITIMATE, STUCK, type ScriptedCall } from './live-scenarios.js';
import { json } from './verdicts.js';

/** What an operation is: a plain check, or one of the two moments of a call. */
export type FleetOpKind = 'check' | 'propose' | 'record';

/** One operation of a session. */
export interface FleetOp {
  readonly kind: FleetOpKind;
  readonly session: string;
  readonly call: LiveCall;
}

/** A planned fleet: the operations in the order they are submitted, and what each must get (json text). */
export interface Fleet {
  readonly ops: readonly FleetOp[];
  readonly want: readonly string[];
}

/** A seeded stream of numbers in [0, 1), so a fleet is the same every run. */
export function seeded(seed: number): () => number {
  const rng = new Rng(streamSeed(seed));
  return () => rng.next();
}

/** How a session's calls are planned. */
export interface PlanOptions {
  /** Give calls ids (`c0`, `c1`, ...); without, records pair with the latest proposal of their tool. */
  readonly ids: boolean;
  /** Share of calls sent as plain checks instead of propose + record. @default 0 */
  readonly checks?: number;
  /** Share of calls (with ids) proposed together with the next one, both recorded afterwards (calls run in parallel). @default 0 */
  readonly parallel?: number;
}

/** Plans one session's calls against its own LoopDetector (with `options`): the operations and their answers. */
export function planSession(session: string, calls: readonly ScriptedCall[], o: PlanOptions, rnd: () => number, options: LoopDetectorOptions = {}): { ops: FleetOp[]; want: string[] } {
  const d = new LoopDetector(options, session);
  const ops: FleetOp[] = [];
  const want: string[] = [];
  const outcome = (c: ScriptedCall): Partial<LiveCall> => (c.error === undefined ? { result: c.result } : { error: c.error });
  const run = (op: FleetOp): string => {
    ops.push(op);
    const got = op.kind === 'check' ? d.check(op.call) : op.kind === 'propose' ? d.propose(op.call) : d.record(op.call);
    want.push(json(got));
    return op.kind === 'propose' ? (got as { action: string }).action : '';
  };
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i] as ScriptedCall;
    const call: LiveCall = { tool: c.tool, args: c.args, ...(o.ids ? { id: `c${i}` } : {}) };
    if (rnd() < (o.checks ?? 0)) {
      run({ kind: 'check', session, call: { ...call, ...outcome(c) } });
      continue;
    }
    const next = calls[i + 1];
    if (o.ids && next !== undefined && rnd() < (o.parallel ?? 0)) {
      const second: LiveCall = { tool: next.tool, args: next.args, id: `c${i + 1}` };
      const a = run({ kind: 'propose', session, call });
      const b = run({ kind: 'propose', session, call: second });
      if (a !== 'deny' && a !== 'stop') run({ kind: 'record', session, call: { ...call, ...outcome(c) } });
      if (b !== 'deny' && b !== 'stop') run({ kind: 'record', session, call: { ...second, ...outcome(next) } });
      i++;
      continue;
    }
    const a = run({ kind: 'propose', session, call });
    if (a !== 'deny' && a !== 'stop') run({ kind: 'record', session, call: { ...call, ...outcome(c) } });
  }
  d.dispose();
  return { ops, want };
}

/** Interleaves planned sessions at random, each session's operations in order. */
export function interleave(sessions: readonly { ops: FleetOp[]; want: string[] }[], rnd: () => number): Fleet {
  const next = sessions.map(() => 0);
  const live = sessions.map((_, i) => i).filter((i) => (sessions[i] as { ops: FleetOp[] }).ops.length > 0);
  const ops: FleetOp[] = [];
  const want: string[] = [];
  while (live.length > 0) {
    const k = Math.floor(rnd() * live.length);
    const s = live[k] as number;
    const plan = sessions[s] as { ops: FleetOp[]; want: string[] };
    const i = next[s] as number;
    ops.push(plan.ops[i] as FleetOp);
    want.push(plan.want[i] as string);
    next[s] = i + 1;
    if (i + 1 >= plan.ops.length) live.splice(k, 1);
  }
  return { ops, want };
}

/** The shared live scenarios, `copies` sessions of each, with and without ids, interleaved (`prefix` names the sessions). */
export function scenarioFleet(prefix: string, copies: number, seed = 1, options: LoopDetectorOptions = {}): Fleet {
  const rnd = seeded(seed);
  const plans = [...LEGITIMATE, ...STUCK].flatMap((s, k) =>
    Array.from({ length: copies }, (_, c) => [true, false].map((ids) => planSession(`${prefix}${k}-${c}-${ids ? 'id' : 'noid'}`, s.calls, { ids }, rnd, options))).flat(),
  );
  return interleave(plans, rnd);
}

/** A synthetic fleet's sessions (bench/fleet.ts events, grouped by session) in two-phase order, mixed with plain checks and parallel calls. */
export function randomFleet(events: readonly SessionEvent[], seed = 7): Fleet {
  const rnd = seeded(seed);
  const bySession = new Map<string, ScriptedCall[]>();
  for (const e of events) {
    let list = bySession.get(e.session);
    if (list === undefined) bySession.set(e.session, (list = []));
    const out = e.error === undefined ? { result: e.result as string } : { error: String(e.error) };
    list.push({ tool: e.tool, args: e.args as Record<string, unknown>, ...out });
  }
  const plans = [...bySession].map(([session, calls], k) => planSession(session, calls, { ids: k % 3 !== 0, checks: 0.15, parallel: 0.2 }, rnd));
  return interleave(plans, rnd);
}
