/**
 * loopwatch/ai-sdk through AI SDK v7's own agent loop (the real `ai@7`, installed as `ai7`: generateText and
 * ToolLoopAgent with toolApproval, onToolExecutionEnd, steering and stop conditions), driven by its
 * MockLanguageModelV4: approveCalls warns through steering (the model reads it at its next step), denies with
 * the reason (the call does not run), stops, and lets the model give a final answer without tools; legitimate
 * work is never denied; an error inside loopwatch never breaks the run; each run has its own session, and a
 * run on a session stopped before fails loudly. tsc checks the helpers against v7's own types here.
 */
import { ToolLoopAgent, experimental_createSteering, generateText, isStepCount, jsonSchema, tool } from 'ai7';
import type { ToolSet } from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { describe, expect, it } from 'vitest';
import { approveCalls, stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { SessionStoppedError } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** What the scripted model answers when it may not call tools. */
const FINAL = 'I could not finish: my calls were stopped.';

const text = (t: string): GenerateResult => ({ content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** v7's mock model: scripted call i at its i-th step, text when it may not call tools; keeps prompts and tool choices. */
function scriptedModel(script: Script, idOf: (i: number) => string = Script.id): { model: MockLanguageModelV4; prompts: unknown[]; choices: (string | undefined)[] } {
  const prompts: unknown[] = [];
  const choices: (string | undefined)[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions): Promise<GenerateResult> => {
      const i = prompts.length;
      prompts.push(options.prompt);
      choices.push(options.toolChoice?.type);
      if (options.toolChoice?.type === 'none') return text(FINAL);
      const c = script.calls[i];
      if (c === undefined) return text('done');
      return { content: [{ type: 'tool-call', toolCallId: idOf(i), toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
    },
  });
  return { model, prompts, choices };
}

function scriptedTools(script: Script): ToolSet {
  return Object.fromEntries(script.tools.map((name) => [name, tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }), execute: async (_input, { toolCallId }) => script.run(Script.index(toolCallId)) })]));
}

async function play(s: LiveScenario, spy: SpyGuard, session: string) {
  const script = new Script(s.calls);
  const { model, prompts, choices } = scriptedModel(script);
  const steering = experimental_createSteering();
  const result = await generateText({ model, prompt: 'work', tools: scriptedTools(script), experimental_steering: steering, ...approveCalls(spy, session, { stopWhen: isStepCount(100), steering }) });
  return { script, prompts, choices, result };
}

describe('loopwatch/ai-sdk (AI SDK v7, approveCalls)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop, with a final answer: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, prompts, choices, result } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, prompts, 'run-1');
    expect(JSON.stringify(prompts.at(-1))).toContain(JSON.stringify(stop.message).slice(1, -1));
    expect(choices.at(-1)).toBe('none');
    expect(result.text).toBe(FINAL);
    expect(result.steps).toHaveLength(spy.proposals().length + 1);
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, result } = await play(s, spy, 'run-2');
    expectLegitimateRun(spy, script, 'run-2');
    expect(result.text).toBe('done');
    spy.inner.close();
  });

  it('should fail open when loopwatch itself fails: every call runs, one report', async () => {
    const { guard, errors } = brokenGuard(['bash']);
    const { script, result } = await play(STUCK[0] as LiveScenario, guard, 'run-3');
    expectFailedOpenRun(guard, errors, script);
    expect(result.text).toBe('done');
    guard.inner.close();
  });

  it('should fail loudly when a run starts on a session it already stopped', async () => {
    const spy = new SpyGuard();
    await play(STUCK[0] as LiveScenario, spy, 'run-4');
    await expect(play(LEGITIMATE[0] as LiveScenario, spy, 'run-4')).rejects.toThrow(SessionStoppedError);
    spy.inner.close();
  });

  it('should throw SessionStoppedError when a run starts on a session restored stopped', async () => {
    const { spy } = restoredStopped('run-9');
    await expect(play(LEGITIMATE[0] as LiveScenario, spy, 'run-9')).rejects.toThrow(SessionStoppedError);
    spy.inner.close();
  });

  it('should give each call of a ToolLoopAgent built once its own session (approveCalls in prepareCall)', async () => {
    const spy = new SpyGuard();
    const scripts = new Map<string, Script>([
      ['run-5a', new Script((STUCK[0] as LiveScenario).calls)],
      ['run-5b', new Script((LEGITIMATE[3] as LiveScenario).calls)],
    ]);
    const bash = tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (_input, { toolCallId }) => {
        const [run, i] = toolCallId.split(':');
        return (scripts.get(run as string) as Script).run(Number(i));
      },
    });
    const model = new MockLanguageModelV4({
      doGenerate: async (options: CallOptions): Promise<GenerateResult> => {
        const prompt = JSON.stringify(options.prompt);
        const run = prompt.match(/run-5[ab]/)?.[0] as string;
        const i = prompt.split('"tool-call"').length - 1;
        const c = (scripts.get(run) as Script).calls[i];
        if (options.toolChoice?.type === 'none') return text(FINAL);
        if (c === undefined) return text('done');
        return { content: [{ type: 'tool-call', toolCallId: `${run}:${i}`, toolName: c.tool, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
      },
    });
    const steering = experimental_createSteering();
    const agent = new ToolLoopAgent({
      model,
      tools: { bash },
      prepareCall: (call) => ({ ...call, ...approveCalls(spy, String(call.prompt), { stopWhen: isStepCount(100), steering }) }),
    });
    const [a, b] = await Promise.all([agent.generate({ prompt: 'run-5a' }), agent.generate({ prompt: 'run-5b' })]);
    expect(spy.stopped('run-5a')?.action).toBe('stop');
    expect(a.text).toBe(FINAL);
    expect(spy.stopped('run-5b')).toBeUndefined();
    expect(scripts.get('run-5b')?.executed).toHaveLength(12);
    expect(b.text).toBe('done');
    spy.inner.close();
  });

  it("should fail before any call runs, naming approveCalls, when v6's lines (wrapTools + stopOnLoop) run on v7", async () => {
    // the README's SDK lines as written, with `ai` 7 installed: v7 hands tools no run context, so the run's
    // session never reaches them; before the fix the error told the user to spread stopOnLoop, which they had
    const spy = new SpyGuard();
    const script = new Script((LEGITIMATE[0] as LiveScenario).calls);
    const run = generateText({ model: scriptedModel(script).model, prompt: 'work', tools: wrapTools(scriptedTools(script), spy), ...stopOnLoop(spy, 'run-6b', { stopWhen: isStepCount(100) }) });
    await expect(run).rejects.toThrow(/names no session.*AI SDK 7.*approveCalls/s);
    expect(script.executed).toEqual([]);
    spy.inner.close();
  });

  it('should also run wrapTools with a session of its own through v7 (its tools get no run context)', async () => {
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const script = new Script(s.calls);
    const { model, prompts } = scriptedModel(script);
    const { experimental_context: _v6Only, ...stops } = stopOnLoop(spy, 'run-6', { stopWhen: isStepCount(100) });
    const result = await generateText({ model, prompt: 'work', tools: wrapTools(scriptedTools(script), spy, 'run-6'), ...stops });
    expectStuckRun(s, spy, script, prompts, 'run-6');
    expect(result.text).toBe(FINAL);
    spy.inner.close();
  });
});
