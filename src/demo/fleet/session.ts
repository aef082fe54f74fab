/**
 * One session of the fleet, from its plan: an agent of one style does ordinary work, then either falls
 * into the planned loop and keeps looping until its step limit, or works through a legitimate pattern
 * (or plain work) and finishes (most do; some run out of steps first). Calls are numbered by `step`.
 */
import type { ToolEvent } from '../../types.js';
import type { CallMemory } from './call-memory.js';
import { CodingAgent } from './coding-agent.js';
import { CODING_LEGIT, codingLegit } from './coding-legit.js';
import { CODING_LOOPS, MIN_LOOP_CALLS, SUPPORT_LOOPS } from './inject.js';
import { type SessionPlan, STREAM } from './plan.js';
import { Rng, streamSeed } from './random.js';
import { SupportAgent } from './support-agent.js';
import { SUPPORT_LEGIT, supportLegit } from './support-legit.js';
import { type AgentStyle, type Block, type FleetSession, type InjectedLoop, type LegitPattern, SESSION_CALLS } from './truth.js';

/** Calls of ordinary work before a loop starts, at least. */
export const MIN_PREFIX = 4;

/** The style of a session: what its legitimate pattern needs, else coding 55% of the time. */
function styleFor(plan: SessionPlan, rng: Rng): AgentStyle {
  const coding = rng.chance(0.55);
  const l = plan.legit;
  if (l === null) return coding ? 'coding' : 'support';
  if (!CODING_LEGIT.includes(l)) return 'support';
  if (!SUPPORT_LEGIT.includes(l)) return 'coding';
  return coding ? 'coding' : 'support';
}

/** An agent of either style, seen through what a session needs of it. */
interface Worker {
  /** `n` calls of ordinary work, the first ones opening the task; fewer `untilDone` if the task gets done. */
  begin(n: number, untilDone?: boolean): ToolEvent[];
  work(n: number, untilDone?: boolean): ToolEvent[];
  /** `n` calls looking over the work before handing it in (none when n <= 0). */
  review(n: number): ToolEvent[];
  finish(): ToolEvent[];
  loop(kind: NonNullable<SessionPlan['kind']>, count: number): Block;
  legit(p: LegitPattern): Block;
}

function worker(style: AgentStyle, rng: Rng): Worker {
  if (style === 'coding') {
    const a = new CodingAgent(rng);
    return {
      begin: (n, done) => a.work(n, true, done),
      work: (n, done) => a.work(n, false, done),
      review: (n) => Array.from({ length: Math.max(0, n) }, () => a.look()),
      finish: () => a.finish(),
      loop: (k, n) => CODING_LOOPS[k](a, rng, n),
      legit: (p) => remembered(a.memory, codingLegit(p, a, rng)),
    };
  }
  const a = new SupportAgent(rng);
  return {
    begin: (n) => [...a.open(), ...a.work(n - 3)].slice(0, n),
    work: (n) => a.work(n),
    review: (n) => a.work(Math.max(0, n)),
    finish: () => a.finish(),
    loop: (k, n) => SUPPORT_LOOPS[k](a, rng, n),
    legit: (p) => remembered(a.memory, supportLegit(p, a, rng)),
  };
}

/** A block whose calls plain work will not make again. */
function remembered(memory: CallMemory, block: Block): Block {
  memory.remember(block.events);
  return block;
}

/** Session `index` of the fleet of `seed`, made from its plan. */
export function makeSession(seed: number, index: number, plan: SessionPlan): FleetSession {
  const rng = new Rng(streamSeed(seed, STREAM.session, index));
  const style = styleFor(plan, rng);
  const w = worker(style, rng);
  const calls = style === 'coding' ? rng.int(20, SESSION_CALLS.max) : rng.int(SESSION_CALLS.min, 40);
  let events: ToolEvent[];
  let injected: InjectedLoop | null = null;
  let variant = 'plain';
  if (plan.kind !== null) {
    const total = Math.max(calls, MIN_PREFIX + MIN_LOOP_CALLS[plan.kind] + rng.int(0, 10));
    const startIndex = rng.int(MIN_PREFIX, Math.max(MIN_PREFIX, Math.min(total - MIN_LOOP_CALLS[plan.kind], Math.floor(total * 0.6))));
    const prefix = w.begin(startIndex);
    const loop = w.loop(plan.kind, total - startIndex);
    events = [...prefix, ...loop.events];
    injected = { kind: plan.kind, startIndex };
    variant = loop.variant;
  } else {
    const finished = rng.chance(0.85);
    const room = calls - (finished ? 2 : 0);
    const before = plan.legit === null ? room : rng.int(MIN_PREFIX, Math.max(MIN_PREFIX, Math.floor(calls / 2)));
    const prefix = w.begin(before, plan.legit === null);
    const block = plan.legit === null ? null : w.legit(plan.legit);
    const after = w.work(Math.max(0, room - prefix.length - (block?.events.length ?? 0)), true);
    const end = finished ? w.finish() : [];
    const review = w.review(SESSION_CALLS.min - prefix.length - (block?.events.length ?? 0) - after.length - end.length);
    events = [...prefix, ...(block?.events ?? []), ...after, ...review, ...end];
    if (block !== null) variant = block.variant;
  }
  const id = `${style}-${String(index).padStart(5, '0')}`;
  return { session: id, style, injected, legit: plan.legit, variant, events: numbered(events) };
}

/** Numbers the calls by `step` (from 1), in place: the makers return a new object for every call. */
function numbered(events: ToolEvent[]): ToolEvent[] {
  for (let i = 0; i < events.length; i++) (events[i] as { step?: number }).step = i + 1;
  return events;
}
