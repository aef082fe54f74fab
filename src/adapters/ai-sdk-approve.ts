/**
 * loopwatch for AI SDK v7's per-call approval and steering, without wrapping tools: spread
 * `approveCalls(guard, session, { stopWhen, steering })` into each generateText/streamText call (or an agent's
 * `prepareCall`), so each run has its own:
 *
 * - `toolApproval` proposes each call: `denied` with the reason (deny, stop; the model reads it), or
 *   `user-approval` with the reason (ask), else no opinion;
 * - `onToolExecutionEnd` records the outcome, or, where it is not called (a ToolLoopAgent calls only the
 *   callbacks given to it, not those `prepareCall` returns), `prepareStep` records it from the step before;
 * - warnings are steering messages (`steering.steer`), which the model reads at its next step;
 * - `stopWhen` and `prepareStep`: a stop lets the model give a final answer, then ends the run; a run on a
 *   session stopped before throws a SessionStoppedError (ai-sdk-run.ts).
 */
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AiSdkPrepareStepOptions, type RunEnd, type StopOnLoopOptions, runEnd } from './ai-sdk-run.js';
import { type AdapterGuard, MAX_REMEMBERED_CALLS, denialText, outcomeText } from './shared.js';

/** AI SDK v7's `ToolApprovalStatus`, as far as loopwatch answers it. */
export type AiSdkApproval = undefined | { type: 'denied'; reason: string } | { type: 'user-approval'; reason: string };

/** The v7 tool call approveCalls reads. */
export type AiSdkToolCall = { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };

/** Options of approveCalls: your stop conditions (and prepareStep) and the run's steering object (`experimental_createSteering()`). */
export interface ApproveCallsOptions<C, P = never, R = undefined> extends StopOnLoopOptions<C, P, R> {
  readonly steering: { steer(message: string): unknown };
}

/** What approveCalls spreads into a v7 call. */
export interface ApproveCalls<C, P, R> extends RunEnd<C, P, R> {
  toolApproval: (options: { toolCall: AiSdkToolCall }) => AiSdkApproval;
  onToolExecutionEnd: (event: { toolCall: AiSdkToolCall; toolOutput: { type: string; output?: unknown; error?: unknown } }) => void;
}

/** A step's content part, as far as loopwatch reads it (v7 `tool-result` and `tool-error` parts). */
type StepPart = { readonly type?: string; readonly toolCallId?: string; readonly output?: unknown; readonly error?: unknown };

/** AI SDK v7 options to spread into each generateText/streamText call (see the module comment). */
export function approveCalls<C, P extends AiSdkPrepareStepOptions = AiSdkPrepareStepOptions, R = undefined>(guard: AdapterGuard, session: string, options: ApproveCallsOptions<C, P, R>): ApproveCalls<C, NoInfer<P>, NoInfer<R>> {
  const steer = (d: LiveDecision): void => void (d.action === 'warn' && d.message !== undefined && options.steering.steer(d.message));
  const call = (c: AiSdkToolCall): LiveCall => ({ id: c.toolCallId, tool: c.toolName, args: c.input });
  // calls approved and not recorded yet, by id
  const running = new Map<string, LiveCall>();
  const record = (id: string, outcome: { result: string } | { error: string }): void => {
    const c = running.get(id);
    if (c === undefined) return;
    running.delete(id);
    steer(guard.record(session, { ...c, ...outcome }));
  };
  const fromStep = (o: P): void => {
    const steps = (o as { steps?: readonly { content?: readonly StepPart[] }[] }).steps;
    for (const part of steps?.at(-1)?.content ?? []) {
      if (part.toolCallId === undefined) continue;
      if (part.type === 'tool-result') record(part.toolCallId, { result: outcomeText(part.output) });
      else if (part.type === 'tool-error') record(part.toolCallId, { error: outcomeText(part.error) });
    }
  };
  return {
    ...runEnd(guard, session, options, fromStep),
    toolApproval: ({ toolCall }) => {
      const c = call(toolCall);
      const d = guard.propose(session, c);
      steer(d);
      if (d.action === 'deny' || d.action === 'stop') return { type: 'denied', reason: denialText(d) };
      running.set(toolCall.toolCallId, c);
      if (running.size > MAX_REMEMBERED_CALLS) running.delete(running.keys().next().value as string);
      return d.action === 'ask' ? { type: 'user-approval', reason: d.message ?? '' } : undefined;
    },
    onToolExecutionEnd: ({ toolCall, toolOutput }) => {
      record(toolCall.toolCallId, toolOutput.type === 'tool-error' ? { error: outcomeText(toolOutput.error) } : { result: outcomeText(toolOutput.output) });
    },
  };
}
