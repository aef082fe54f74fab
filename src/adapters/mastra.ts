/**
 * loopwatch for Mastra agents (`@mastra/core` 1.2 or newer), as a Processor with structural types and no import of
 * Mastra. Tested through Mastra's own Agent loop with its mock model (test/adapter-mastra.test.ts).
 *
 * Mastra blocks calls only where they run: a processor's `abort` in `processOutputStep` (after the model
 * answered, before its tools run) does not cancel the step's tool calls unless it asks for a retry, and then
 * it rejects the whole step. So loopwatch checks each call in the tool itself:
 *
 * - `processInputStep` (before each model call) hands Mastra the step's tools, each one's `execute` wrapped:
 *   the call is proposed before it runs and recorded after (its result, or the error it threw). `deny`: the
 *   tool does not run and throws a CallDeniedError, whose message the model reads as the call's error (the
 *   step's other calls run). `stop`: as deny with a LoopStoppedError, and the next `processInputStep` ends
 *   the run before the model is called again (`abort`: the result's `tripwire` has the stop decision as its
 *   metadata). Warnings (and `ask`: processors have no approval step) reach the model as a system message at
 *   its next step.
 * - `processOutputStep` only checks that the processor is an input processor too (it throws otherwise).
 * - `processInput` leaves the run's messages as they are on Mastra 1.x, and ends the run on Mastra 0.x
 *   before the model is called (its `abort`: the result's tripwire reason says to install 1.x), since 0.x
 *   never calls `processInputStep` (the processor would check nothing there, silently); so it does on 1.0
 *   and 1.1, which give processors no `state` (where a run keeps its session: each step failed with a
 *   TypeError reading it).
 * - A run started on a session loopwatch already stopped throws a SessionStoppedError.
 */
import { CallDeniedError, LoopStoppedError, SessionStoppedError } from '../errors.js';
import type { HostReach } from '../live/host-message.js';
import type { LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, denialText, runChecked, withOwn } from './shared.js';

/** Mastra's abort: throws its TripWire. */
export type MastraAbort = (reason?: string, options?: { retry?: boolean; metadata?: LiveDecision }) => never;

/** A system message (Mastra's CoreMessage with role system). */
export interface MastraSystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** What loopwatch reads of every processor method's arguments. */
interface MastraContext {
  readonly abort: MastraAbort;
  readonly state: Record<string, unknown>;
  readonly requestContext?: unknown;
}

/** A tool call's options as Mastra passes them to a tool's `execute`, as far as loopwatch reads them. */
interface ExecuteOptions {
  readonly toolCallId?: string;
}

/** The processor loopwatchProcessor returns: an input processor (and an output processor, see the module comment). */
export interface LoopwatchProcessor {
  readonly id: 'loopwatch';
  readonly name: string;
  /** Mastra 1.x: the run's messages as they are. Mastra 0.x (no messageList): ends the run, see MASTRA_0_MESSAGE. */
  processInput<L>(args: { readonly messageList: L }): L;
  processInputStep<S>(args: MastraContext & { readonly tools?: Record<string, unknown>; readonly systemMessages: readonly S[] }): { tools?: Record<string, unknown>; systemMessages?: (S | MastraSystemMessage)[] };
  processOutputStep<L>(args: MastraContext & { readonly messageList: L }): L;
}

/** The run's session: a name, or a function of Mastra's request context. */
export type MastraSession = string | ((requestContext: unknown) => string);

/** What one run (one generate or stream call) keeps in the processor's state. */
interface RunState {
  readonly session: string;
  notes: string[];
}

/** loopwatch as a Mastra processor (see the module comment): add it to the agent's `inputProcessors`, last. */
export function loopwatchProcessor(guard: AdapterGuard, session: MastraSession): LoopwatchProcessor {
  const runOf = (ctx: MastraContext): RunState | undefined => ctx.state?.loopwatch as RunState | undefined;
  const start = (ctx: MastraContext): RunState => {
    const name = typeof session === 'string' ? session : session(ctx.requestContext);
    const earlier = guard.stopped(name);
    if (earlier !== undefined) throw new SessionStoppedError(earlier);
    const r: RunState = { session: name, notes: [] };
    ctx.state.loopwatch = r;
    return r;
  };

  return {
    id: 'loopwatch',
    name: 'loopwatch',
    processInput(args) {
      // Mastra 1.x hands every input processor the run's messageList; 0.x (what npm installs on Node 20 unless
      // told @mastra/core@1) hands it only messages, and never calls processInputStep: no call would be checked
      // (0.x wraps a thrown error into "Input processor error" without its message: its abort keeps the reason)
      if ((args as { messageList?: unknown }).messageList === undefined) refuse(args, MASTRA_0_MESSAGE);
      // 1.0 and 1.1 call processInputStep but give processors no state, where a run's session is kept
      if (!hasState(args)) refuse(args, MASTRA_1_1_MESSAGE);
      return args.messageList;
    },
    processInputStep(args) {
      if (!hasState(args)) refuse(args, MASTRA_1_1_MESSAGE);
      const r = runOf(args) ?? start(args);
      const stop = guard.stopped(r.session);
      if (stop !== undefined) args.abort(denialText(stop), { metadata: stop });
      const notes = r.notes;
      r.notes = [];
      return {
        ...(args.tools === undefined ? {} : { tools: guardedTools(args.tools, guard, r) }),
        ...(notes.length === 0 ? {} : { systemMessages: [...args.systemMessages, { role: 'system', content: notes.join('\n\n') } as const] }),
      };
    },
    processOutputStep(args) {
      if (runOf(args) === undefined) throw new TypeError('loopwatch: add the processor to the agent\'s inputProcessors: it checks each call in the tools it hands Mastra there');
      return args.messageList;
    },
  };
}

/** What a run on Mastra 0.x fails with: its processors have no processInputStep, where loopwatch checks each call. */
const MASTRA_0_MESSAGE =
  "loopwatch: loopwatchProcessor needs @mastra/core 1.2 or newer: this Mastra calls no processor's processInputStep, where loopwatch checks each call, so none would be checked (on Node 20, npm installs @mastra/core 0.24 unless told: npm install @mastra/core@1)";

/** What a run on Mastra 1.0 or 1.1 fails with: its processors are given no `state`, where a run keeps its session. */
const MASTRA_1_1_MESSAGE =
  "loopwatch: loopwatchProcessor needs @mastra/core 1.2 or newer: this Mastra gives processors no state, where loopwatch keeps each run's session between its steps (npm install @mastra/core@latest)";

/** Whether Mastra gave the processor the run's `state` (1.2 and newer). */
function hasState(args: unknown): boolean {
  const state = (args as { state?: unknown }).state;
  return typeof state === 'object' && state !== null;
}

/** Ends the run before the model is called: Mastra's abort (its tripwire keeps the reason), else a TypeError. */
function refuse(args: unknown, message: string): never {
  const abort = (args as { abort?: unknown }).abort;
  if (typeof abort === 'function') (abort as (reason: string) => never)(message);
  throw new TypeError(message);
}

/** Processors have no approval step: an ask runs the call, and its message does not say a human was asked. */
const MASTRA_REACH: HostReach = Object.freeze({ stop: 'run', asks: false });

/** The step's tools, each one with an `execute` wrapped to be checked by loopwatch. */
function guardedTools(tools: Record<string, unknown>, guard: AdapterGuard, r: RunState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = typeof tool === 'object' && tool !== null ? (tool as { execute?: unknown }).execute : undefined;
    if (typeof execute !== 'function') {
      out[name] = tool;
      continue;
    }
    const guarded = async (input: unknown, options?: ExecuteOptions): Promise<unknown> => {
      const c = await runChecked(guard, r.session, { id: options?.toolCallId, tool: name, args: input }, () => (execute as (i: unknown, o?: ExecuteOptions) => unknown).call(tool, input, options), undefined, MASTRA_REACH);
      if (c.blocked !== undefined) throw c.blocked.action === 'stop' ? new LoopStoppedError(c.blocked) : new CallDeniedError(c.blocked);
      r.notes.push(...c.notes);
      if (c.failed) throw c.error;
      return c.value;
    };
    out[name] = withOwn(tool as object, { execute: guarded });
  }
  return out;
}
