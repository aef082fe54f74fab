/**
 * loopwatch for LangChain v1 agents (`createAgent` from `langchain` 1.2.13 or newer; older ones fail at the
 * first tool call, before it runs, saying so: langchain-old.ts): a middleware, with structural types and
 * no import of LangChain. The session is the thread (`configurable.thread_id`), else `options.session`, else
 * the run's own (named after the run's first message, so runs without a thread never share one). Before
 * 1.2.28 no hook sees the thread: there a thread's session is named after its first message.
 *
 * - `wrapToolCall`: each call is proposed before it runs and recorded after (the ToolMessage's content; an
 *   error status or a thrown error as the error); a warning is appended to the ToolMessage the model reads;
 *   a tool's error is answered as LangChain answers it without a wrapping middleware (an error ToolMessage);
 * - `deny`: the tool does not run: the request goes to the handler with a stand-in tool that answers the
 *   reason, so the model reads it as the call's ToolMessage;
 * - `stop`, in the vocabulary of the built-in toolCallLimitMiddleware (`exitBehavior`): `'end'` (default)
 *   answers like a deny and ends the run before the next model call (jumpTo end) with a final AI message
 *   saying why, as toolCallLimitMiddleware does; `'error'` throws LoopStoppedError out of the run (one error,
 *   LangChain's MiddlewareError around it, also when calls run in parallel); `'continue'` only denies.
 *   `guard.stopped(session)` gives the decision. A run started on a session stopped before (a thread, or
 *   `options.session`) throws a SessionStoppedError, except with `'continue'`.
 * - `ask`: LangChain's approval is humanInTheLoopMiddleware, which decides before tools run; loopwatch
 *   decides per call, so ask runs the call and the model reads the message (as warn).
 * - With `z` (your zod), the session's loopwatch state is kept in the graph state (`loopwatch`, a snapshot
 *   saved before each model call), so it checkpoints with the thread and comes back on another process.
 */
import { LoopStoppedError, SessionStoppedError } from '../errors.js';
import type { HostReach } from '../live/host-message.js';
import type { LiveDecision } from '../live/live-call.js';
import { OLD_LANGCHAIN, ThreadsByFirstMessage, isOldToolNode, runsStandIns } from './langchain-old.js';
import { type AbortSignalLike, type AdapterGuard, MAX_REMEMBERED_CALLS, denialText, notesOf, outcomeText, withNotes } from './shared.js';

/** The guard the middleware needs: a LiveGuard (its engine's snapshots keep a thread's state in the graph). */
export interface LangChainGuard extends AdapterGuard {
  readonly engine: { has(session: string): boolean; snapshot(session: string): Uint8Array | null; restore(session: string, bytes: Uint8Array): void };
}

/** A tool call request as the middleware gets it (LangChain's ToolCallRequest, as far as loopwatch reads it). */
export interface LangChainToolCallRequest {
  readonly toolCall: { readonly id?: string; readonly name: string; readonly args: unknown };
  readonly tool?: unknown;
  readonly state?: LangChainState;
  readonly runtime?: LangChainRuntime;
}

/** The graph state, as far as loopwatch reads it (the run's first message names a run without a thread). */
export interface LangChainState {
  readonly messages?: readonly { readonly id?: unknown }[];
  readonly loopwatch?: unknown;
}

/** The run's runtime (its `configurable` holds the thread id). */
export interface LangChainRuntime {
  readonly configurable?: { readonly thread_id?: unknown };
  readonly signal?: AbortSignalLike;
}

/** A ToolMessage, as far as loopwatch reads and amends it. */
interface ToolMessageLike {
  content?: unknown;
  status?: string;
}

/** The zod functions the middleware's state schema is made with (pass `z` from `zod`): O the object schema, F the field's. */
export interface ZodLike<O, F> {
  object(shape: { loopwatch: F }): O;
  string(): { optional(): F };
}

/** Options of loopwatchMiddleware. */
export interface LangChainMiddlewareOptions<O = undefined, F = unknown> {
  /** What a stop does, as toolCallLimitMiddleware's exitBehavior. @default 'end' */
  readonly exitBehavior?: 'continue' | 'error' | 'end';
  /** The session when the run has no thread id (runs given the same one share it). @default one per run */
  readonly session?: string;
  /** Your zod: keeps the session's state in the graph state, so it checkpoints with the thread. @default none */
  readonly z?: ZodLike<O, F>;
}

type Hook = (state: LangChainState, runtime: LangChainRuntime) => Record<string, unknown> | undefined;

/** loopwatch as a LangChain agent middleware (see the module comment): pass it in createAgent's `middleware`. */
export function loopwatchMiddleware<O = undefined, F = unknown>(guard: LangChainGuard, options: LangChainMiddlewareOptions<O, F> = {}) {
  const exit = options.exitBehavior ?? 'end';
  // no approval step (an ask runs the call); 'continue' only denies a stop's call
  const reach: HostReach = { stop: exit === 'continue' ? 'call' : 'run', asks: false };
  // LangChain before 1.2.34: calls say no thread, the hooks (from 1.2.28) do; before 1.2.13 a blocked call runs
  const threads = new ThreadsByFirstMessage();
  let standIns: Promise<boolean> | undefined;
  let oldThrownAt = -Infinity;
  const sessionOf = (state: LangChainState | undefined, runtime: LangChainRuntime | undefined): string => {
    const thread = runtime?.configurable?.thread_id ?? (isOldToolNode(runtime) ? threads.threadOf(state?.messages?.[0]?.id) : undefined);
    if (typeof thread === 'string' && thread.length > 0) return thread;
    if (options.session !== undefined) return options.session;
    const first = state?.messages?.[0]?.id;
    return typeof first === 'string' && first.length > 0 ? `langchain-run:${first}` : 'langchain-run';
  };
  // exitBehavior 'error': the sessions whose stop was thrown, so calls stopped alongside (in parallel) answer
  // as denied instead of throwing too (LangGraph would throw an AggregateError of them)
  const thrown = new Set<string>();
  const throwStop = (session: string, d: LiveDecision): never => {
    thrown.add(session);
    if (thrown.size > MAX_REMEMBERED_CALLS) thrown.delete(thrown.values().next().value as string);
    throw new LoopStoppedError(d);
  };

  const wrapToolCall = async <R extends LangChainToolCallRequest, M>(request: R, handler: (request: R) => M | Promise<M>): Promise<M> => {
    if (isOldToolNode(request.runtime) && !(await (standIns ??= runsStandIns(request, handler)))) {
      // calls of one step fail together: the first one's error alone is the run's (LangGraph keeps the first
      // error of a step and drops those thrown once the step is aborted; thrown together, it throws an AggregateError)
      if (performance.now() - oldThrownAt < ONE_STEP_MS) await abortedOrAfter(request.runtime?.signal, ONE_STEP_MS);
      oldThrownAt = performance.now();
      throw new TypeError(OLD_LANGCHAIN);
    }
    const session = sessionOf(request.state, request.runtime);
    const { id, name, args } = request.toolCall;
    const call = { id, tool: name, args };
    const p = guard.propose(session, call);
    if (p.action === 'stop' && exit === 'error' && !thrown.has(session)) throwStop(session, p);
    if (p.action === 'deny' || p.action === 'stop') return answer(request, handler, denialText(p, reach), 'denied');
    let out: M;
    try {
      out = await handler(request);
    } catch (error) {
      if (passesThrough(error, request)) throw error;
      // as LangChain's ToolNode answers a tool's error when no middleware wraps the call
      const notes = notesOf(p, guard.record(session, { ...call, error: outcomeText(error) }), reach);
      return answer(request, handler, withNotes(`${String(error)}\n Please fix your mistakes.`, notes), 'tool-error');
    }
    const msg = out as ToolMessageLike;
    const text = outcomeText(msg.content ?? out);
    const notes = notesOf(p, guard.record(session, { ...call, ...(msg.status === 'error' ? { error: text } : { result: text }) }), reach);
    if (notes.length > 0 && typeof msg.content === 'string') msg.content = withNotes(msg.content, notes);
    else if (notes.length > 0 && Array.isArray(msg.content)) msg.content = [...(msg.content as unknown[]), ...notes.map((t) => ({ type: 'text', text: t }))];
    return out;
  };

  const beforeModel: Hook = (state, runtime) => {
    threads.note(state.messages?.[0]?.id, runtime?.configurable?.thread_id);
    const session = sessionOf(state, runtime);
    const saved = options.z === undefined ? undefined : snapshotOf(guard, session);
    const stop = exit === 'end' ? guard.stopped(session) : undefined;
    // as toolCallLimitMiddleware ends a run: a final AI message saying why (LangGraph's reducer makes it an AIMessage)
    const end = stop === undefined ? undefined : { jumpTo: 'end' as const, messages: [{ role: 'assistant', content: denialText(stop, reach) }] };
    return saved === undefined && end === undefined ? undefined : { ...(saved === undefined ? {} : { loopwatch: saved }), ...end };
  };
  const beforeAgent: Hook = (state, runtime) => {
    threads.note(state.messages?.[0]?.id, runtime?.configurable?.thread_id);
    const session = sessionOf(state, runtime);
    if (options.z !== undefined && typeof state.loopwatch === 'string' && !guard.engine.has(session)) restore(guard, session, state.loopwatch);
    const earlier = exit === 'continue' ? undefined : guard.stopped(session);
    if (earlier !== undefined) throw new SessionStoppedError(earlier);
    return undefined;
  };

  return {
    [Symbol.for('AgentMiddleware')]: true,
    name: 'LoopwatchMiddleware',
    wrapToolCall,
    beforeAgent,
    beforeModel: { canJumpTo: ['end' as const], hook: beforeModel },
    ...(options.z === undefined ? {} : { stateSchema: options.z.object({ loopwatch: options.z.string().optional() }) }),
  };
}

/** How long calls failing on an old LangChain wait for their step to be aborted by the first one's error. */
const ONE_STEP_MS = 1000;

/** Settles when `signal` is aborted, or after `ms` (at once without a signal). */
function abortedOrAfter(signal: AbortSignalLike | undefined, ms: number): Promise<void> {
  if (signal === undefined || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Why a stand-in tool stands in, as `tool.metadata.loopwatch` says it to a middleware listed after
 * loopwatch's (which the stand-in passes through): `denied` (the call did not run: loopwatch's reason is
 * its text), `tool-error` (the tool threw, and the stand-in gives LangChain's error text for it, the same
 * call's second pass), `probe` (LangChain 1.2.13-1.2.33: asked once whether the tool node runs a stand-in).
 */
export type StandInReason = 'denied' | 'tool-error' | 'probe';

/** A stand-in tool named `name`, answering `text`, marked with why it stands in ({@link StandInReason}). */
function standInTool(name: string, text: string, why: StandInReason) {
  return { name, description: `loopwatch stand-in (${why})`, metadata: { loopwatch: why }, invoke: async () => text };
}

/**
 * The call answered with `text` and without running its tool: the handler gets a stand-in tool that returns
 * the text, so LangChain's ToolNode makes the ToolMessage (marked as an error, as toolCallLimitMiddleware does).
 */
async function answer<R extends LangChainToolCallRequest, M>(request: R, handler: (request: R) => M | Promise<M>, text: string, why: StandInReason): Promise<M> {
  const out = await handler({ ...request, tool: standInTool(request.toolCall.name, text, why) });
  if (typeof out === 'object' && out !== null) (out as ToolMessageLike).status = 'error';
  return out;
}

/** Errors LangChain handles itself: graph interrupts (and other bubble-ups), aborts, a tool's bad input. */
function passesThrough(error: unknown, request: LangChainToolCallRequest): boolean {
  const e = error as { is_bubble_up?: unknown; name?: unknown } | undefined;
  return e?.is_bubble_up === true || e?.name === 'ToolInvocationError' || request.runtime?.signal?.aborted === true;
}

function snapshotOf(guard: LangChainGuard, session: string): string | undefined {
  try {
    const bytes = guard.engine.snapshot(session);
    return bytes === null ? undefined : Buffer.from(bytes).toString('base64');
  } catch {
    return undefined; // fail open: the thread goes on without a saved state
  }
}

function restore(guard: LangChainGuard, session: string, base64: string): void {
  try {
    guard.engine.restore(session, new Uint8Array(Buffer.from(base64, 'base64')));
  } catch {
    // fail open: a state that cannot be restored is dropped and the session starts empty
  }
}
