/**
 * loopwatch/ai-sdk through the AI SDK v6's own agent loop (generateText, streamText and ToolLoopAgent with
 * tools and stop conditions), driven by its MockLanguageModelV3: a stuck model is warned (the warning reaches
 * its next prompt), then denied (the tool does not run, the model reads why), then stopped, and gives a final
 * answer without tools; legitimate repetitive work is never denied; an error inside loopwatch never breaks
 * the run; ask uses the SDK's approval request; tools wrapped once serve every run, each in its own session,
 * and a run on a stopped session fails loudly.
 */
import { ToolLoopAgent, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { LiveGuard, SessionStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** What the scripted model answers when it may not call tools. */
const FINAL = 'I could not finish: my calls were stopped.';

/**
 * A model that makes scripted call i at its i-th step (all of them, then a final answer), and answers in text
 * when it may not call tools (toolChoice none); keeps its prompts and tool choices.
 */
function scriptedModel(script: Script): { model: MockLanguageModelV3; prompts: unknown[]; choices: (string | undefined)[] } {
  const prompts: unknown[] = [];
  const choices: (string | undefined)[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      const i = prompts.length;
      prompts.push(options.prompt);
      choices.push(options.toolChoice?.type);
      if (options.toolChoice?.type === 'none') return { content: [{ type: 'text', text: FINAL }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      const c = script.calls[i];
      if (c === undefined) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return { content: [{ type: 'tool-call', toolCallId: Script.id(i), toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
    },
  });
  return { model, prompts, choices };
}

function scriptedTools(script: Script) {
  return Object.fromEntries(script.tools.map((name) => [name, tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }), execute: async (_input, { toolCallId }) => script.run(Script.index(toolCallId)) })]));
}

async function play(s: LiveScenario, spy: SpyGuard, session: string) {
  const script = new Script(s.calls);
  const { model, prompts, choices } = scriptedModel(script);
  const result = await generateText({ model, prompt: 'work', tools: wrapTools(scriptedTools(script), spy), ...stopOnLoop(spy, session, { stopWhen: stepCountIs(100) }) });
  return { script, prompts, choices, result };
}

describe('loopwatch/ai-sdk (AI SDK v6, generateText)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, prompts, choices, result } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, prompts, 'run-1');
    // the stopped step's tool error is the LoopStoppedError; then one more step, without tools, for the final
    // answer (before the fix the run ended on the stopped step, with empty text)
    expect(result.steps.length).toBe(spy.proposals().length + 1);
    const stopped = result.steps.at(-2)?.content.find((p) => p.type === 'tool-error');
    expect(stopped?.type === 'tool-error' && (stopped.error as { code?: string }).code).toBe('ERR_LOOPWATCH_LOOP_STOPPED');
    expect(stopped?.type === 'tool-error' && (stopped.error as Error).message).toBe(stop.message);
    expect(choices.at(-1)).toBe('none');
    expect(JSON.stringify(prompts.at(-1))).toContain('The run is being stopped.');
    expect(result.text).toBe(FINAL);
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
        const chunks: LanguageModelV3StreamPart[] = [
          ...r.content.flatMap((c): LanguageModelV3StreamPart[] =>
            c.type === 'tool-call' ? [c] : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.type === 'text' ? c.text : '' }, { type: 'text-end', id: 't' }],
          ),
          { type: 'finish', finishReason: r.finishReason, usage },
        ];
        return { stream: new ReadableStream({ start: (ctl) => { for (const c of chunks) ctl.enqueue(c); ctl.close(); } }) };
      },
    });
    const run = streamText({ model: streaming, prompt: 'work', tools: wrapTools(scriptedTools(script), spy), ...stopOnLoop(spy, 'run-5', { stopWhen: stepCountIs(100) }) });
    await run.consumeStream();
    expect(spy.stopped('run-5')?.action).toBe('stop');
    expect((await run.steps).length).toBe(spy.proposals().length + 1);
    expect(await run.text).toBe(FINAL);
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

  it('should give each run its own session with tools wrapped once, also two runs at once', async () => {
    const spy = new SpyGuard();
    const stuck = new Script((STUCK[0] as LiveScenario).calls);
    const legit = new Script((LEGITIMATE[3] as LiveScenario).calls);
    // one tool set for every run: bash answers from the script of the run that calls it
    const scripts = new Map<object, Script>();
    const bash = tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (_input, { toolCallId, experimental_context }) => (scripts.get(experimental_context as object) as Script).run(Script.index(toolCallId)),
    });
    const tools = wrapTools({ bash }, spy);
    const run = (script: Script, session: string) => {
      const context = {};
      scripts.set(context, script);
      return generateText({ model: scriptedModel(script).model, prompt: 'work', tools, ...stopOnLoop(spy, session, { stopWhen: stepCountIs(100), context }) });
    };
    const [a, b] = await Promise.all([run(stuck, 'run-7a'), run(legit, 'run-7b')]);
    expect(a.text).toBe(FINAL);
    expect(spy.stopped('run-7a')?.action).toBe('stop');
    expect(b.text).toBe('done');
    expect(spy.stopped('run-7b')).toBeUndefined();
    expect(legit.executed).toHaveLength(12);
    // and after the stop, the same tools in a new run, a new session: before the fix the tools were bound to one
    // session, and this run did nothing (1 step, 0 tool runs)
    const again = new Script((LEGITIMATE[3] as LiveScenario).calls);
    const c = await run(again, 'run-7c');
    expect(again.executed).toHaveLength(12);
    expect(c.text).toBe('done');
    spy.inner.close();
  });

  it("should never show a later run an earlier run's warning when call ids repeat (tools wrapped once)", async () => {
    // call ids c0, c1, ... in every run, as a mock model or a provider numbering its calls gives them; the
    // first run is warned about a call whose result came back (not thrown), the second is legitimate work
    const spy = new SpyGuard();
    const stuck = new Script((STUCK[2] as LiveScenario).calls);
    const legit = new Script((LEGITIMATE[3] as LiveScenario).calls);
    const scripts = new Map<object, Script>();
    const scripted = tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (_input, { toolCallId, experimental_context }) => (scripts.get(experimental_context as object) as Script).run(Script.index(toolCallId)),
    });
    const tools = wrapTools({ bash: scripted, grep: scripted, read_file: scripted }, spy);
    const run = async (script: Script, session: string) => {
      const context = {};
      scripts.set(context, script);
      const m = scriptedModel(script);
      await generateText({ model: m.model, prompt: 'work', tools, ...stopOnLoop(spy, session, { stopWhen: stepCountIs(100), context }) });
      return m.prompts;
    };
    const first = await run(stuck, 'run-7d');
    const warned = spy.decisions.find((d) => d.session === 'run-7d' && d.action === 'warn');
    expect(Script.index(warned?.id as string)).toBeLessThan(legit.calls.length);
    expect(JSON.stringify(first)).toContain('[loopwatch]');
    const prompts = await run(legit, 'run-7e');
    expect(legit.executed).toHaveLength(legit.calls.length);
    expect(spy.decisions.filter((d) => d.session === 'run-7e' && d.action !== 'allow')).toEqual([]);
    // before the fix the model read run-7d's warning after the result of run-7e's call of the same id
    expect(JSON.stringify(prompts)).not.toContain('[loopwatch]');
    spy.inner.close();
  });

  it('should fail loudly when a run starts on a session it already stopped', async () => {
    const spy = new SpyGuard();
    const s = STUCK[0] as LiveScenario;
    await play(s, spy, 'run-8');
    expect(spy.stopped('run-8')?.action).toBe('stop');
    await expect(play(LEGITIMATE[0] as LiveScenario, spy, 'run-8')).rejects.toThrow(SessionStoppedError);
    spy.inner.close();
  });

  it('should throw SessionStoppedError when a run starts on a session restored stopped', async () => {
    const { spy } = restoredStopped('run-9');
    await expect(play(LEGITIMATE[0] as LiveScenario, spy, 'run-9')).rejects.toThrow(SessionStoppedError);
    spy.inner.close();
  });

  it('should fail loudly when a run names no session', async () => {
    const spy = new SpyGuard();
    const script = new Script((LEGITIMATE[0] as LiveScenario).calls);
    const run = generateText({ model: scriptedModel(script).model, prompt: 'work', tools: wrapTools(scriptedTools(script), spy), stopWhen: stepCountIs(100) });
    await expect(run).rejects.toThrow(/names no session/);
    expect(script.executed).toEqual([]);
    spy.inner.close();
  });

  it('should give each call of a ToolLoopAgent built once its own session (stopOnLoop in prepareCall)', async () => {
    const spy = new SpyGuard();
    const scripts = new Map<string, Script>();
    const bash = tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (_input, { toolCallId }) => (scripts.get(toolCallId.split(':')[0] as string) as Script).run(Number(toolCallId.split(':')[1])),
    });
    // one model for the agent, answering each run from its own script (the run's id prefixes its call ids)
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const id = JSON.stringify(options.prompt).match(/run-9[ab]/)?.[0] as string;
        const script = scripts.get(id) as Script;
        const i = JSON.stringify(options.prompt).split('"tool-call"').length - 1;
        if (options.toolChoice?.type === 'none') return { content: [{ type: 'text', text: FINAL }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        const c = script.calls[i];
        if (c === undefined) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        return { content: [{ type: 'tool-call', toolCallId: `${id}:${i}`, toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
      },
    });
    const agent = new ToolLoopAgent({
      model,
      tools: wrapTools({ bash }, spy),
      prepareCall: (call) => ({ ...call, ...stopOnLoop(spy, String(call.prompt), { stopWhen: stepCountIs(100) }) }),
    });
    scripts.set('run-9a', new Script((STUCK[0] as LiveScenario).calls));
    scripts.set('run-9b', new Script((LEGITIMATE[3] as LiveScenario).calls));
    const [a, b] = await Promise.all([agent.generate({ prompt: 'run-9a' }), agent.generate({ prompt: 'run-9b' })]);
    expect(spy.stopped('run-9a')?.action).toBe('stop');
    expect(a.text).toBe(FINAL);
    expect(spy.stopped('run-9b')).toBeUndefined();
    expect(scripts.get('run-9b')?.executed).toHaveLength(12);
    expect(b.text).toBe('done');
    spy.inner.close();
  });
});
