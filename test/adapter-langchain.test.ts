/**
 * loopwatch/langchain through LangChain v1's own agent (createAgent with the middleware), driven by its fake
 * tool-calling chat model: a stuck model is warned (the warning is in the ToolMessage it reads next), then
 * denied (the tool does not run, the model reads why), then the run ends (exitBehavior 'end'), throws
 * (LangChain's MiddlewareError, caused by LoopStoppedError: 'error') or goes on denying ('continue'); legitimate work is never denied; an error inside
 * loopwatch never breaks the run; with zod, the session's state checkpoints with the thread.
 */
import { tool } from '@langchain/core/tools';
import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { FakeToolCallingModel, createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopwatchMiddleware } from '../src/adapters/langchain.js';
import type { LangChainGuard, LangChainMiddlewareOptions } from '../src/adapters/langchain.js';
import { LiveGuard, LoopStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

/** LangChain's fake tool-calling model, scripted with call i at step i, keeping the messages it was given. */
class ScriptedModel extends FakeToolCallingModel {
  readonly inputs: unknown[] = [];
  override bindTools(tools: Parameters<FakeToolCallingModel['bindTools']>[0]) {
    // the agent calls the bound copy: keep what it is given
    const bound = super.bindTools(tools) as FakeToolCallingModel;
    const generate = bound._generate.bind(bound);
    bound._generate = async (messages: BaseMessage[], options, runManager) => {
      this.inputs.push(messages.map((m) => ({ type: m.getType(), content: m.content })));
      return generate(messages, options, runManager);
    };
    return bound;
  }
}

function scriptedModel(script: Script): ScriptedModel {
  return new ScriptedModel({ toolCalls: [...script.calls.map((c, i) => [{ id: Script.id(i), name: c.tool, args: c.args }]), []] });
}

function scriptedTools(script: Script) {
  return script.tools.map((name) => tool(async (_input, config) => script.run(Script.index(String(config.toolCall?.id))), { name, description: name, schema: z.object({}).passthrough() }));
}

/** The spy with its LiveGuard's engine (the middleware snapshots sessions). */
function spied(spy: SpyGuard): LangChainGuard {
  return Object.assign(spy, { engine: spy.inner.engine });
}

async function play(s: LiveScenario, spy: SpyGuard, thread: string, options: LangChainMiddlewareOptions = {}) {
  const script = new Script(s.calls);
  const model = scriptedModel(script);
  const agent = createAgent({ model, tools: scriptedTools(script), middleware: [loopwatchMiddleware(spied(spy), options)] });
  let error: unknown;
  let result;
  try {
    result = await agent.invoke({ messages: [{ role: 'user', content: 'work' }] }, { configurable: { thread_id: thread }, recursionLimit: 500 });
  } catch (e) {
    error = e;
  }
  return { script, inputs: model.inputs, result, error };
}

describe('loopwatch/langchain (createAgent with the fake tool-calling model)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then end the run: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, inputs, result, error } = await play(s, spy, 'thread-1');
    expect(error).toBeUndefined();
    const stop = expectStuckRun(s, spy, script, inputs, 'thread-1');
    // the run ended on the stopped call's ToolMessage, before another model call
    const last = result?.messages.at(-1);
    expect(last?.getType()).toBe('tool');
    expect(last?.content).toBe(stop.message);
    expect(inputs).toHaveLength(spy.proposals().length);
    spy.inner.close();
  });

  it('should throw LoopStoppedError out of the run with exitBehavior error', async () => {
    const spy = new SpyGuard();
    const { error } = await play(STUCK[0] as LiveScenario, spy, 'thread-2', { exitBehavior: 'error' });
    // LangChain wraps an error thrown in a middleware in its MiddlewareError, the LoopStoppedError as its cause
    const cause = (error as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(LoopStoppedError);
    expect((cause as LoopStoppedError).decision).toBe(spy.stopped('thread-2'));
    spy.inner.close();
  });

  it('should keep denying and let the model finish with exitBehavior continue', async () => {
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const { script, result, error } = await play(s, spy, 'thread-3', { exitBehavior: 'continue' });
    expect(error).toBeUndefined();
    expect(spy.stopped('thread-3')?.action).toBe('stop');
    expect(spy.proposals()).toHaveLength(s.calls.length);
    expect(script.executed.length).toBeLessThan(s.calls.length);
    expect(result?.messages.at(-1)?.getType()).toBe('ai');
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, error } = await play(s, spy, 'thread-4');
    expect(error).toBeUndefined();
    expectLegitimateRun(spy, script, 'thread-4');
    spy.inner.close();
  });

  it('should fail open when loopwatch itself fails: every call runs, one report', async () => {
    const s = STUCK[0] as LiveScenario;
    const { guard, errors } = brokenGuard(['bash']);
    const { script, error } = await play(s, guard, 'thread-5');
    expect(error).toBeUndefined();
    expectFailedOpenRun(guard, errors, script);
    guard.inner.close();
  });

  it('should keep the session in the graph state, so a thread resumed by a new guard goes on where it was', async () => {
    const s = STUCK[0] as LiveScenario;
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: 'thread-6' }, recursionLimit: 500 };
    // first process: three failing calls, then the run is interrupted (the model stops calling tools)
    const first = new Script(s.calls.slice(0, 3));
    const guard1 = new LiveGuard();
    const agent1 = createAgent({ model: scriptedModel(first), tools: scriptedTools(first), middleware: [loopwatchMiddleware(guard1, { z })], checkpointer });
    const state = await agent1.invoke({ messages: [{ role: 'user', content: 'work' }] }, config);
    expect(typeof (state as { loopwatch?: unknown }).loopwatch).toBe('string');
    guard1.close();
    // second process: a new guard; the thread's next repeat of the failing call is denied at once
    const second = new Script(s.calls);
    const spy = new SpyGuard();
    const agent2 = createAgent({ model: scriptedModel(second), tools: scriptedTools(second), middleware: [loopwatchMiddleware(spied(spy), { z })], checkpointer });
    await agent2.invoke({ messages: [{ role: 'user', content: 'again' }] }, config);
    expect(spy.inner.engine.has('thread-6')).toBe(true);
    expect(spy.proposals()[0]).not.toBe('allow');
    spy.inner.close();
  });
});
