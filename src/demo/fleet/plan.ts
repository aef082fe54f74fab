/**
 * What each session of a fleet will be, decided block by block so the mix is exact in every block of
 * {@link PLAN_BLOCK} sessions: 14 in 40 (35%) get a loop (every kind once, five more at random), 4 are
 * plain work, and the other 22 are built around legitimate patterns (each pattern three times, one more
 * at random). A block is shuffled by the fleet seed, so any session's plan can be made on its own.
 */
import { Rng, streamSeed } from './random.js';
import { INJECTED_KINDS, type InjectedKind, LEGIT_PATTERNS, type LegitPattern, PLAN_BLOCK } from './truth.js';

/** What one session will be: a loop of `kind`, built around `legit`, or plain work (both null). */
export interface SessionPlan {
  readonly kind: InjectedKind | null;
  readonly legit: LegitPattern | null;
}

/** Stream ids under the fleet seed, so plans and sessions never share numbers. */
export const STREAM = Object.freeze({ plan: 1, session: 2 });

/** The plans of block `block` (sessions `block * size` onwards), in session order. */
export function planBlock(seed: number, block: number): SessionPlan[] {
  const rng = new Rng(streamSeed(seed, STREAM.plan, block));
  const plans: SessionPlan[] = [];
  const { size, injected, plain } = PLAN_BLOCK;
  for (let i = 0; i < injected; i++) plans.push({ kind: i < INJECTED_KINDS.length ? (INJECTED_KINDS[i] as InjectedKind) : rng.pick(INJECTED_KINDS), legit: null });
  for (let i = 0; i < plain; i++) plans.push({ kind: null, legit: null });
  const legit = size - injected - plain;
  for (let i = 0; i < legit; i++) plans.push({ kind: null, legit: i < legit - (legit % LEGIT_PATTERNS.length) ? (LEGIT_PATTERNS[i % LEGIT_PATTERNS.length] as LegitPattern) : rng.pick(LEGIT_PATTERNS) });
  return rng.shuffle(plans);
}

/** The plan of session `index`. */
export function planAt(seed: number, index: number): SessionPlan {
  return planBlock(seed, Math.floor(index / PLAN_BLOCK.size))[index % PLAN_BLOCK.size] as SessionPlan;
}
