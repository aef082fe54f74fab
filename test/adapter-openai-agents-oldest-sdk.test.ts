/**
 * loopwatch/openai-agents on an SDK before 0.3.8, through the SDK's own Runner with a mock Model: those
 * releases have no tool guardrails (their `tool()` gives no `inputGuardrails`, their Runner runs none), so
 * loopwatch's warnings reached the model but a call it denied or stopped ran anyway (0.1.0, 0.3.0 and 0.3.7
 * from npm: a call failing again and again ran 8 times out of 8, no stop). The repository installs 0.20 only:
 * the tool is made as 0.3.7 made it and the guarded copy run as its Runner runs it (without its guardrails).
 * The run now fails at the first tool call, before the tool runs, saying to upgrade; a tool without
 * `inputGuardrails` of its own still works on an SDK that runs them.
 */
import { Agent, Runner, Usage, setTracingDisabled, tool } from '@openai/agents';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardTools } from '../src/adapters/openai-agents.js';
import { LiveGuard } from '../src/index.js';

beforeAll(() => setTracingDisabled(true));
afterAll(() => setTracingDisabled(false));

/** A model calling `make` at each of 8 turns, then answering. */
class MakeAgainModel implements Model {
  turns = 0;
  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    const i = this.turns++;
    if (i >= 8) return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
    return { usage: new Usage(), output: [{ type: 'function_call', callId: `c${i}`, name: 'bash', arguments: '{"command":"make"}', status: 'completed' }] };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** The bash tool (failing `make`), without `inputGuardrails` as the SDK's tool() made it before 0.3.8; `ran` counts its runs. */
function oldBash() {
  const counter = { ran: 0 };
  const t = tool({
    name: 'bash',
    description: 'runs a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
    strict: true,
    execute: async () => {
      counter.ran++;
      throw new Error('make: *** [all] Error 2');
    },
  });
  const { inputGuardrails: _none, ...old } = t;
  return { tool: old as typeof t, counter };
}

async function run(tools: ReturnType<typeof tool>[]) {
  const agent = new Agent({ name: 'worker', instructions: 'work', model: new MakeAgainModel(), tools });
  try {
    return { result: await new Runner({ tracingDisabled: true }).run(agent, 'build it', { maxTurns: 30 }), error: undefined };
  } catch (error) {
    return { result: undefined, error };
  }
}

describe('loopwatch/openai-agents on an SDK without tool guardrails (before 0.3.8)', () => {
  it('should fail at the first tool call, before the tool runs, saying to upgrade', async () => {
    const guard = new LiveGuard();
    const { tool: bash, counter } = oldBash();
    // the old Runner runs no tool guardrails: the guarded copy without them
    const guarded = guardTools([bash], guard).map(({ inputGuardrails: _g, ...t }) => t as typeof bash);
    const { error } = await run(guarded);
    expect(counter.ran).toBe(0);
    expect(String((error as Error)?.message)).toContain('loopwatch: guardTools needs @openai/agents 0.3.8 or newer');
    guard.close();
  });

  it('should warn, then stop, a tool without inputGuardrails of its own on an SDK that runs them (0.20)', async () => {
    const guard = new LiveGuard();
    const { tool: bash, counter } = oldBash();
    const { error } = await run(guardTools([bash], guard));
    expect(counter.ran).toBe(3); // as with the SDK's own tool(): warned at the third, denied, then stopped
    expect(String((error as Error)?.message)).toContain('Tool input guardrail triggered: loopwatch-propose');
    guard.close();
  });
});
