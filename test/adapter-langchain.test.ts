/**
 * loopwatch/langchain through LangChain v1's own agent (createAgent with the middleware), driven by its fake
 * tool-calling chat model: a stuck model is warned (the warning is in the ToolMessage it reads next), then
 * denied (the tool does not run, the model reads why), then the run ends with a final AI message saying why
 * (exitBehavior 'end'), throws one MiddlewareError caused by LoopStoppedError, parallel calls too ('error'),
 * or goes on denying ('continue'); runs without a thread never share a session; a thread stopped before fails
 * loudly; legitimate work is never denied; an error inside loopwatch never breaks the run; with zod, the
 * session's state checkpoints with the thread; the recursionLimit the docs give is enough.
 */
import { tool } from '@langchain/core/tools';
import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { FakeToolCallingModel, MiddlewareError, createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopwatchMiddleware } from '../src/adapters/langchain.js';
import type { LangChainGuard, LangChainMiddlewareOptions } from '../src/adapters/langchain.js';
import { LiveGuard, LoopStoppedError, SessionStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

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

async function play(s: LiveScenario, spy: SpyGuard, thread: string | undefined, options: LangChainMiddlewareOptions = {}, model = scriptedModel(new Script(s.calls))) {
  const script = new Script(s.calls);
  const agent = createAgent({ model, tools: scriptedTools(script), middleware: [loopwatchMiddleware(spied(spy), options)] });
  let error: unknown;
  let result;
  try {
    result = await agent.invoke({ messages: [{ role: 'user', content: 'work' }] }, { ...(thread === undefined ? {} : { configurable: { thread_id: thread } }), recursionLimit: 500 });
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
    // the run ended before another model call: the stopped call's ToolMessage, then a final AI message saying why
    const [tool, last] = result?.messages.slice(-2) ?? [];
    expect(tool?.getType()).toBe('tool');
    expect(tool?.content).toBe(stop.message);
    expect(last?.getType()).toBe('ai');
    expect(last?.content).toBe(stop.message);
    expect(inputs).toHaveLength(spy.proposals().length);
    spy.inner.close();
  });

  it('should throw LoopStoppedError out of the run with exitBehavior error', async () => {
    const spy = new SpyGuard();
    const { error } = await play(STUCK[0] as LiveScenario, spy, 'thread-2', { exitBehavior: 'error' });
    // LangChain wraps an error thrown in a middleware in its MiddlewareError, the LoopStoppedError as its cause
    expect(error).toBeInstanceOf(MiddlewareError);
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
    // 'continue' only denies a stop's call: what the model reads says so, not that the run is being stopped
    const said = (result?.messages ?? []).map((m) => String(m.content));
    expect(said.some((t) => t.includes('The run is being stopped.'))).toBe(false);
    expect(said.filter((t) => t.endsWith('This call was blocked and did not run.')).length).toBeGreaterThan(1);
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

  it('should throw one MiddlewareError when calls stopped together ran in parallel (exitBehavior error)', async () => {
    // the same failing command, three times per model turn: two calls of the second turn are stopped together
    const calls = Array.from({ length: 12 }, () => ({ tool: 'bash', args: { command: 'make' }, error: 'make: *** Error 2' }));
    const script = new Script(calls);
    const turns = Array.from({ length: 4 }, (_, t) => [0, 1, 2].map((k) => ({ id: Script.id(3 * t + k), name: 'bash', args: { command: 'make' } })));
    const model = new ScriptedModel({ toolCalls: [...turns, []] });
    const spy = new SpyGuard();
    const { error } = await play({ name: 'parallel', stuck: true, calls }, spy, 'thread-7', { exitBehavior: 'error' }, model);
    const stops = spy.decisions.filter((d) => d.action === 'stop');
    expect(stops.length).toBeGreaterThanOrEqual(2);
    // before the fix: an AggregateError of two MiddlewareErrors, which the documented check misses
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(LoopStoppedError);
    expect(script.executed.filter((i) => stops.some((d) => d.id === Script.id(i)))).toEqual([]);
    spy.inner.close();
  });

  it('should give each run without a thread its own session', async () => {
    const spy = new SpyGuard();
    const stuck = await play(STUCK[0] as LiveScenario, spy, undefined);
    const stopped = stuck.result?.messages.at(-1);
    expect(stopped?.getType()).toBe('ai');
    expect(String(stopped?.content)).toContain('The run is being stopped.');
    // an unrelated run, no thread either, with the same guard: before the fix it shared the session
    // 'default' with the stopped run and did nothing
    const later = await play(LEGITIMATE[3] as LiveScenario, spy, undefined);
    expect(later.error).toBeUndefined();
    expect(later.script.executed).toHaveLength(12);
    expect(later.result?.messages.at(-1)?.getType()).toBe('ai');
    const sessions = [...new Set(spy.decisions.map((d) => d.session))];
    expect(sessions).toHaveLength(2);
    // and two runs at once
    const both = await Promise.all([play(LEGITIMATE[6] as LiveScenario, spy, undefined), play(LEGITIMATE[6] as LiveScenario, spy, undefined)]);
    for (const run of both) expect(run.script.executed).toHaveLength(10);
    expect(new Set(spy.decisions.map((d) => d.session)).size).toBe(4);
    spy.inner.close();
  });

  it('should fail loudly when a run starts on a thread it stopped before', async () => {
    const spy = new SpyGuard();
    await play(STUCK[0] as LiveScenario, spy, 'thread-8');
    expect(spy.stopped('thread-8')?.action).toBe('stop');
    const again = await play(LEGITIMATE[0] as LiveScenario, spy, 'thread-8');
    expect(again.error).toBeInstanceOf(SessionStoppedError);
    expect(again.script.executed).toEqual([]);
    // 'continue' never ends a run for a loop, so a new run on the thread goes on (denying)
    const goOn = await play(LEGITIMATE[0] as LiveScenario, spy, 'thread-8', { exitBehavior: 'continue' });
    expect(goOn.error).toBeUndefined();
    spy.inner.close();
  });

  it('should throw SessionStoppedError when a run starts on a thread restored stopped', async () => {
    const { spy } = restoredStopped('thread-9');
    const again = await play(LEGITIMATE[0] as LiveScenario, spy, 'thread-9');
    expect(again.error).toBeInstanceOf(SessionStoppedError);
    expect(again.script.executed).toEqual([]);
    spy.inner.close();
  });

  it('should run a legitimate 12-call run with the recursionLimit the docs give (3 per model turn with tool calls, plus 4)', async () => {
    const s = LEGITIMATE[3] as LiveScenario;
    const run = async (recursionLimit: number) => {
      const script = new Script(s.calls);
      const agent = createAgent({ model: scriptedModel(script), tools: scriptedTools(script), middleware: [loopwatchMiddleware(new LiveGuard())] });
      return agent.invoke({ messages: [{ role: 'user', content: 'work' }] }, { recursionLimit }).then(
        () => 'done',
        (e: Error) => e.name,
      );
    };
    expect(await run(3 * s.calls.length + 4)).toBe('done');
    expect(await run(3 * s.calls.length + 3)).toBe('GraphRecursionError');
    expect(await run(25)).toBe('GraphRecursionError'); // LangChain's default
  });
});
