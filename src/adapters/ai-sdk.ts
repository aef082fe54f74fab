/**
 * loopwatch for the Vercel AI SDK (`ai`), with structural types and no import of it.
 *
 * - v6 (and v7): `wrapTools(tools, guard, session)` checks each call in the tool's own `needsApproval`
 *   (ask: the SDK's approval request) and `execute` (deny: the tool's error, which the model reads; stop: a
 *   LoopStoppedError as the tool's error), records the outcome, and adds warnings to what the model sees of
 *   the result (`toModelOutput`; the result your code gets is unchanged). Spread
 *   `stopOnLoop(guard, session, { stopWhen })` into generateText/streamText so a stop ends the run.
 * - v7 only: `approveCalls(guard, session, { stopWhen, steering })` gives `toolApproval` (approved, denied with
 *   the reason, or user-approval), `onToolExecutionEnd` (the outcome) and `stopWhen`; warnings are steering
 *   messages at the next step. Use it instead of wrapTools, not with it.
 */
import { CallDeniedError, LoopStoppedError } from '../errors.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, MAX_REMEMBERED_CALLS, ProposalMemo, denialText, errorWithNotes, outcomeText, runChecked } from './shared.js';

/** The parts of an AI SDK tool the wrapper touches (parameters typed `never`, so any tool's functions fit). */
export interface AiSdkTool {
  execute?: (input: never, options: never) => unknown;
  needsApproval?: boolean | ((input: never, options: never) => boolean | PromiseLike<boolean>);
  toModelOutput?: (options: never) => unknown;
}

/** A stop condition as the AI SDK calls it (v6 and v7 `StopCondition`). */
export type AiSdkStopCondition = (options: { steps: readonly unknown[] }) => boolean | PromiseLike<boolean>;

/** What the model sees of a tool result (the AI SDK's `ToolResultOutput`, as far as warnings touch it). */
type ModelOutput = { type: 'text'; value: string } | { type: 'json'; value: unknown } | { type: 'content'; value: unknown[] } | { type: string; value?: unknown };

type CallOptions = { readonly toolCallId: string };

/** The tools, each checked by loopwatch before it runs and recorded after (see the module comment). */
export function wrapTools<T extends Record<string, AiSdkTool>>(tools: T, guard: AdapterGuard, session: string): T {
  const memo = new ProposalMemo(guard, session);
  const notes = new Map<string, string[]>();
  const out: Record<string, AiSdkTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as ((input: unknown, options: CallOptions) => unknown) | undefined;
    if (typeof execute !== 'function') {
      out[name] = tool;
      continue;
    }
    const own = tool.needsApproval as boolean | ((input: unknown, options: CallOptions) => boolean | PromiseLike<boolean>) | undefined;
    const toModel = tool.toModelOutput as ((o: { toolCallId: string; output: unknown }) => unknown) | undefined;
    const call = (input: unknown, o: CallOptions): LiveCall => ({ id: o.toolCallId, tool: name, args: input });
    out[name] = {
      ...tool,
      needsApproval: async (input: unknown, o: CallOptions) => {
        const mine = typeof own === 'function' ? await own(input, o) : own === true;
        return memo.propose(call(input, o)).action === 'ask' || mine;
      },
      execute: async (input: unknown, o: CallOptions) => {
        const c = await runChecked(guard, session, call(input, o), () => settle(execute(input, o)), memo.take(o.toolCallId));
        if (c.blocked !== undefined) throw blockedError(c.blocked);
        if (c.failed) throw errorWithNotes(c.error, c.notes);
        if (c.notes.length > 0) {
          notes.set(o.toolCallId, c.notes);
          if (notes.size > MAX_REMEMBERED_CALLS) notes.delete(notes.keys().next().value as string);
        }
        return c.value instanceof Streamed ? replay(c.value.values) : c.value;
      },
      toModelOutput: async (o: { toolCallId: string; output: unknown }) => {
        const base = (toModel === undefined ? defaultOutput(o.output) : await toModel(o)) as ModelOutput;
        const n = notes.get(o.toolCallId);
        return n === undefined ? base : withModelNotes(base, n);
      },
    } as AiSdkTool;
  }
  return out as T;
}

/** The error a blocked call's execute throws: the model reads its message as the tool's error. */
function blockedError(d: LiveDecision): Error {
  return d.action === 'stop' ? new LoopStoppedError(d) : new CallDeniedError(d);
}

/** The yields of a streaming tool (execute returning an AsyncIterable), collected to record the last one. */
class Streamed {
  constructor(readonly values: unknown[]) {}
  toJSON(): unknown {
    return this.values.at(-1);
  }
}

async function settle(out: unknown): Promise<unknown> {
  const value = await out;
  if (typeof value !== 'object' || value === null || !(Symbol.asyncIterator in value)) return value;
  const values: unknown[] = [];
  for await (const v of value as AsyncIterable<unknown>) values.push(v);
  return new Streamed(values);
}

async function* replay(values: unknown[]): AsyncGenerator<unknown> {
  yield* values;
}
/** The AI SDK's own default: text for a string, JSON otherwise. */
function defaultOutput(output: unknown): ModelOutput {
  return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: output ?? null };
}

function withModelNotes(base: ModelOutput, notes: readonly string[]): ModelOutput {
  const parts = notes.map((text) => ({ type: 'text', text }));
  if (base.type === 'text' || base.type === 'error-text') return { type: base.type, value: [base.value, ...notes].join('\n\n') };
  if (base.type === 'json') return { type: 'content', value: [{ type: 'text', text: outcomeText(base.value) }, ...parts] };
  if (base.type === 'content' && Array.isArray(base.value)) return { type: 'content', value: [...base.value, ...parts] };
  return base;
}

/** Options of the stop helpers. */
export interface StopOnLoopOptions<C> {
  /** Your own stop conditions (the SDK's default is replaced by what you spread, so name yours, e.g. `stepCountIs(20)`). */
  readonly stopWhen: C | readonly C[];
}

/** `{ stopWhen }` to spread into generateText/streamText: yours, plus "stop when loopwatch stopped the session". */
export function stopOnLoop<C>(guard: AdapterGuard, session: string, options: StopOnLoopOptions<C>): { stopWhen: (C | AiSdkStopCondition)[] } {
  const loopStopped: AiSdkStopCondition = () => guard.stopped(session) !== undefined;
  return { stopWhen: [loopStopped, ...(Array.isArray(options.stopWhen) ? (options.stopWhen as readonly C[]) : [options.stopWhen as C])] };
}

/** AI SDK v7's `ToolApprovalStatus`, as far as loopwatch answers it. */
export type AiSdkApproval = undefined | { type: 'denied'; reason: string } | { type: 'user-approval'; reason: string };

/** The v7 tool call approveCalls reads. */
export type AiSdkToolCall = { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };

/** Options of approveCalls: your stop conditions and the run's steering object (`experimental_createSteering()`). */
export interface ApproveCallsOptions<C> extends StopOnLoopOptions<C> {
  readonly steering: { steer(message: string): unknown };
}

/** AI SDK v7 options to spread into generateText/streamText/agent calls (see the module comment). */
export function approveCalls<C>(guard: AdapterGuard, session: string, options: ApproveCallsOptions<C>) {
  const steer = (d: LiveDecision): void => void (d.action === 'warn' && d.message !== undefined && options.steering.steer(d.message));
  const call = (c: AiSdkToolCall): LiveCall => ({ id: c.toolCallId, tool: c.toolName, args: c.input });
  return {
    ...stopOnLoop(guard, session, options),
    toolApproval: ({ toolCall }: { toolCall: AiSdkToolCall }): AiSdkApproval => {
      const d = guard.propose(session, call(toolCall));
      steer(d);
      if (d.action === 'deny' || d.action === 'stop') return { type: 'denied', reason: denialText(d) };
      return d.action === 'ask' ? { type: 'user-approval', reason: d.message ?? '' } : undefined;
    },
    onToolExecutionEnd: ({ toolCall, toolOutput }: { toolCall: AiSdkToolCall; toolOutput: { type: string; output?: unknown; error?: unknown } }): void => {
      const outcome = toolOutput.type === 'tool-error' ? { error: outcomeText(toolOutput.error) } : { result: outcomeText(toolOutput.output) };
      steer(guard.record(session, { ...call(toolCall), ...outcome }));
    },
  };
}
