/**
 * loopwatch/anthropic through the Anthropic SDK's own tool runner (client.beta.messages.toolRunner), its
 * Messages API answered by a scripted `fetch` (no network): a stuck model is warned (the warning reaches the
 * next request), then denied (the tool does not run, the model reads why as an error result), then the run is
 * aborted with a LoopStoppedError; legitimate work is never denied; an error inside loopwatch never breaks the
 * run; ask asks the approve callback.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { guardTools } from '../src/adapters/anthropic.js';
import type { AnthropicGuardOptions } from '../src/adapters/anthropic.js';
import { LiveGuard, LoopStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

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

async function play(s: LiveScenario, spy: SpyGuard, session: string, options: AnthropicGuardOptions = {}) {
  const script = new Script(s.calls);
  const { fetch, bodies } = scriptedFetch(script);
  const client = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 });
  const controller = new AbortController();
  const tools = guardTools(scriptedTools(script), spy, session, { controller, ...options });
  let error: unknown;
  let final;
  try {
    final = await client.beta.messages.toolRunner({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'work' }], tools, max_iterations: 100 }, { signal: controller.signal });
  } catch (e) {
    error = e;
  }
  return { script, bodies, final, error, controller };
}

describe('loopwatch/anthropic (the SDK tool runner with a scripted fetch)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, bodies, error, controller } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, bodies, 'run-1');
    // the runner ends with the SDK's abort error; the abort's reason is the stop
    expect(error).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(controller.signal.reason).toBeInstanceOf(LoopStoppedError);
    expect((controller.signal.reason as LoopStoppedError).decision).toBe(stop);
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
});
