/**
 * The synthetic fleet behind `loopwatch demo`: `sessions` sessions made from `seed`, the same on every
 * machine. Sessions can be had all at once ({@link generateFleet}), one by one as they are made
 * ({@link iterateFleet}), or singly by index ({@link fleetSession}): each is the same session either way.
 */
import { integer, knownKeys, record } from '../../options/checks.js';
import { type SessionPlan, planBlock } from './plan.js';
import { makeSession } from './session.js';
import { DEFAULT_SEED, DEFAULT_SESSIONS, type FleetOptions, type FleetSession, PLAN_BLOCK } from './truth.js';

/** Most sessions a fleet may have. */
export const MAX_SESSIONS = 1_000_000;

/** The options with defaults filled in; throws OptionTypeError / OptionRangeError naming a bad one. */
export function resolveFleetOptions(options: FleetOptions = {}): Required<FleetOptions> {
  const o = record('options', options);
  knownKeys('options', o, ['seed', 'sessions']);
  return {
    seed: integer('options.seed', o.seed ?? DEFAULT_SEED, Number.MIN_SAFE_INTEGER),
    sessions: integer('options.sessions', o.sessions ?? DEFAULT_SESSIONS, 0, MAX_SESSIONS),
  };
}

/** The fleet's sessions, made one at a time as they are asked for. */
export function* iterateFleet(options: FleetOptions = {}): Generator<FleetSession, void, undefined> {
  const { seed, sessions } = resolveFleetOptions(options);
  let block = -1;
  let plans: SessionPlan[] = [];
  for (let i = 0; i < sessions; i++) {
    const b = Math.floor(i / PLAN_BLOCK.size);
    if (b !== block) {
      block = b;
      plans = planBlock(seed, b);
    }
    yield makeSession(seed, i, plans[i % PLAN_BLOCK.size] as SessionPlan);
  }
}

/** The whole fleet (defaults: seed 42, 2,000 sessions). */
export function generateFleet(options: FleetOptions = {}): FleetSession[] {
  return [...iterateFleet(options)];
}

/** Session `index` of the fleet of `seed`, made on its own (the same as in the whole fleet). */
export function fleetSession(index: number, seed: number = DEFAULT_SEED): FleetSession {
  integer('index', index, 0, MAX_SESSIONS - 1);
  integer('seed', seed, Number.MIN_SAFE_INTEGER);
  return makeSession(seed, index, planBlock(seed, Math.floor(index / PLAN_BLOCK.size))[index % PLAN_BLOCK.size] as SessionPlan);
}
