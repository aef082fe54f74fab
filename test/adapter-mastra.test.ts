/**
 * loopwatch/mastra against a stand-in of Mastra's agent loop (test/helpers/mastra-loop.ts; @mastra/core needs
 * Node 22): a stuck model is warned (a system message at its next step), then denied (the step is rejected
 * with the reason as feedback, its call does not run), then the run ends with a tripwire carrying the stop
 * decision; legitimate work is never denied; an error inside loopwatch never breaks the run.
 */
import { describe, expect, it } from 'vitest';
import { loopwatchProcessor } from '../src/adapters/mastra.js';
import type { MastraToolCall } from '../src/adapters/mastra.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { runMastraLoop } from './helpers/mastra-loop.js';
import type { StepInput } from './helpers/mastra-loop.js';
import { Script, SpyGuard, brokenGuard, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

// --- Mastra's Processor shapes, written out (from @mastra/core's processors/index.ts) ---------------------
interface MessageList {
  readonly kind: 'message-list';
}
interface ProcessorContext {
  abort: (reason?: string, options?: { retry?: boolean; metadata?: unknown }) => never;
  requestContext?: { get(key: string): unknown };
  retryCount: number;
  state: Record<string, unknown>;
}
interface ProcessOutputStepArgs extends ProcessorContext {
  messages: unknown[];
  messageList: MessageList;
  stepNumber: number;
  finishReason?: string;
  toolCalls?: { toolName: string; toolCallId: string; args: unknown }[];
  text?: string;
  systemMessages: { role: 'system'; content: string }[];
  steps: { content: { type: string; toolCallId: string; toolName: string; input: unknown; error?: unknown }[] }[];
}
interface ProcessToolResultArgs extends ProcessorContext {
  messages: unknown[];
  messageList: MessageList;
  stepNumber: number;
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
  systemMessages: { role: 'system'; content: string }[];
  steps: ProcessOutputStepArgs['steps'];
}
interface ProcessInputStepArgs extends Omit<ProcessOutputStepArgs, 'toolCalls' | 'text' | 'finishReason'> {
  runId?: string;
  tools?: Record<string, unknown>;
}
interface MastraProcessor {
  readonly id: string;
  readonly name?: string;
  processOutputStep?(args: ProcessOutputStepArgs): Promise<MessageList | unknown[]> | MessageList | unknown[];
  processToolResult?(args: ProcessToolResultArgs): Promise<MessageList | unknown[] | undefined | void> | MessageList | unknown[] | void | undefined;
  processInputStep?(args: ProcessInputStepArgs): Promise<{ systemMessages?: { role: 'system'; content: string }[] } | MessageList | undefined | void> | { systemMessages?: { role: 'system'; content: string }[] } | MessageList | void | undefined;
}
// -----------------------------------------------------------------------------------------------------

async function play(s: LiveScenario, spy: SpyGuard, session: string, maxProcessorRetries = 10) {
  const script = new Script(s.calls);
  const inputs: StepInput[] = [];
  const model = (step: number, input: StepInput): MastraToolCall[] => {
    inputs.push(input);
    const c = script.calls[step];
    return c === undefined ? [] : [{ toolCallId: Script.id(step), toolName: c.tool, args: c.args }];
  };
  const tools = Object.fromEntries(script.tools.map((name) => [name, (_args: unknown, id: string) => script.run(Script.index(id))]));
  const result = await runMastraLoop({ processor: loopwatchProcessor(spy, session), model, tools, maxProcessorRetries });
  return { script, inputs, result };
}

describe("loopwatch/mastra (a stand-in of Mastra's agent loop)", () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, inputs, result } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, inputs, 'run-1');
    expect(result.tripwire).toMatchObject({ reason: stop.message, processorId: 'loopwatch', metadata: stop });
    expect(result.tripwire?.retry).toBeUndefined();
    spy.inner.close();
  });

  it('should end the run at the first deny when the agent allows no processor retries', async () => {
    const spy = new SpyGuard();
    const { result } = await play(STUCK[0] as LiveScenario, spy, 'run-2', 0);
    expect(result.tripwire).toMatchObject({ retry: true, metadata: { action: 'deny' } });
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, result } = await play(s, spy, 'run-3');
    expectLegitimateRun(spy, script, 'run-3');
    expect(result.text).toBe('done');
    spy.inner.close();
  });

  it('should fail open when loopwatch itself fails: every call runs, one report', async () => {
    const s = STUCK[0] as LiveScenario;
    const { guard, errors } = brokenGuard(['bash']);
    const { script, result } = await play(s, guard, 'run-4');
    expectFailedOpenRun(guard, errors, script);
    expect(result.text).toBe('done');
    guard.inner.close();
  });

  it("should fit Mastra's Processor interface", () => {
    const spy = new SpyGuard();
    const processor: MastraProcessor = loopwatchProcessor(spy, 's');
    expect(processor.id).toBe('loopwatch');
    spy.inner.close();
  });

  it('should name the session from the request context when given a function', async () => {
    const spy = new SpyGuard();
    const p = loopwatchProcessor(spy, (ctx) => `thread-${(ctx as { id: string }).id}`);
    p.processOutputStep({ abort: () => { throw new Error('no'); }, state: {}, requestContext: { id: '7' }, toolCalls: [{ toolCallId: 'a', toolName: 'read', args: {} }], messageList: [] });
    expect(spy.decisions[0]?.session).toBe('thread-7');
    spy.inner.close();
  });
});
