/**
 * loopwatch for the OpenAI Agents SDK (`@openai/agents`), with structural types and no import of it.
 *
 * `guardTools(tools, guard, session?)` returns copies of the function tools with loopwatch in the SDK's own
 * places (other tools unchanged):
 * - `needsApproval`: the call is proposed; `ask` asks for approval (the run's interruption, as for any tool);
 * - a tool input guardrail (first): `deny` is `rejectContent(message)` (the tool does not run, the model
 *   reads the message), `stop` is `throwException`: the run throws (a ToolCallError wrapping the SDK's
 *   ToolInputGuardrailTripwireTriggered); `stopDecisionOf(error)` gives the stop decision;
 * - `invoke`: the outcome is recorded after the tool ran (the SDK's own text for a tool that threw, naming
 *   the call, as an error; a call the SDK's `timeoutMs` ended, as the error `Tool 'x' timed out after Nms.`,
 *   whose answer the Runner gives the model without loopwatch's warning); a warning is added to the output the model reads:
 *   appended to text, or as a text item beside structured output (an image or file stays what it is); for a
 *   tool that threw, put before the SDK's text, whose "Please try again." it replaces. A tool with an
 *   `outputSchema` keeps its output as it is, without the warning.
 *
 * Needs `@openai/agents` 0.3.8 or newer (tool guardrails came then): with an older SDK, whose Runner never runs
 * a tool's guardrails (loopwatch warned, but a call it blocked ran), a run fails at its first tool call,
 * before the tool runs, with a TypeError saying to upgrade.
 *
 * The session is the run's: each run (each RunContext) has its own unless `session` names one (a name, or a
 * function of the RunContext), so tools guarded once serve concurrent runs. A run started on a named session
 * loopwatch already stopped throws a SessionStoppedError.
 */
import { SessionStoppedError } from '../errors.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { type AdapterGuard, MAX_REMEMBERED_CALLS, ProposalMemo, denialText, notesOf, outcomeText, withNotes, withOwn } from './shared.js';

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
  readonly invoke?: (runContext: never, input: never, details?: never) => unknown;
  readonly inputGuardrails?: readonly unknown[];
}

/** The session of a run: a name for every run, or a function of the run's RunContext. @default one per run */
export type AgentsSession = string | ((runContext: unknown) => string);

type Approval = (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;
type Invoke = (runContext: unknown, input: string, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }) => unknown;

/** Names of loopwatch's guardrails, as they appear in the SDK's traces and results. */
export const GUARDRAIL_NAMES = Object.freeze({ input: 'loopwatch-propose' });

let runs = 0;

/** What a run on an SDK before 0.3.8 is told, at its first tool call, before the tool runs. */
const OLD_OPENAI_AGENTS =
  'loopwatch: guardTools needs @openai/agents 0.3.8 or newer: this SDK does not run a tool\'s input guardrails, so a call loopwatch blocked would run; the call was not run (npm install @openai/agents@latest)';

/** The tools, function tools checked by loopwatch (see the module comment). */
export function guardTools<T extends AgentsTool>(tools: readonly T[], guard: AdapterGuard, session?: AgentsSession): T[] {
  const named = new WeakMap<object, string>();
  const memos = new Map<string, ProposalMemo>();
  /** The run's session (and the memo of its proposals), fixed the first time the run is seen. */
  const runOf = (runContext: unknown): { session: string; memo: ProposalMemo } => {
    const key = typeof runContext === 'object' && runContext !== null ? runContext : named;
    let s = named.get(key);
    if (s === undefined) {
      s = session === undefined ? `openai-agents-run-${++runs}` : typeof session === 'string' ? session : session(runContext);
      const earlier = guard.stopped(s);
      if (earlier !== undefined) throw new SessionStoppedError(earlier);
      named.set(key, s);
    }
    let memo = memos.get(s);
    if (memo === undefined) {
      memo = new ProposalMemo(guard, s);
      memos.set(s, memo);
      if (memos.size > MAX_REMEMBERED_CALLS) memos.delete(memos.keys().next().value as string);
    }
    return { session: s, memo };
  };
  const call = (c: AgentsFunctionCall): LiveCall => ({ id: c.callId, tool: c.name, args: parseArgs(c.arguments) });
  // the calls loopwatch's guardrail saw: an SDK before 0.3.8 (whose tools have no inputGuardrails) never runs it
  const guarded = new Set<string>();

  const propose: AgentsToolGuardrail<{ toolCall: AgentsFunctionCall; context?: unknown }> = {
    type: 'tool_input',
    name: GUARDRAIL_NAMES.input,
    run: async ({ toolCall, context }) => {
      guarded.add(toolCall.callId);
      if (guarded.size > MAX_REMEMBERED_CALLS) guarded.delete(guarded.values().next().value as string);
      const { memo } = runOf(context);
      const d = memo.propose(call(toolCall));
      if (d.action !== 'deny' && d.action !== 'stop') return { behavior: { type: 'allow' } };
      memo.take(toolCall.callId);
      return d.action === 'stop' ? { behavior: { type: 'throwException' }, outputInfo: d } : { behavior: { type: 'rejectContent', message: denialText(d) }, outputInfo: d };
    },
  };

  return tools.map((tool) => {
    const invoke = tool.invoke as Invoke | undefined;
    if (tool.type !== 'function' || typeof invoke !== 'function') return tool;
    const own = tool.needsApproval as Approval | undefined;
    const typed = (tool as { outputSchema?: unknown }).outputSchema !== undefined;
    const sdkRunsGuardrails = 'inputGuardrails' in tool;
    const needsApproval: Approval = async (ctx, input, callId) => {
      const asks = callId !== undefined && runOf(ctx).memo.propose({ id: callId, tool: tool.name ?? '', args: input }).action === 'ask';
      return asks || (own !== undefined && (await own.call(tool, ctx, input, callId)));
    };
    const guardedInvoke: Invoke = async (ctx, input, details) => {
      const id = details?.toolCall?.callId;
      if (!sdkRunsGuardrails && (id === undefined || !guarded.delete(id))) throw new TypeError(OLD_OPENAI_AGENTS);
      const watch = watchTimeout(details?.signal);
      let out: unknown;
      try {
        out = await Promise.race([invoke.call(tool, ctx, input, details), watch.timedOut]);
      } finally {
        watch.stop();
      }
      const callId = details?.toolCall?.callId;
      const { session: s, memo } = runOf(ctx);
      const c: LiveCall = { id: callId, tool: tool.name ?? '', args: parseArgs(input) };
      if (out instanceof TimedOut) {
        // the Runner already answered the model with its timeout text: only the record is left to make
        notesOf(memo.take(callId), guard.record(s, { ...c, error: out.text }));
        return out.text;
      }
      const failure = failureOf(out, c.tool, input) ?? timeoutOf(out, c.tool, (tool as { timeoutMs?: unknown }).timeoutMs);
      const notes = notesOf(memo.take(callId), guard.record(s, { ...c, ...(failure ?? { result: outcomeText(out) }) }));
      if (typed) return out;
      return failure !== undefined && typeof out === 'string' ? failureWithNotes(out, notes) : withOutputNotes(out, notes);
    };
    return withOwn(tool, { needsApproval, invoke: guardedInvoke, inputGuardrails: [propose, ...(tool.inputGuardrails ?? [])] });
  });
}

/**
 * What a function tool's `invoke` returns when the tool threw and has no `errorFunction` of its own (the
 * SDK's default error function, a fixed text): the tool failed, and is recorded as failed (as a result, the
 * text's "Please try again" reads as a retry, and a tool failing again and again was blocked 3 runs later).
 */
const SDK_TOOL_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';

/** The SDK's fixed text for a tool that threw without its retry hint, as the model reads it after loopwatch's warning. */
const SDK_TOOL_FAILED = 'An error occurred while running the tool.';

/**
 * What the SDK's default error function returned in older releases (0.14.3 checked; 0.20 gives the fixed text alone): the fixed text, then
 * `Error: ` and the error's text. Read as a result, a tool failing again and again ran 6 times before it was
 * stopped, and no failure was seen as one.
 */
const SDK_TOOL_ERROR_PREFIX = `${SDK_TOOL_ERROR_TEXT} Error: `;

/**
 * The SDK's answer for a tool that threw, with loopwatch's notes for the model first and the SDK's retry hint
 * ("Please try again.") taken out when there are notes: the model was otherwise told to retry, then told it
 * was in a loop and to stop repeating the call. What the SDK says of the failure (and the error after it, as
 * older releases give it) stays, after the notes.
 */
function failureWithNotes(out: string, notes: readonly string[]): string {
  if (notes.length === 0) return out;
  return [...notes, `${SDK_TOOL_FAILED}${out.slice(SDK_TOOL_ERROR_TEXT.length)}`].join('\n\n');
}

/** The error to record when `out` is the SDK's answer for a tool that threw (its default error function), else undefined. */
function failureOf(out: unknown, tool: string, input: string): { error: string } | undefined {
  if (out === SDK_TOOL_ERROR_TEXT) return { error: hiddenError(tool, input) };
  if (typeof out === 'string' && out.startsWith(SDK_TOOL_ERROR_PREFIX) && out.length > SDK_TOOL_ERROR_PREFIX.length) return { error: out.slice(SDK_TOOL_ERROR_PREFIX.length) };
  return undefined;
}

/** A tool call the SDK's own per-tool timeout (`timeoutMs`) ended, with the SDK's text for it. */
class TimedOut {
  constructor(readonly text: string) {}
}

/**
 * Watches the signal the Runner gives a tool with `timeoutMs` (0.20 enforces the timeout around the tool, so
 * the tool's own invoke never returns when it times out: it is abandoned, or throws the SDK's
 * ToolTimeoutError after the Runner has answered the model with `Tool 'x' timed out after Nms.`). Before this,
 * a call timing out was not recorded at all, and a tool timing out again and again was never warned.
 * `timedOut` settles with the SDK's text when the signal is aborted by that timeout; other aborts are ignored.
 */
function watchTimeout(signal: AbortSignal | undefined): { timedOut: Promise<TimedOut>; stop: () => void } {
  if (signal === undefined || typeof signal?.addEventListener !== 'function') return { timedOut: new Promise<never>(() => {}), stop: () => {} };
  let onAbort = (): void => {};
  const timedOut = new Promise<TimedOut>((resolve) => {
    onAbort = () => {
      const text = timeoutTextOf(signal.reason);
      if (text !== undefined) resolve(new TimedOut(text));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { timedOut, stop: () => signal.removeEventListener('abort', onAbort) };
}

/** The SDK's text when `reason` is its ToolTimeoutError (read by shape: a tool name, a timeout, a message), else undefined. */
function timeoutTextOf(reason: unknown): string | undefined {
  if (typeof reason !== 'object' || reason === null) return undefined;
  const r = reason as { toolName?: unknown; timeoutMs?: unknown; message?: unknown };
  return typeof r.toolName === 'string' && typeof r.timeoutMs === 'number' && typeof r.message === 'string' ? r.message : undefined;
}

/**
 * The error to record when `out` is the SDK's text for a timed-out call, `Tool 'x' timed out after Nms.`, as
 * the tool's own invoke returns it when called outside the Runner (which enforces the timeout itself), else undefined.
 */
function timeoutOf(out: unknown, tool: string, timeoutMs: unknown): { error: string } | undefined {
  if (typeof timeoutMs !== 'number') return undefined;
  const text = `Tool '${tool}' timed out after ${timeoutMs}ms.`;
  return out === text ? { error: text } : undefined;
}

/**
 * The error recorded for a call the SDK answered with its fixed text: that text, naming the call by its tool
 * and a tag of its tool and arguments (eight letters, which error masking keeps as they are, where it masks
 * quoted parts, paths and numbers). The SDK withholds the real error, so calls that differ are not known to
 * fail the same way: recorded as the bare text, different calls that failed for different reasons (a missing
 * file, a command not found) read as "the same error 3 times", and the model was told it was stuck. The same
 * call failing again still fails the same way.
 */
function hiddenError(tool: string, input: string): string {
  return `${SDK_TOOL_ERROR_TEXT} (${tool} call ${letterTag(`${tool}\u0000${input}`)})`;
}

/** A 32-bit FNV-1a hash of `text`'s UTF-16 code units, written as eight letters `a`-`p`. */
function letterTag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  let tag = '';
  for (let k = 28; k >= 0; k -= 4) tag += String.fromCharCode(0x61 + ((h >>> k) & 15));
  return tag;
}

/** Tool output item types the SDK takes as structured output (text, image, file). */
const STRUCTURED = new Set(['text', 'image', 'file']);

function isStructured(value: unknown): boolean {
  return typeof value === 'object' && value !== null && STRUCTURED.has((value as { type?: unknown }).type as string);
}

/** A tool's output with the notes for the model: appended to text, or as text items beside structured output. */
function withOutputNotes(out: unknown, notes: readonly string[]): unknown {
  if (notes.length === 0) return out;
  const items = notes.map((text) => ({ type: 'text', text }));
  if (Array.isArray(out) && out.length > 0 && out.every(isStructured)) return [...out, ...items];
  if (isStructured(out)) return [out, ...items];
  return withNotes(typeof out === 'string' ? out : outcomeText(out), notes);
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
