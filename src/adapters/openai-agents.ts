/**
 * loopwatch for the OpenAI Agents SDK (`@openai/agents`), with structural types and no import of it.
 *
 * `guardTools(tools, guard, session)` returns copies of the function tools with loopwatch in the SDK's own
 * places (other tools unchanged; the tool functions themselves are not touched):
 * - `needsApproval`: the call is proposed; `ask` asks for approval (the run's interruption, as for any tool);
 * - a tool input guardrail (first): `deny` is `rejectContent(message)` (the tool does not run, the model
 *   reads the message), `stop` is `throwException`: the run throws (a ToolCallError wrapping the SDK's
 *   ToolInputGuardrailTripwireTriggered); `stopDecisionOf(error)` or `guard.stopped(session)` gives the stop decision;
 * - a tool output guardrail (last): the outcome is recorded; a warning is added to the output the model reads.
 */
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, ProposalMemo, denialText, notesOf, outcomeText, withNotes } from './shared.js';

/** A tool guardrail's answer (the SDK's ToolGuardrailFunctionOutput). */
export interface AgentsGuardrailOutput {
  readonly behavior: { type: 'allow' } | { type: 'rejectContent'; message: string } | { type: 'throwException' };
  readonly outputInfo?: LiveDecision;
}

/** The function call a tool guardrail is given (the SDK's FunctionCallItem, as far as loopwatch reads it). */
export interface AgentsFunctionCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/** A tool guardrail as the SDK runs it. */
export interface AgentsToolGuardrail<D> {
  readonly type: 'tool_input' | 'tool_output';
  readonly name: string;
  readonly run: (data: D) => Promise<AgentsGuardrailOutput>;
}

/** The parts of an SDK tool guardTools reads and replaces (parameters typed `never`, so any tool fits). */
export interface AgentsTool {
  readonly type: string;
  readonly name?: string;
  readonly needsApproval?: (runContext: never, input: never, callId?: string) => Promise<boolean>;
  readonly inputGuardrails?: readonly unknown[];
  readonly outputGuardrails?: readonly unknown[];
}

type Approval = (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;

/** Names of loopwatch's guardrails, as they appear in the SDK's traces and results. */
export const GUARDRAIL_NAMES = Object.freeze({ input: 'loopwatch-propose', output: 'loopwatch-record' });

/** The tools, function tools checked by loopwatch (see the module comment). */
export function guardTools<T extends AgentsTool>(tools: readonly T[], guard: AdapterGuard, session: string): T[] {
  const memo = new ProposalMemo(guard, session);
  const call = (c: AgentsFunctionCall): LiveCall => ({ id: c.callId, tool: c.name, args: parseArgs(c.arguments) });

  const propose: AgentsToolGuardrail<{ toolCall: AgentsFunctionCall }> = {
    type: 'tool_input',
    name: GUARDRAIL_NAMES.input,
    run: async ({ toolCall }) => {
      const d = memo.propose(call(toolCall));
      if (d.action === 'deny') memo.take(toolCall.callId);
      if (d.action === 'stop') {
        memo.take(toolCall.callId);
        return { behavior: { type: 'throwException' }, outputInfo: d };
      }
      return d.action === 'deny' ? { behavior: { type: 'rejectContent', message: denialText(d) }, outputInfo: d } : { behavior: { type: 'allow' } };
    },
  };
  const record: AgentsToolGuardrail<{ toolCall: AgentsFunctionCall; output: unknown }> = {
    type: 'tool_output',
    name: GUARDRAIL_NAMES.output,
    run: async ({ toolCall, output }) => {
      const text = outcomeText(output);
      const notes = notesOf(memo.take(toolCall.callId), guard.record(session, { ...call(toolCall), result: text }));
      return notes.length === 0 ? { behavior: { type: 'allow' } } : { behavior: { type: 'rejectContent', message: withNotes(text, notes) } };
    },
  };

  return tools.map((tool) => {
    if (tool.type !== 'function') return tool;
    const own = tool.needsApproval as Approval | undefined;
    const needsApproval: Approval = async (ctx, input, callId) => {
      const asks = callId !== undefined && memo.propose({ id: callId, tool: tool.name ?? '', args: input }).action === 'ask';
      return asks || (own !== undefined && (await own(ctx, input, callId)));
    };
    return { ...tool, needsApproval, inputGuardrails: [propose, ...(tool.inputGuardrails ?? [])], outputGuardrails: [...(tool.outputGuardrails ?? []), record] };
  });
}

/** The stop decision behind an error a run threw when loopwatch's guardrail stopped it, else undefined. */
export function stopDecisionOf(error: unknown): LiveDecision | undefined {
  let e = error;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const r = (e as { result?: { guardrail?: { name?: unknown }; output?: { outputInfo?: LiveDecision } } }).result;
    if (r?.guardrail?.name === GUARDRAIL_NAMES.input) return r.output?.outputInfo;
    e = (e as { error?: unknown; cause?: unknown }).error ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A function call's arguments: the JSON the model wrote, parsed, or the text itself when it is not JSON. */
function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
