/**
 * loopwatch/anthropic through the Anthropic SDK's own tool runner (client.beta.messages.toolRunner), its
 * Messages API answered by a scripted `fetch` (no network): a stuck model is warned (the warning reaches the
 * next request), then denied (the tool does not run, the model reads why as an error result), then the run
 * ends with a LoopStoppedError before another request, with or without a controller; legitimate work is never
 * denied; an error inside loopwatch never breaks the run; ask asks the approve callback; the runner's own
 * tools list (runnable and server tools mixed, class-based tools, toolsets) goes through guardTools as it is
 * typed and keeps what it is; tools reused after a stop fail loudly.
 */
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import type { BetaToolRunnerParams } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { describe, expect, it } from 'vitest';
import { guardTools } from '../src/adapters/anthropic.js';
import type { AnthropicGuardOptions } from '../src/adapters/anthropic.js';
import { LiveGuard, LoopStoppedError, SessionStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

/** A Messages API that makes scripted call i in its i-th answer (all of them, then a final answer); keeps the request bodies. */
function scriptedFetch(script: Script): { fetch: typeof fetch; bodies: string[] } {
  const bodies: string[] = [];
  const fetcher = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (init?.signal?.aborted) throw init.signal.reason; // as the platform's fetch does
    const i = bodies.length;
    bodies.push(String(init?.body));
    const c = script.calls[i];
    const content = c === undefined ? [{ type: 'text', text: 'done' }] : [{ type: 'tool_use', id: Script.id(i), name: c.tool, input: c.args }];
    const message = { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: c === undefined ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    return new Response(JSON.stringify(message), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetcher as typeof fetch, bodies };
}

function scriptedTools(script: Script) {
  return script.tools.map((name) => ({
    type: 'custom' as const,
    name,
    input_schema: { type: 'object' as const, properties: {} },
    parse: (input: unknown) => input as Record<string, unknown>,
    run: async (_args: Record<string, unknown>, context?: { toolUse: { id: string } }) => script.run(Script.index(context?.toolUse.id ?? '')),
  }));
}

async function play(s: LiveScenario, spy: SpyGuard, session: string, options: AnthropicGuardOptions & { noController?: boolean } = {}) {
  const script = new Script(s.calls);
  const { fetch, bodies } = scriptedFetch(script);
  const client = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 });
  const controller = options.noController === true ? undefined : new AbortController();
  const tools = guardTools(scriptedTools(script), spy, session, { ...(controller === undefined ? {} : { controller }), ...options });
  const run = await runWith(client, tools, controller);
  return { script, bodies, ...run, controller };
}

/** The runner over `tools` (max_iterations far above any scenario), and how it ended. */
async function runWith(client: Anthropic, tools: BetaToolRunnerParams['tools'], controller?: AbortController) {
  let error: unknown;
  let final;
  try {
    final = await client.beta.messages.toolRunner({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'work' }], tools, max_iterations: 100 }, controller === undefined ? {} : { signal: controller.signal });
  } catch (e) {
    error = e;
  }
  return { final, error };
}

describe('loopwatch/anthropic (the SDK tool runner with a scripted fetch)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, bodies, error, controller } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, bodies, 'run-1');
    // the runner ends with the stop before another request; the controller was aborted with it
    expect(error).toBeInstanceOf(LoopStoppedError);
    expect((error as LoopStoppedError).decision).toBe(stop);
    expect(bodies).toHaveLength(spy.proposals().length);
    expect(controller?.signal.reason).toBeInstanceOf(LoopStoppedError);
    expect((controller?.signal.reason as LoopStoppedError).decision).toBe(stop);
    // the denied call came back to the model as an error result
    expect(bodies.some((b) => b.includes('"is_error":true') && b.includes('This call was blocked and did not run.'))).toBe(true);
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, final, error } = await play(s, spy, 'run-2');
    expect(error).toBeUndefined();
    expectLegitimateRun(spy, script, 'run-2');
    expect(final?.content).toEqual([{ type: 'text', text: 'done' }]);
    spy.inner.close();
  });

  it('should fail open when loopwatch itself fails: every call runs, one report', async () => {
    const s = STUCK[0] as LiveScenario;
    const { guard, errors } = brokenGuard(['bash']);
    const { script, final, error } = await play(s, guard, 'run-3');
    expect(error).toBeUndefined();
    expectFailedOpenRun(guard, errors, script);
    expect(final?.content).toEqual([{ type: 'text', text: 'done' }]);
    guard.inner.close();
  });

  it('should ask the approve callback on ask, and deny the call it refuses', async () => {
    const spy = new SpyGuard(new LiveGuard({ policy: { ladder: ['warn', 'ask'] } }));
    const asked: string[] = [];
    const { script, bodies } = await play(STUCK[0] as LiveScenario, spy, 'run-4', { approve: (d) => (asked.push(d.id as string), false) });
    expect(asked.length).toBeGreaterThan(0);
    for (const id of asked) expect(script.executed).not.toContain(Script.index(id));
    expect(bodies.some((b) => b.includes('"is_error":true') && b.includes(asked[0] as string))).toBe(true);
    spy.inner.close();
  });

  it.each(STUCK.map((s) => [s.name, s] as const))('should end the runner on a stop without a controller too: %s', async (_name, s) => {
    // before the fix a stop only denied: the runner, which has no iteration cap of its own, went on asking
    const spy = new SpyGuard();
    const { script, bodies, error } = await play(s, spy, 'run-5', { noController: true });
    const stop = expectStuckRun(s, spy, script, bodies, 'run-5');
    expect(error).toBeInstanceOf(LoopStoppedError);
    expect((error as LoopStoppedError).decision).toBe(stop);
    expect(bodies).toHaveLength(spy.proposals().length);
    spy.inner.close();
  });

  it('should take the runner\'s own tools list: server tools as they are, class-based tools with their prototype', async () => {
    const s = LEGITIMATE[3] as LiveScenario; // the first exploration of a repository: bash only
    const script = new Script(s.calls);
    /** A tool written as a class: its run and parse use its own state, methods and private fields. */
    class BashTool {
      readonly type = 'custom' as const;
      readonly name = 'bash';
      readonly input_schema = { type: 'object' as const, properties: { command: { type: 'string' } } };
      runs = 0;
      #script = script;
      #parses = 0;
      get parses(): number {
        return this.#parses;
      }
      parse(input: unknown): Record<string, unknown> {
        this.#parses++; // the runner calls parse on the tool it was given: a private field must still be reachable
        return input as Record<string, unknown>;
      }
      async run(_args: Record<string, unknown>, context?: { toolUse: { id: string } }): Promise<string> {
        this.runs++;
        return this.answer(context?.toolUse.id ?? '');
      }
      answer(id: string): string {
        return this.#script.run(Script.index(id));
      }
    }
    const bash = new BashTool();
    const search = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 2 };
    const note = betaTool({ name: 'note', description: 'note', inputSchema: { type: 'object', properties: {} }, run: async () => 'noted' });
    const tools: BetaToolRunnerParams['tools'] = [bash, search, note];
    const spy = new SpyGuard();
    const guarded: BetaToolRunnerParams['tools'] = guardTools(tools, spy, 'run-6');
    expect(guarded[1]).toBe(search);
    const { fetch, bodies } = scriptedFetch(script);
    const { final, error } = await runWith(new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 }), guarded);
    expect(error).toBeUndefined();
    expect(final?.content).toEqual([{ type: 'text', text: 'done' }]);
    expectLegitimateRun(spy, script, 'run-6');
    expect(bash.runs).toBe(s.calls.length);
    expect(bash.parses).toBe(s.calls.length);
    // every request still defined the tools as the API takes them
    const sent = JSON.parse(bodies[0] as string) as { tools: Record<string, unknown>[] };
    expect(sent.tools).toEqual([
      { type: 'custom', name: 'bash', input_schema: bash.input_schema },
      search,
      { type: 'custom', name: 'note', description: 'note', input_schema: { type: 'object', properties: {} } },
    ]);
    spy.inner.close();
  });

  it('should check a runnable toolset\'s member calls', async () => {
    const calls = Array.from({ length: 8 }, () => ({ tool: 'browser.screenshot', args: {}, error: 'page crashed' }));
    const script = new Script(calls);
    const bodies: string[] = [];
    const fetcher = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const i = bodies.length;
      bodies.push(String(init?.body));
      const content = i < calls.length ? [{ type: 'tool_use', id: Script.id(i), name: 'screenshot', input: {}, toolset_name: 'browser' }] : [{ type: 'text', text: 'done' }];
      const message = { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: i < calls.length ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
      return new Response(JSON.stringify(message), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const toolset = {
      type: 'browser_toolset_20260801' as const,
      run: async (_ctx: unknown, use: { id: string }): Promise<{ type: 'text'; text: string }[]> => [{ type: 'text', text: script.run(Script.index(use.id)) }],
    };
    const spy = new SpyGuard();
    const tools = guardTools([toolset], spy, 'run-7') as unknown as BetaToolRunnerParams['tools'];
    const { error } = await runWith(new Anthropic({ apiKey: 'test-key', fetch: fetcher as typeof fetch, maxRetries: 0 }), tools);
    expect(error).toBeInstanceOf(LoopStoppedError);
    expect(spy.decisions[0]?.id).toBe('c0');
    expect(new Set(spy.decisions.map((d) => d.session))).toEqual(new Set(['run-7']));
    expect(spy.proposals()).toContain('deny');
    for (const d of spy.decisions.filter((x) => x.action === 'deny' || x.action === 'stop')) expect(script.executed).not.toContain(Script.index(d.id as string));
    spy.inner.close();
  });

  it('should throw SessionStoppedError, as every adapter does, when a run starts on a session restored stopped', async () => {
    // before, its first request threw a LoopStoppedError, as if this run had looped (AI SDK, Mastra, LangChain
    // and the Agents SDK throw SessionStoppedError there)
    const { spy, stop } = restoredStopped('run-9');
    const script = new Script((LEGITIMATE[0] as LiveScenario).calls);
    const { fetch, bodies } = scriptedFetch(script);
    const { error } = await runWith(new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 }), guardTools(scriptedTools(script), spy, 'run-9'));
    expect(error).toBeInstanceOf(SessionStoppedError);
    expect(error).not.toBeInstanceOf(LoopStoppedError);
    expect((error as SessionStoppedError).decision).toEqual(stop);
    expect(bodies).toEqual([]);
    spy.inner.close();
  });

  it('should fail loudly when guarded tools are handed to a new run after a stop', async () => {
    const s = STUCK[0] as LiveScenario;
    const script = new Script(s.calls);
    const spy = new SpyGuard();
    const tools = guardTools(scriptedTools(script), spy, 'run-8');
    const first = scriptedFetch(script);
    expect((await runWith(new Anthropic({ apiKey: 'test-key', fetch: first.fetch, maxRetries: 0 }), tools)).error).toBeInstanceOf(LoopStoppedError);
    // the same tools, a new runner: it throws before its first request instead of doing nothing
    const second = scriptedFetch(new Script(s.calls));
    const { error } = await runWith(new Anthropic({ apiKey: 'test-key', fetch: second.fetch, maxRetries: 0 }), tools);
    expect(error).toBeInstanceOf(SessionStoppedError);
    expect(second.bodies).toEqual([]);
    spy.inner.close();
  });
});
