/**
 * loopwatch/langchain on the tool nodes of older LangChain releases, through LangChain's own agent loop
 * (createAgent, its fake tool-calling model): the repository installs 1.5.14 only, so the middleware is
 * handed what the older releases hand it (read in their packages, and run for real from npm: see
 * docs/adapters.md, newuser26): 1.2.13-1.2.33 give a tool call's runtime no `configurable` (no thread),
 * 1.2.13-1.2.27 give the hooks none either, and before 1.2.13 the tool node runs the registered tool whatever
 * tool the middleware hands it (and refuses a name no tool has). From 1.2.13 a stuck run is warned, denied and
 * ended as on 1.5.14, each thread its own session; before, the run fails at its first call with one error
 * saying to upgrade, also when the step made three calls (LangGraph threw an AggregateError of three).
 */
import { tool } from '@langchain/core/tools';
import { FakeToolCallingModel, createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OLD_LANGCHAIN } from '../src/adapters/langchain-old.js';
import { loopwatchMiddleware } from '../src/adapters/langchain.js';
import type { LangChainRuntime, LangChainState, LangChainToolCallRequest } from '../src/adapters/langchain.js';
import { LiveGuard } from '../src/index.js';

/** What an older release's tool node (and hooks) give the middleware. */
interface OldRelease {
  /** The hooks see the thread (1.2.28 and newer). */
  readonly hooksSeeThread: boolean;
  /** The tool node runs the tool the middleware hands it (1.2.13 and newer). */
  readonly runsStandIns: boolean;
}

type Middleware = ReturnType<typeof loopwatchMiddleware<undefined, unknown>>;
type Handler = (request: LangChainToolCallRequest) => Promise<unknown>;

/** `runtime` as an older release builds it: no `configurable` (nor `store`). */
function oldRuntime(runtime: LangChainRuntime): LangChainRuntime {
  const { configurable: _c, store: _s, ...rest } = runtime as LangChainRuntime & { store?: unknown };
  return rest;
}

/** The middleware as an older release calls it. */
function asOlder(mw: Middleware, release: OldRelease, tools: readonly { name: string }[]) {
  const hookRuntime = (rt: LangChainRuntime) => (release.hooksSeeThread ? rt : oldRuntime(rt));
  // before 1.2.13: the registered tool of the call's name, whatever tool the request holds
  const oldHandler = (handler: Handler): Handler => async (request) => {
    const registered = tools.find((t) => t.name === request.toolCall.name);
    if (registered === undefined) throw new Error(`Tool "${request.toolCall.name}" not found.`);
    return handler({ ...request, tool: registered });
  };
  return {
    [Symbol.for('AgentMiddleware')]: true,
    name: mw.name,
    beforeAgent: (state: LangChainState, rt: LangChainRuntime) => mw.beforeAgent(state, hookRuntime(rt)),
    beforeModel: { canJumpTo: ['end' as const], hook: (state: LangChainState, rt: LangChainRuntime) => mw.beforeModel.hook(state, hookRuntime(rt)) },
    wrapToolCall: (request: LangChainToolCallRequest, handler: Handler) =>
      mw.wrapToolCall({ ...request, runtime: oldRuntime(request.runtime ?? {}) }, release.runsStandIns ? handler : oldHandler(handler)),
  };
}

/** A run calling `make` (which fails) `perStep` times a step for 8 steps, on `thread`. */
async function stuckRun(guard: LiveGuard, release: OldRelease, thread: string, perStep = 1, mw = loopwatchMiddleware(guard)) {
  let ran = 0;
  const bash = tool(async () => {
    ran++;
    throw new Error('make: *** [all] Error 2');
  }, { name: 'bash', description: 'runs a command', schema: z.object({ command: z.string() }) });
  const steps = Array.from({ length: 8 }, (_, s) => Array.from({ length: perStep }, (_, j) => ({ id: `${thread}-${s}-${j}`, name: 'bash', args: { command: 'make' } })));
  const model = new FakeToolCallingModel({ toolCalls: [...steps, []] });
  const agent = createAgent({ model, tools: [bash], middleware: [asOlder(mw, release, [bash]) as unknown as Middleware] });
  try {
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'build it' }] }, { configurable: { thread_id: thread }, recursionLimit: 100 });
    return { ran: () => ran, last: result.messages.at(-1), error: undefined };
  } catch (error) {
    return { ran: () => ran, last: undefined, error };
  }
}

describe('loopwatch/langchain on older LangChain tool nodes (createAgent, fake tool-calling model)', () => {
  it.each([
    ['1.2.28-1.2.33 (hooks see the thread, calls do not)', { hooksSeeThread: true, runsStandIns: true }],
    ['1.2.13-1.2.27 (no part sees the thread)', { hooksSeeThread: false, runsStandIns: true }],
  ])('should warn, deny, then end a stuck run on each of two threads at once, as on 1.5.14: %s', async (_name, release) => {
    const guard = new LiveGuard();
    const mw = loopwatchMiddleware(guard);
    const [a, b] = await Promise.all([stuckRun(guard, release, 'thread-a', 1, mw), stuckRun(guard, release, 'thread-b', 1, mw)]);
    for (const run of [a, b]) {
      expect(run?.error).toBeUndefined();
      expect(run?.ran()).toBe(3); // warned at the third, denied at the fourth, stopped at the fifth
      expect(run?.last?.getType()).toBe('ai');
      expect(String(run?.last?.content)).toMatch(/^\[loopwatch\] You appear to be in a loop .*The run is being stopped/s);
    }
    // the thread is the session where the hooks see it; else the thread's first message names it
    if (release.hooksSeeThread) expect([guard.stopped('thread-a')?.action, guard.stopped('thread-b')?.action]).toEqual(['stop', 'stop']);
    guard.close();
  }, 60_000);

  it.each([1, 3])('should fail at the first call with one error saying to upgrade before 1.2.13, no tool run (%i calls a step)', async (perStep) => {
    const guard = new LiveGuard();
    const run = await stuckRun(guard, { hooksSeeThread: false, runsStandIns: false }, 'thread-old', perStep);
    // one error (LangChain's MiddlewareError around it), not an AggregateError of one per call
    expect(run.error).not.toBeInstanceOf(AggregateError);
    expect((run.error as Error).cause).toBeInstanceOf(TypeError);
    expect(((run.error as Error).cause as Error).message).toBe(OLD_LANGCHAIN);
    expect(OLD_LANGCHAIN).toContain('langchain 1.2.13 or newer');
    expect(run.ran()).toBe(0);
    guard.close();
  }, 60_000);
});
