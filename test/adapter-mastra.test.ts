/**
 * loopwatch/mastra through Mastra's own Agent loop (`@mastra/core` 1.x, its MastraLanguageModelV2Mock, tools
 * made with createTool): a stuck model is warned (a system message at its next step), then denied (the call
 * does not run, the model reads why as the call's error), then stopped (the stopped call does not run either,
 * and the run ends with a tripwire carrying the stop decision before the model is called again), with or
 * without processor retries; legitimate work is never denied; an error inside loopwatch never breaks the
 * run; the processor is an input and an output processor by Mastra's own types, and the documented example
 * compiles (tsc checks this file).
 */
import { Agent } from '@mastra/core/agent';
import type { InputProcessor, OutputProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopwatchProcessor } from '../src/adapters/mastra.js';
import type { MastraSession } from '../src/adapters/mastra.js';
import { LiveGuard, SessionStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** Mastra's mock model making scripted call i at its i-th step (all of them, then a final answer); keeps its prompts. */
function scriptedModel(script: Script): { model: MastraLanguageModelV2Mock; prompts: unknown[] } {
  const prompts: unknown[] = [];
  const model = new MastraLanguageModelV2Mock({
    doGenerate: async (options) => {
      const i = prompts.length;
      prompts.push(options.prompt);
      const c = script.calls[i];
      if (c === undefined) return { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [] };
      return { content: [{ type: 'tool-call', toolCallId: Script.id(i), toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: 'tool-calls', usage, warnings: [] };
    },
  });
  return { model, prompts };
}

function scriptedTools(script: Script) {
  return Object.fromEntries(
    script.tools.map((name) => [
      name,
      createTool({ id: name, description: name, inputSchema: z.record(z.string(), z.unknown()), execute: async (_input, ctx) => script.run(Script.index(ctx.agent?.toolCallId ?? '')) }),
    ]),
  );
}

async function play(s: LiveScenario, spy: SpyGuard, session: MastraSession, options: { maxProcessorRetries?: number; requestContext?: RequestContext } = {}) {
  const script = new Script(s.calls);
  const { model, prompts } = scriptedModel(script);
  const loopwatch = loopwatchProcessor(spy, session);
  const agent = new Agent({ id: 'worker', name: 'worker', instructions: 'You are a worker.', model, tools: scriptedTools(script), inputProcessors: [loopwatch], outputProcessors: [loopwatch] });
  // Mastra's default is 5 steps: more than a stuck loop needs to be stopped, less than the legitimate scenarios
  const result = await agent.generate('work', { maxSteps: 100, ...options });
  return { script, prompts, result };
}

/** Every call loopwatch denied or stopped, by id. */
function blockedIds(spy: SpyGuard): string[] {
  return spy.decisions.filter((d) => d.phase === 'propose' && (d.action === 'deny' || d.action === 'stop')).map((d) => d.id as string);
}

describe("loopwatch/mastra (Mastra's Agent with its mock model)", () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, prompts, result } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, prompts, 'run-1');
    // no call loopwatch blocked ran, and the model was not called again after the stop
    for (const id of blockedIds(spy)) expect(script.executed).not.toContain(Script.index(id));
    expect(prompts).toHaveLength(Script.index(stop.id as string) + 1);
    expect(result.tripwire).toMatchObject({ reason: stop.message, processorId: 'loopwatch', metadata: stop });
    spy.inner.close();
  });

  it.each([[undefined], [0], [3]])('should run no call it blocked, whatever maxProcessorRetries (%s)', async (maxProcessorRetries) => {
    // a model repeating the same fruitless search: before the fix, a stopped call (any retries) or a denied
    // one (no retries) still ran, because a processor's abort without retry does not cancel the step's calls
    const s: LiveScenario = { name: 'search', stuck: true, calls: Array.from({ length: 8 }, () => ({ tool: 'search', args: { q: 'x' }, result: 'No matches found' })) };
    const spy = new SpyGuard();
    const { script, result } = await play(s, spy, 'run-2', maxProcessorRetries === undefined ? {} : { maxProcessorRetries });
    expect(spy.proposals()).toContain('deny');
    expect(spy.proposals().at(-1)).toBe('stop');
    const blocked = blockedIds(spy).map(Script.index);
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    expect(script.executed.filter((i) => blocked.includes(i))).toEqual([]);
    expect(result.tripwire?.metadata).toBe(spy.stopped('run-2'));
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

  it('should name the session from the request context when given a function', async () => {
    const spy = new SpyGuard();
    const requestContext = new RequestContext();
    requestContext.set('threadId', 'thread-7');
    await play(LEGITIMATE[0] as LiveScenario, spy, (ctx) => `t:${String((ctx as RequestContext).get('threadId'))}`, { requestContext });
    expect(new Set(spy.decisions.map((d) => d.session))).toEqual(new Set(['t:thread-7']));
    spy.inner.close();
  });

  it('should fail loudly when a run starts on a session it already stopped', async () => {
    const spy = new SpyGuard();
    await play(STUCK[0] as LiveScenario, spy, 'run-5');
    expect(spy.stopped('run-5')?.action).toBe('stop');
    // the same agent set-up, run again on the stopped session: an error, not a run that silently does nothing
    const again = play(LEGITIMATE[0] as LiveScenario, spy, 'run-5');
    await expect(again).rejects.toThrow(/stopped session "run-5" in an earlier run/);
    spy.inner.end('run-5');
    const { script } = await play(LEGITIMATE[0] as LiveScenario, spy, 'run-5');
    expect(script.executed).toHaveLength(10);
    spy.inner.close();
  });

  it('should throw SessionStoppedError when a run starts on a session restored stopped (its message: Mastra wraps it)', async () => {
    const { spy, stop } = restoredStopped('run-9');
    const e = await play(LEGITIMATE[0] as LiveScenario, spy, 'run-9').then(
      () => undefined,
      (x: unknown) => x,
    );
    // Mastra 1.x runs input processors as a workflow and throws its own MastraError, with the messages only
    expect((e as { code?: unknown }).code).toBe('PROCESSOR_WORKFLOW_FAILED');
    expect((e as Error).message).toContain(new SessionStoppedError(stop).message);
    spy.inner.close();
  });

  it('should refuse to be only an output processor', async () => {
    const guard = new LiveGuard();
    const script = new Script((LEGITIMATE[0] as LiveScenario).calls);
    const agent = new Agent({ id: 'worker', name: 'worker', instructions: 'work', model: scriptedModel(script).model, tools: scriptedTools(script), outputProcessors: [loopwatchProcessor(guard, 's')] });
    await expect(agent.generate('work', { maxSteps: 100 })).rejects.toThrow(/inputProcessors/);
    expect(script.executed).toEqual([]);
    guard.close();
  });

  it('should fail loudly on Mastra 0.x, which never calls processInputStep, and leave 1.x runs as they are', async () => {
    // on Node 20 `npm install @mastra/core` gives 0.24.x: its input processors are called once a run, as
    // processInput({ messages, abort, tracingContext }), never processInputStep. Before the fix the processor
    // had no processInput, and a looping agent ran every call unchecked, with no word (checked by hand against
    // @mastra/core 0.24.9: 8 looping calls ran, no warning; now none runs, and the result's tripwireReason is
    // the message); the repository does not install 0.x, so its call is made here with 0.x's arguments
    const guard = new LiveGuard();
    const processor = loopwatchProcessor(guard, 's');
    const reasons: string[] = [];
    const abort = (reason: string): never => { reasons.push(reason); throw new Error('tripwire'); };
    expect(() => processor.processInput({ messages: [], abort } as never)).toThrow('tripwire');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/needs @mastra\/core 1\.2 or newer.*npm install @mastra\/core@1/);
    expect(() => processor.processInput({ messages: [] } as never)).toThrow(/needs @mastra\/core 1\.2 or newer/);
    // 1.x: Mastra calls it with the run's messageList, which it returns as it is; the run is checked as before
    const spy = new SpyGuard(guard);
    const s = STUCK[0] as LiveScenario;
    const { script, prompts, result } = await play(s, spy, 'run-0x');
    expectStuckRun(s, spy, script, prompts, 'run-0x');
    expect(result.tripwire).toBeDefined();
    guard.close();
  });

  it('should fail loudly on Mastra 1.0 and 1.1, which give processors no state, before any call runs', async () => {
    // @mastra/core 1.0.4 and 1.1.0 call processInput and processInputStep with { abort, retryCount,
    // requestContext, tracingContext, messageList, ... } and no `state` (added in 1.2.0). Before the fix every
    // step failed inside loopwatch reading state.loopwatch ("Cannot read properties of undefined"), Mastra
    // retried the model until "Exhausted all fallback models" and generate() threw (checked by hand against
    // 1.0.4 and 1.1.0 installed from npm); now the run ends at processInput with its tripwire saying which
    // Mastra is needed. The repository installs 1.71 only, so the calls are made here with 1.1's arguments
    const guard = new LiveGuard();
    const processor = loopwatchProcessor(guard, 's');
    const reasons: string[] = [];
    const abort = (reason: string): never => { reasons.push(reason); throw new Error('tripwire'); };
    const messageList = { messages: [] };
    expect(() => processor.processInput({ messageList, abort, retryCount: 0 } as never)).toThrow('tripwire');
    expect(() => processor.processInputStep({ messageList, abort, retryCount: 0, stepNumber: 0, systemMessages: [], tools: {} } as never)).toThrow('tripwire');
    expect(() => processor.processOutputStep({ messageList, abort, retryCount: 0 } as never)).toThrow(/inputProcessors/);
    expect(reasons).toHaveLength(2);
    for (const r of reasons) expect(r).toMatch(/needs @mastra\/core 1\.2 or newer: this Mastra gives processors no state.*npm install @mastra\/core@latest/);
    expect(() => processor.processInputStep({ messageList, systemMessages: [] } as never)).toThrow(/needs @mastra\/core 1\.2 or newer/);
    expect(guard.engine.stats().live).toBe(0);
    guard.close();
  });

  it("should be an input and an output processor by Mastra's types, and the documented example should compile", async () => {
    const guard = new LiveGuard();
    const processor = loopwatchProcessor(guard, 's');
    const asInput: InputProcessor = processor;
    const asOutput: OutputProcessor = processor;
    expect([asInput.id, asOutput.id]).toEqual(['loopwatch', 'loopwatch']);
    // docs/adapters.md, Mastra
    const script = new Script((LEGITIMATE[3] as LiveScenario).calls);
    const { model } = scriptedModel(script);
    const tools = scriptedTools(script);
    const session = 'run-42';
    const prompt = 'work';
    /* --- example --- */
    const loopwatch = loopwatchProcessor(guard, session); // or (requestContext) => a session id
    const agent = new Agent({ id: 'worker', name: 'worker', instructions: 'You are a worker.', model, tools, inputProcessors: [loopwatch] });
    const result = await agent.generate(prompt, { maxSteps: 50 }); // Mastra's default is 5 steps
    if (guard.stopped(session)) {
      /* stopped for a loop: result.tripwire?.metadata is the stop decision */
    }
    /* --- end --- */
    expect(result.text).toBe('done');
    guard.close();
  });
});
