/**
 * Which maker injects each loop kind into each agent style, and how long a loop of each kind runs at
 * least (a loop that must come back after several other calls needs room to come back).
 */
import type { CodingAgent } from './coding-agent.js';
import { codingCycle, codingExactRepeat, codingFrequency, codingStateRepeat } from './coding-loops.js';
import { codingChanting, codingDeadEnd, codingResultRepeat, codingSemantic, codingSimilarArgs } from './coding-stuck.js';
import type { Rng } from './random.js';
import type { SupportAgent } from './support-agent.js';
import { supportCycle, supportExactRepeat, supportFrequency, supportStateRepeat } from './support-loops.js';
import { supportChanting, supportDeadEnd, supportResultRepeat, supportSemantic, supportSimilarArgs } from './support-stuck.js';
import type { Block, InjectedKind } from './truth.js';

/** Makes `count` looping calls for an agent. */
export type LoopMaker<A> = (agent: A, rng: Rng, count: number) => Block;

/** The coding agents' loop makers, by kind. */
export const CODING_LOOPS: Readonly<Record<InjectedKind, LoopMaker<CodingAgent>>> = Object.freeze({
  exact_repeat: codingExactRepeat,
  cycle: codingCycle,
  frequency: codingFrequency,
  state_repeat: codingStateRepeat,
  dead_end: codingDeadEnd,
  similar_args: codingSimilarArgs,
  semantic: codingSemantic,
  result_repeat: codingResultRepeat,
  chanting: codingChanting,
});

/** The support agents' loop makers, by kind. */
export const SUPPORT_LOOPS: Readonly<Record<InjectedKind, LoopMaker<SupportAgent>>> = Object.freeze({
  exact_repeat: supportExactRepeat,
  cycle: supportCycle,
  frequency: supportFrequency,
  state_repeat: supportStateRepeat,
  dead_end: supportDeadEnd,
  similar_args: supportSimilarArgs,
  semantic: supportSemantic,
  result_repeat: supportResultRepeat,
  chanting: supportChanting,
});

/** Fewest calls a loop of each kind runs before the session's step limit. */
export const MIN_LOOP_CALLS: Readonly<Record<InjectedKind, number>> = Object.freeze({
  exact_repeat: 8,
  cycle: 10,
  frequency: 12,
  state_repeat: 30,
  dead_end: 8,
  similar_args: 8,
  semantic: 8,
  result_repeat: 8,
  chanting: 12,
});
