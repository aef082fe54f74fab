/**
 * A stand-in for Mastra's agent loop (`@mastra/core` needs Node 22, so the real one cannot run here), doing
 * what Mastra's loop does with a processor, in its order (read from Mastra's source: the agentic loop's
 * LLM-execution step and the ProcessorRunner):
 *
 *   each step:  processInputStep(steps, systemMessages, state)   -> the system messages the model gets
 *               model answers with tool calls
 *               processOutputStep(toolCalls, state, abort)        -> abort throws a TripWire:
 *                   retry and retries left: the step is dropped (its calls do not run), the model is asked
 *                   again with "[Processor Feedback] Your previous response was not accepted: <reason>. ...";
 *                   otherwise the run ends with `tripwire` { reason, retry, metadata, processorId }
 *               each tool runs; a result goes through processToolResult, a thrown error becomes a
 *               `tool-error` part of the step (processToolResult is not called for it)
 */
import type { LoopwatchProcessor, MastraSystemMessage, MastraToolCall } from '../../src/adapters/mastra.js';

/** Mastra's TripWire: the error abort() throws. */
export class TripWire extends Error {
  constructor(reason: string, readonly options: { retry?: boolean; metadata?: unknown } = {}, readonly processorId?: string) {
    super(reason);
  }
}

/** What the stand-in model is given at a step, and answers. */
export interface StepInput {
  readonly system: readonly MastraSystemMessage[];
  readonly messages: readonly unknown[];
}

/** The run's outcome, as Mastra's result has it. */
export interface LoopResult {
  readonly steps: { content: { type: string; toolCallId?: string; toolName?: string; input?: unknown; output?: unknown; error?: unknown }[] }[];
  readonly tripwire?: { reason: string; retry?: boolean; metadata?: unknown; processorId?: string };
  readonly text?: string;
}

/** Runs the loop: `model(step, input)` gives the step's tool calls (none: the final answer). */
export async function runMastraLoop(options: {
  processor: LoopwatchProcessor;
  model: (step: number, input: StepInput) => MastraToolCall[];
  tools: Record<string, (args: unknown, toolCallId: string) => unknown>;
  maxProcessorRetries?: number;
  maxSteps?: number;
}): Promise<LoopResult> {
  const { processor } = options;
  const state: Record<string, unknown> = {};
  const abort = (reason?: string, o?: { retry?: boolean; metadata?: unknown }): never => {
    throw new TripWire(reason ?? '', o ?? {}, processor.id);
  };
  const steps: LoopResult['steps'] = [];
  const messages: unknown[] = [{ role: 'user', content: 'work' }];
  let retryCount = 0;
  for (let step = 0; step < (options.maxSteps ?? 100); step++) {
    const input = processor.processInputStep({ abort, state, steps, systemMessages: [{ role: 'system', content: 'You are a worker.' }] });
    const system = input?.systemMessages ?? [{ role: 'system', content: 'You are a worker.' }];
    const toolCalls = options.model(step, { system, messages: [...messages] });
    if (toolCalls.length === 0) return { steps, text: 'done' };
    try {
      processor.processOutputStep({ abort, state, toolCalls, messageList: messages });
    } catch (e) {
      if (!(e instanceof TripWire)) throw e;
      if (e.options.retry === true && retryCount < (options.maxProcessorRetries ?? -1)) {
        retryCount++;
        messages.push({ role: 'system', content: `[Processor Feedback] Your previous response was not accepted: ${e.message}. Please try again with the feedback in mind.` });
        steps.push({ content: [] });
        continue;
      }
      return { steps, tripwire: { reason: e.message, retry: e.options.retry, metadata: e.options.metadata, processorId: e.processorId } };
    }
    const content: LoopResult['steps'][number]['content'] = [];
    for (const c of toolCalls) {
      content.push({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: c.args });
      try {
        const output = await (options.tools[c.toolName] as (args: unknown, id: string) => unknown)(c.args, c.toolCallId);
        processor.processToolResult({ abort, state, ...c, result: output });
        content.push({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, input: c.args, output });
        messages.push({ role: 'tool', toolCallId: c.toolCallId, content: output });
      } catch (error) {
        content.push({ type: 'tool-error', toolCallId: c.toolCallId, toolName: c.toolName, input: c.args, error });
        messages.push({ role: 'tool', toolCallId: c.toolCallId, content: String(error) });
      }
    }
    steps.push({ content });
  }
  return { steps };
}
