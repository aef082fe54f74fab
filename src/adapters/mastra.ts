/**
 * loopwatch for Mastra agents (`@mastra/core`, which needs Node 22): a Processor, with structural types
 * written from Mastra's Processor interface and no import of it. Tested against a stand-in of Mastra's agent
 * loop (test/helpers/mastra-loop.ts), not Mastra itself: Mastra cannot run on the Node 20 loopwatch supports.
 *
 * Add it to the agent's `inputProcessors` and `outputProcessors` both:
 * - `processOutputStep` (after the model answered, before its tools run): each tool call is proposed.
 *   Mastra blocks a step, not one call: `deny` is `abort(reason, { retry: true })` (the step's calls do not
 *   run; the model is asked again with the reason as feedback; needs the agent's `maxProcessorRetries`,
 *   without which Mastra ends the run instead), `stop` is `abort(reason)` (the run ends with a tripwire whose
 *   metadata is the stop decision; `guard.stopped(session)` says the same). Processors have no approval
 *   step, so `ask` is shown to the model as `warn` is.
 * - `processToolResult` (after a tool returned): the outcome is recorded.
 * - `processInputStep` (before the next model call): tool errors of the last step are recorded (Mastra does
 *   not call processToolResult for them), and warnings go to the model as a system message.
 */
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, denialText, notesOf, outcomeText } from './shared.js';

/** Mastra's abort: throws its TripWire. */
export type MastraAbort = (reason?: string, options?: { retry?: boolean; metadata?: LiveDecision }) => never;

/** A tool call as processOutputStep gets it (Mastra's ToolCallInfo). */
export interface MastraToolCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
}

/** What every processor method gets, as far as loopwatch reads it. */
interface MastraContext {
  readonly abort: MastraAbort;
  readonly state: Record<string, unknown>;
  readonly requestContext?: unknown;
}

/** A system message (Mastra's CoreMessage with role system). */
export interface MastraSystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** A step's content part, as far as loopwatch reads it (tool errors). */
interface StepPart {
  readonly type: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly error?: unknown;
}

/** The processor methods loopwatch implements, with the arguments it reads. */
export interface LoopwatchProcessor {
  readonly id: 'loopwatch';
  readonly name: string;
  processOutputStep<L>(args: MastraContext & { readonly toolCalls?: readonly MastraToolCall[]; readonly messageList: L }): L;
  processToolResult(args: MastraContext & MastraToolCall & { readonly result: unknown }): undefined;
  processInputStep(args: MastraContext & { readonly steps: readonly { readonly content?: readonly StepPart[] }[]; readonly systemMessages: readonly MastraSystemMessage[] }): { systemMessages: MastraSystemMessage[] } | undefined;
}

/** The run's session: a name, or a function of Mastra's request context. */
export type MastraSession = string | ((requestContext: unknown) => string);

interface RunState {
  notes: string[];
  proposals: Map<string, LiveDecision>;
}

/** loopwatch as a Mastra processor (see the module comment). */
export function loopwatchProcessor(guard: AdapterGuard, session: MastraSession): LoopwatchProcessor {
  const sessionOf = (ctx: MastraContext): string => (typeof session === 'string' ? session : session(ctx.requestContext));
  const run = (ctx: MastraContext): RunState => {
    const s = ctx.state.loopwatch as RunState | undefined;
    return s ?? ((ctx.state.loopwatch = { notes: [], proposals: new Map() }) as RunState);
  };
  const call = (c: MastraToolCall): LiveCall => ({ id: c.toolCallId, tool: c.toolName, args: c.args });

  return {
    id: 'loopwatch',
    name: 'loopwatch',
    processOutputStep(args) {
      const r = run(args);
      for (const c of args.toolCalls ?? []) {
        const d = guard.propose(sessionOf(args), call(c));
        if (d.action === 'deny') args.abort(denialText(d), { retry: true, metadata: d });
        if (d.action === 'stop') args.abort(denialText(d), { metadata: d });
        r.proposals.set(c.toolCallId, d);
      }
      return args.messageList;
    },
    processToolResult(args) {
      const r = run(args);
      const p = r.proposals.get(args.toolCallId);
      r.proposals.delete(args.toolCallId);
      r.notes.push(...notesOf(p, guard.record(sessionOf(args), { ...call(args), result: outcomeText(args.result) })));
      return undefined;
    },
    processInputStep(args) {
      const r = run(args);
      for (const part of args.steps.at(-1)?.content ?? []) {
        const p = part.type === 'tool-error' && part.toolCallId !== undefined ? r.proposals.get(part.toolCallId) : undefined;
        if (p === undefined) continue;
        r.proposals.delete(part.toolCallId as string);
        const recorded = guard.record(sessionOf(args), { ...call({ toolCallId: part.toolCallId as string, toolName: part.toolName ?? '', args: part.input }), error: outcomeText(part.error) });
        r.notes.push(...notesOf(p, recorded));
      }
      if (r.notes.length === 0) return undefined;
      const content = r.notes.join('\n\n');
      r.notes = [];
      return { systemMessages: [...args.systemMessages, { role: 'system', content }] };
    },
  };
}
