/**
 * loopwatch for the Anthropic TypeScript SDK's tool runner (`client.beta.messages.toolRunner`), with
 * structural types and no import of the SDK.
 *
 * `guardTools(tools, guard, session, { controller })` wraps each runnable tool's `run`:
 * - the call is proposed before it runs and recorded after (the result, or the error it threw);
 * - `warn`: the message is appended to the result the model reads (a text block for content-block results);
 * - `ask`: the tool runner has no approval step, so `options.approve(decision)` is asked when given (false:
 *   denied); without it the call runs and the model reads the message, as for `warn`;
 * - `deny`: the tool does not run; it throws, and the runner sends the model `Error: <why>` with `is_error`;
 * - `stop`: as deny, and `controller` (the AbortController whose signal you pass to the runner's request
 *   options) is aborted with a LoopStoppedError, so the run ends (the runner rejects with the SDK's
 *   APIUserAbortError; `controller.signal.reason` or `guard.stopped(session)` gives the stop decision).
 */
import { CallDeniedError, LoopStoppedError } from '../errors.js';
import type { LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, errorWithNotes, runChecked, withNotes } from './shared.js';

/** The parts of a runnable tool guardTools touches (parameters typed `never`, so any tool's `run` fits). */
export interface AnthropicRunnableTool {
  readonly name: string;
  readonly run: (args: never, context?: never) => unknown;
}

/** What the tool runner passes a tool's `run` (the SDK's BetaToolRunContext, as far as loopwatch reads it). */
interface RunContext {
  readonly toolUse?: { readonly id?: string };
}

/** Options of guardTools. */
export interface AnthropicGuardOptions {
  /** Aborted with a LoopStoppedError when loopwatch stops the run: pass its `signal` in the runner's request options. */
  readonly controller?: AbortController;
  /** Asked on `ask` (the call runs only when it resolves true). @default none: the call runs with the message */
  readonly approve?: (decision: LiveDecision) => boolean | PromiseLike<boolean>;
}

/** The tools, each one's `run` checked by loopwatch (see the module comment). */
export function guardTools<T extends AnthropicRunnableTool>(tools: readonly T[], guard: AdapterGuard, session: string, options: AnthropicGuardOptions = {}): T[] {
  return tools.map((tool) => {
    const run = tool.run as (args: unknown, context?: RunContext) => unknown;
    const guarded = async (args: unknown, context?: RunContext): Promise<unknown> => {
      const call = { id: context?.toolUse?.id, tool: tool.name, args };
      const p = guard.propose(session, call);
      const refused = p.action === 'ask' && options.approve !== undefined && !(await options.approve(p));
      const c = await runChecked(guard, session, call, () => run(args, context), refused ? { ...p, action: 'deny' } : p);
      if (c.blocked !== undefined) {
        if (c.blocked.action !== 'stop') throw new CallDeniedError(c.blocked);
        const stop = new LoopStoppedError(c.blocked);
        options.controller?.abort(stop);
        throw stop;
      }
      if (c.failed) throw errorWithNotes(c.error, c.notes);
      return withContentNotes(c.value, c.notes);
    };
    return { ...tool, run: guarded };
  });
}

/** A tool's result (text, or content blocks) with the notes for the model appended. */
function withContentNotes(value: unknown, notes: readonly string[]): unknown {
  if (notes.length === 0) return value;
  if (typeof value === 'string') return withNotes(value, notes);
  if (Array.isArray(value)) return [...(value as unknown[]), ...notes.map((text) => ({ type: 'text', text }))];
  return value;
}
