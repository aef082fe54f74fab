/**
 * loopwatch for the Anthropic TypeScript SDK's tool runner (`client.beta.messages.toolRunner`), with
 * structural types and no import of the SDK.
 *
 * `guardTools(tools, guard, session, options)` takes the runner's own `tools` list (runnable tools, runnable
 * toolsets and server tools mixed) and wraps each runnable tool's and toolset's `run`, leaving server tools
 * as they are (class-based tools keep their prototype: the wrapper is a new object over the original):
 * - the call is proposed before it runs and recorded after (the result, or the error it threw);
 * - `warn`: the message is appended to the result the model reads (a text block for content-block results);
 * - `ask`: the tool runner has no approval step, so `options.approve(decision)` is asked when given (false:
 *   denied); without it the call runs and the model reads the message, as for `warn`;
 * - `deny`: the tool does not run; it throws, and the runner sends the model `Error: <why>` with `is_error`;
 * - `stop`: as deny; the runner's loop then ends before its next request, whether or not you gave a
 *   `controller`: the runner serializes its tools for every request (a tool's `toJSON`), and a guarded
 *   tool's throws the LoopStoppedError there, so the runner rejects with it. `options.controller`, when
 *   given, is aborted with the same error at once, which also cancels the calls and streams still running.
 *
 * The session is the tools': guard the tools per run. A run on a session stopped before it (guarded tools
 * handed to a new run after their stop, or tools guarded for a session restored stopped) throws a
 * SessionStoppedError before its first request, as every adapter's run does; LoopStoppedError is the stop
 * of the run that looped.
 */
import { CallDeniedError, LoopStoppedError, SessionStoppedError } from '../errors.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AbortControllerLike, type AdapterGuard, errorWithNotes, runChecked, withNotes, withOwn } from './shared.js';

/** The parts of a runnable tool guardTools touches (parameters typed `never`, so any tool's `run` fits). */
export interface AnthropicRunnableTool {
  readonly name: string;
  readonly run: (args: never, context?: never) => unknown;
}

/** What the tool runner passes a tool's `run` (the SDK's BetaToolRunContext, as far as loopwatch reads it). */
interface RunContext {
  readonly toolUse?: { readonly id?: string };
}

/** A toolset's member call (the SDK's BetaToolUseBlock with its `toolset_name`). */
interface ToolsetUse {
  readonly id?: string;
  readonly name?: string;
  readonly toolset_name?: string | null;
  readonly input?: unknown;
}

/** Options of guardTools. */
export interface AnthropicGuardOptions {
  /** Aborted with the LoopStoppedError when loopwatch stops the run (pass its `signal` in the runner's request options). @default none */
  readonly controller?: AbortControllerLike;
  /** Asked on `ask` (the call runs only when it resolves true). @default none: the call runs with the message */
  readonly approve?: (decision: LiveDecision) => boolean | PromiseLike<boolean>;
}

type Run = (call: LiveCall, run: () => unknown) => Promise<unknown>;

/**
 * The tools, each runnable tool's and toolset's `run` checked by loopwatch (see the module comment); takes
 * and returns the tool runner's `tools` list as it is typed (`BetaToolRunnerParams['tools']`).
 */
export function guardTools<T extends object>(tools: readonly T[], guard: AdapterGuard, session: string, options: AnthropicGuardOptions = {}): T[] {
  // this run's own stop ends it with a LoopStoppedError once; any other stop (a later run's, or one the
  // session had before these tools were guarded: a restored snapshot's) is a SessionStoppedError
  let stoppedHere = false;
  const checked: Run = async (call, run) => {
    const p = guard.propose(session, call);
    const refused = p.action === 'ask' && options.approve !== undefined && !(await options.approve(p));
    // without `approve`, an ask runs the call and no human was asked
    const c = await runChecked(guard, session, call, run, refused ? { ...p, action: 'deny' } : p, { stop: 'run', asks: options.approve !== undefined });
    if (c.blocked !== undefined) {
      if (c.blocked.action !== 'stop') throw new CallDeniedError(c.blocked);
      const stop = new LoopStoppedError(c.blocked);
      stoppedHere = true;
      options.controller?.abort(stop);
      throw stop;
    }
    if (c.failed) throw errorWithNotes(c.error, c.notes);
    return withContentNotes(c.value, c.notes);
  };
  // the runner's loop ends here: it serializes its tools before each request
  const toJSON = (tool: object) => (): unknown => {
    const stop = guard.stopped(session);
    if (stop !== undefined) {
      const first = stoppedHere;
      stoppedHere = false;
      throw first ? new LoopStoppedError(stop) : new SessionStoppedError(stop);
    }
    const own = (tool as { toJSON?: unknown }).toJSON;
    return typeof own === 'function' ? (own as () => unknown).call(tool) : tool;
  };

  return tools.map((tool) => {
    const run = (tool as { run?: unknown }).run;
    if (typeof run !== 'function') return tool; // a server tool: nothing runs here
    if (!('name' in tool)) {
      // a runnable toolset (browser, computer): run(context, toolUse) for each member call
      const guarded = (context: unknown, use: ToolsetUse): Promise<unknown> =>
        checked({ id: use?.id, tool: `${use?.toolset_name ?? 'toolset'}.${use?.name ?? ''}`, args: use?.input }, () => run.call(tool, context, use));
      return withOwn(tool, { run: guarded, toJSON: toJSON(tool) });
    }
    const name = String((tool as { name: unknown }).name);
    const guarded = (args: unknown, context?: RunContext): Promise<unknown> => checked({ id: context?.toolUse?.id, tool: name, args }, () => run.call(tool, args, context));
    return withOwn(tool, { run: guarded, toJSON: toJSON(tool) });
  });
}

/** A tool's result (text, or content blocks) with the notes for the model appended. */
function withContentNotes(value: unknown, notes: readonly string[]): unknown {
  if (notes.length === 0) return value;
  if (typeof value === 'string') return withNotes(value, notes);
  if (Array.isArray(value)) return [...(value as unknown[]), ...notes.map((text) => ({ type: 'text', text }))];
  return value;
}
