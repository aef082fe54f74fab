/**
 * loopwatch/ai-sdk through the AI SDK v6's own agent loop (generateText and streamText with tools and stop
 * conditions), driven by its MockLanguageModelV3: a stuck model is warned (the warning reaches its next
 * prompt), then denied (the tool does not run, the model reads why), then stopped; legitimate repetitive
 * work is never denied; an error inside loopwatch never breaks the run; ask uses the SDK's approval request.
 */
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { LiveGuard } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A model that makes scripted call i at its i-th step (all of them, then a final answer); keeps its prompts. */
function scriptedModel(script: Script): { model: MockLanguageModelV3; prompts: unknown[] } {
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      const i = prompts.length;
      prompts.push(options.prompt);
      const c = script.calls[i];
      if (c === undefined) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return { content: [{ type: 'tool-call', toolCallId: Script.id(i), toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
    },
  });
  return { model, prompts };
}

function scriptedTools(script: Script) {
  return Object.fromEntries(script.tools.map((name) => [name, tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }), execute: async (_input, { toolCallId }) => script.run(Script.index(toolCallId)) })]));
}

async function play(s: LiveScenario, spy: SpyGuard, session: string) {
  const script = new Script(s.calls);
  const { model, prompts } = scriptedModel(script);
  const result = await generateText({ model, prompt: 'work', tools: wrapTools(scriptedTools(script), spy, session), ...stopOnLoop(spy, session, { stopWhen: stepCountIs(100) }) });
  return { script, prompts, result };
}

describe('loopwatch/ai-sdk (AI SDK v6, generateText)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, prompts, result } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, prompts, 'run-1');
    // the run ended at the step that was stopped, and that step's tool error is the LoopStoppedError
    expect(result.steps.length).toBe(spy.proposals().length);
    const last = result.steps.at(-1)?.content.find((p) => p.type === 'tool-error');
    expect(last?.type === 'tool-error' && (last.error as { code?: string }).code).toBe('ERR_LOOPWATCH_LOOP_STOPPED');
    expect(last?.type === 'tool-error' && (last.error as Error).message).toBe(stop.message);
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, result } = await play(s, spy, 'run-2');
    expectLegitimateRun(spy, script, 'run-2');
    expect(result.text).toBe('done');
    spy.inner.close();
  });

  it('should leave the result the code gets unchanged and add the warning to what the model sees', async () => {
    const spy = new SpyGuard();
    const s = STUCK[2] as LiveScenario;
    const { result, prompts } = await play(s, spy, 'run-3');
    const warned = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'warn');
    const i = Script.index(warned?.id as string);
    const part = result.steps.flatMap((st) => st.content).find((p) => p.type === 'tool-result' && p.toolCallId === warned?.id);
    expect(part?.type === 'tool-result' && part.output).toBe(s.calls[i]?.result);
    expect(JSON.stringify(prompts[i + 1])).toContain(JSON.stringify(`${s.calls[i]?.result}\n\n${warned?.message}`).slice(1, -1));
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

  it('should stop a streamText run the same way', async () => {
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const script = new Script(s.calls);
    const { model } = scriptedModel(script);
    const streaming = new MockLanguageModelV3({
      doStream: async (options) => {
        const r = await model.doGenerate(options);
        const chunks = [
          ...r.content.map((c) => (c.type === 'tool-call' ? c : { type: 'text-delta' as const, id: 't', delta: c.type === 'text' ? c.text : '' })),
          { type: 'finish' as const, finishReason: r.finishReason, usage },
        ];
        return { stream: new ReadableStream({ start: (ctl) => { for (const c of chunks) ctl.enqueue(c); ctl.close(); } }) };
      },
    });
    const run = streamText({ model: streaming, prompt: 'work', tools: wrapTools(scriptedTools(script), spy, 'run-5'), ...stopOnLoop(spy, 'run-5', { stopWhen: stepCountIs(100) }) });
    await run.consumeStream();
    expect(spy.stopped('run-5')?.action).toBe('stop');
    expect((await run.steps).length).toBe(spy.proposals().length);
    spy.inner.close();
  });

  it('should ask through the tool approval request on ask, and run the call once approved', async () => {
    const spy = new SpyGuard(new LiveGuard({ policy: { ladder: ['warn', 'ask'] } }));
    const s = STUCK[0] as LiveScenario;
    const script = new Script(s.calls);
    const { model } = scriptedModel(script);
    const tools = wrapTools(scriptedTools(script), spy, 'run-6');
    const first = await generateText({ model, prompt: 'work', tools, ...stopOnLoop(spy, 'run-6', { stopWhen: stepCountIs(100) }) });
    const asked = first.content.find((p) => p.type === 'tool-approval-request');
    if (asked?.type !== 'tool-approval-request') throw new Error('no approval request');
    const id = asked.toolCall.toolCallId;
    expect(spy.decisions.find((d) => d.action === 'ask')?.id).toBe(id);
    expect(script.executed).not.toContain(Script.index(id));
    // the human approves: the SDK runs the call, and loopwatch records it without proposing it again
    const proposals = spy.proposals().length;
    await generateText({
      model,
      messages: [{ role: 'user', content: 'work' }, ...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: asked.approvalId, approved: true }] }],
      tools,
      stopWhen: stepCountIs(1),
    });
    expect(script.executed).toContain(Script.index(id));
    expect(spy.decisions.filter((d) => d.phase === 'record' && d.id === id)).toHaveLength(1);
    expect(spy.proposals().length).toBe(proposals + 1);
    spy.inner.close();
  });
});
