/**
 * loopwatch for the Vercel AI SDK (`ai`), with structural types and no import of it.
 *
 * - v6: `wrapTools(tools, guard)` checks each call in the tool's own `needsApproval` (ask: the SDK's approval
 *   request) and `execute` (deny: the tool's error, which the model reads; stop: a LoopStoppedError as the
 *   tool's error), records the outcome, and adds warnings to what the model sees of the result
 *   (`toModelOutput`; the result your code gets is unchanged). Spread `stopOnLoop(guard, session, { stopWhen })`
 *   into each generateText/streamText call: it names the run's session (through the run's
 *   `experimental_context`, so tools wrapped once serve every run, each in its own session), and a stop ends
 *   the run with a final answer (see ai-sdk-run.ts).
 * - v7: `approveCalls(guard, session, { stopWhen, steering })` (ai-sdk-approve.ts), without wrapping tools.
 */
import { CallDeniedError, LoopStoppedError } from '../errors.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AiSdkPrepareStepOptions, type RunEnd, type StopOnLoopOptions, runEnd } from './ai-sdk-run.js';
import { type AdapterGuard, MAX_REMEMBERED_CALLS, ProposalMemo, errorWithNotes, outcomeText, runChecked } from './shared.js';

export { approveCalls } from './ai-sdk-approve.js';
export type { AiSdkApproval, AiSdkToolCall, ApproveCallsOptions } from './ai-sdk-approve.js';
export type { AiSdkPrepareStepOptions, AiSdkStopCondition, RunEnd, StopOnLoopOptions } from './ai-sdk-run.js';

/** The parts of an AI SDK tool the wrapper touches (parameters typed `never`, so any tool's functions fit). */
export interface AiSdkTool {
  execute?: (input: never, options: never) => unknown;
  needsApproval?: boolean | ((input: never, options: never) => boolean | PromiseLike<boolean>);
  toModelOutput?: (options: never) => unknown;
}

/** What the model sees of a tool result (the AI SDK's `ToolResultOutput`, as far as warnings touch it). */
type ModelOutput = { type: 'text'; value: string } | { type: 'json'; value: unknown } | { type: 'content'; value: unknown[] } | { type: string; value?: unknown };

type CallOptions = { readonly toolCallId: string; readonly experimental_context?: unknown };

/** The session each run's context names (a run's `experimental_context`, registered by stopOnLoop). */
const runSessions = new WeakMap<object, string>();

/**
 * The tools, each checked by loopwatch before it runs and recorded after (see the module comment), in the
 * session of the run that calls them (named by stopOnLoop), else in `session`.
 */
export function wrapTools<T extends Record<string, AiSdkTool>>(tools: T, guard: AdapterGuard, session?: string): T {
  const memos = new Map<string, ProposalMemo>();
  const memoOf = (o: CallOptions): { memo: ProposalMemo; session: string } => {
    const ctx = o.experimental_context;
    const s = (typeof ctx === 'object' && ctx !== null ? runSessions.get(ctx) : undefined) ?? session;
    if (s === undefined) throw new TypeError('loopwatch: this run names no session: spread stopOnLoop(guard, session, ...) into the call, or give wrapTools a session (AI SDK 7 hands tools no run context, so stopOnLoop cannot name it there: use approveCalls(guard, session, ...) instead of wrapTools, or wrapTools(tools, guard, session))');
    let memo = memos.get(s);
    if (memo === undefined) {
      memo = new ProposalMemo(guard, s);
      memos.set(s, memo);
      if (memos.size > MAX_REMEMBERED_CALLS) memos.delete(memos.keys().next().value as string);
    }
    return { memo, session: s };
  };
  // what the model reads of each call beside its result: kept for the call's input object, which the SDK hands
  // to execute and then to toModelOutput (which is given no run context), so runs at the same time whose call
  // ids repeat each read their own; by call id only for an input that is not an object
  const notesOfInput = new WeakMap<object, readonly string[]>();
  const notes = new Map<string, string[]>();
  const out: Record<string, AiSdkTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as ((input: unknown, options: CallOptions) => unknown) | undefined;
    if (typeof execute !== 'function') {
      out[name] = tool;
      continue;
    }
    const own = tool.needsApproval as boolean | ((input: unknown, options: CallOptions) => boolean | PromiseLike<boolean>) | undefined;
    const toModel = tool.toModelOutput as ((o: { toolCallId: string; input?: unknown; output: unknown }) => unknown) | undefined;
    const call = (input: unknown, o: CallOptions): LiveCall => ({ id: o.toolCallId, tool: name, args: input });
    out[name] = {
      ...tool,
      needsApproval: async (input: unknown, o: CallOptions) => {
        const mine = typeof own === 'function' ? await own(input, o) : own === true;
        return memoOf(o).memo.propose(call(input, o)).action === 'ask' || mine;
      },
      execute: async (input: unknown, o: CallOptions) => {
        // a call id can come again in another run (providers and mock models that number their calls):
        // what the model reads of this call is this run's, never the notes an earlier call of that id left
        notes.delete(o.toolCallId);
        const run = memoOf(o);
        const c = await runChecked(guard, run.session, call(input, o), () => settle(execute(input, o)), run.memo.take(o.toolCallId));
        if (c.blocked !== undefined) throw blockedError(c.blocked);
        if (c.failed) throw errorWithNotes(c.error, c.notes);
        if (typeof input === 'object' && input !== null) notesOfInput.set(input, c.notes);
        else if (c.notes.length > 0) {
          notes.set(o.toolCallId, c.notes);
          if (notes.size > MAX_REMEMBERED_CALLS) notes.delete(notes.keys().next().value as string);
        }
        return c.value instanceof Streamed ? replay(c.value.values) : c.value;
      },
      toModelOutput: async (o: { toolCallId: string; input?: unknown; output: unknown }) => {
        const base = (toModel === undefined ? defaultOutput(o.output) : await toModel(o)) as ModelOutput;
        const n = typeof o.input === 'object' && o.input !== null ? notesOfInput.get(o.input) : notes.get(o.toolCallId);
        return n === undefined || n.length === 0 ? base : withModelNotes(base, n);
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

/** What stopOnLoop spreads into a v6 call: the stop conditions, prepareStep, and the run's context. */
export interface StopOnLoop<C, P, R, X extends object> extends RunEnd<C, P, R> {
  experimental_context: X;
}

/**
 * AI SDK v6 options to spread into each generateText/streamText call (or a ToolLoopAgent's `prepareCall`):
 * `experimental_context` names the run's session for the tools wrapTools wrapped (your own context object
 * when you give one as `context`, passed on as it is), `stopWhen` yours plus loopwatch's, and `prepareStep`
 * (yours, when given, run first) for the final answer after a stop (see ai-sdk-run.ts).
 */
export function stopOnLoop<C, P extends AiSdkPrepareStepOptions = AiSdkPrepareStepOptions, R = undefined, X extends object = Record<string, never>>(
  guard: AdapterGuard,
  session: string,
  options: StopOnLoopOptions<C, P, R> & { readonly context?: X },
): StopOnLoop<C, NoInfer<P>, NoInfer<R>, X> {
  const context = options.context ?? ({} as X);
  if (typeof context !== 'object' || context === null) throw new TypeError(`loopwatch: stopOnLoop's context must be an object (the run's experimental_context), received ${typeof context}`);
  runSessions.set(context, session);
  return { ...runEnd(guard, session, options), experimental_context: context };
}
