/**
 * How an AI SDK run ends when loopwatch stops it, shared by `stopOnLoop` (v6) and `approveCalls` (v7): the
 * stop lets the model give a final answer (one more step with `toolChoice: 'none'`, through `prepareStep`;
 * the model has just read why in the stopped call's error), and the stop condition ends the run after that
 * step if the model called tools anyway. A run whose session was stopped before it started throws a
 * SessionStoppedError at its first step instead of doing nothing.
 *
 * ```
 *   step k:   a call is stopped (the model reads the stop message as the call's error or denial)
 *   stopWhen after step k:   false (the final answer comes next)
 *   step k+1: prepareStep -> { toolChoice: 'none' } -> the model answers in text -> the run ends
 *   stopWhen after step k+1: true (only reached if the model called tools anyway)
 * ```
 */
import { SessionStoppedError } from '../errors.js';
import type { AdapterGuard } from './shared.js';

/** A stop condition as the AI SDK calls it (v6 and v7 `StopCondition`). */
export type AiSdkStopCondition = (options: { steps: readonly unknown[] }) => boolean | PromiseLike<boolean>;

/** What a `prepareStep` of yours is given, as far as loopwatch reads it (v6 and v7). */
export interface AiSdkPrepareStepOptions {
  readonly stepNumber: number;
}

/** Options of the stop helpers. */
export interface StopOnLoopOptions<C, P = never, R = undefined> {
  /** Your own stop conditions (the SDK's default is replaced by what you spread, so name yours, e.g. `stepCountIs(20)`). */
  readonly stopWhen: C | readonly C[];
  /** Your own `prepareStep`, if you have one: loopwatch's runs it first and adds `toolChoice: 'none'` after a stop. @default none */
  readonly prepareStep?: (options: P) => R | PromiseLike<R>;
}

/** What the helpers spread into a call: the stop conditions and the prepareStep that gives the final answer. */
export interface RunEnd<C, P, R> {
  stopWhen: (C | AiSdkStopCondition)[];
  prepareStep: (options: P) => Promise<R | (NonNullable<R> & { toolChoice: 'none' }) | { toolChoice: 'none' }>;
}

/**
 * The stop conditions and prepareStep for one run on `session` (see the module comment); `onStep` is told of
 * each step before your prepareStep runs.
 */
export function runEnd<C, P extends AiSdkPrepareStepOptions, R>(guard: AdapterGuard, session: string, options: StopOnLoopOptions<C, P, R>, onStep?: (o: P) => void): RunEnd<C, P, R> {
  let stoppedAt: number | undefined;
  const loopStopped: AiSdkStopCondition = ({ steps }) => {
    if (guard.stopped(session) === undefined) return false;
    stoppedAt ??= steps.length; // the step after this one is the final answer
    return steps.length > stoppedAt;
  };
  const prepareStep = async (o: P) => {
    if (o.stepNumber === 0) {
      const earlier = guard.stopped(session);
      if (earlier !== undefined) throw new SessionStoppedError(earlier);
    }
    onStep?.(o);
    const theirs = options.prepareStep === undefined ? undefined : await options.prepareStep(o);
    if (guard.stopped(session) === undefined) return theirs as R;
    return theirs === undefined || theirs === null ? { toolChoice: 'none' as const } : { ...theirs, toolChoice: 'none' as const };
  };
  const mine = Array.isArray(options.stopWhen) ? (options.stopWhen as readonly C[]) : [options.stopWhen as C];
  return { stopWhen: [loopStopped, ...mine], prepareStep };
}
