/**
 * loopwatch/openai-agents through the OpenAI Agents SDK's own Runner, with a scripted Model (the SDK's Model
 * interface, no network, tracing off): a stuck model is warned (the warning reaches its next input), then
 * denied by the tool input guardrail (the tool does not run, the model reads why), then the run throws the
 * guardrail's tripwire with the stop decision; legitimate work is never denied; an error inside loopwatch never
 * breaks the run; ask interrupts the run for approval; a warned image stays an image; tools guarded once
 * serve concurrent runs, each in its own session; a run on a named session stopped before fails loudly.
 */
import { Agent, Runner, ToolCallError, ToolInputGuardrailTripwireTriggered, Usage, setTracingDisabled, tool } from '@openai/agents';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARDRAIL_NAMES, guardTools, stopDecisionOf } from '../src/adapters/openai-agents.js';
import { LiveGuard, SessionStoppedError } from '../src/index.js';
import type { LiveDecision } from '../src/index.js';
import { LEGITIMATE, STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { Script, SpyGuard, brokenGuard, restoredStopped, expectFailedOpenRun, expectLegitimateRun, expectStuckRun } from './helpers/sdk-runs.js';
import { SECRET_SHAPES, shownPart } from './helpers/secret-shapes.js';

beforeAll(() => setTracingDisabled(true));
afterAll(() => setTracingDisabled(false));

/** The SDK's Model interface: scripted call i at the i-th turn (all of them, then a final answer); keeps its inputs. */
class ScriptedModel implements Model {
  readonly inputs: unknown[] = [];
  constructor(private readonly script: Script) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const i = this.inputs.length;
    this.inputs.push(request.input);
    const c = this.script.calls[i];
    if (c === undefined) return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
    return { usage: new Usage(), output: [{ type: 'function_call', callId: Script.id(i), name: c.tool, arguments: JSON.stringify(c.args), status: 'completed' }] };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** The text of each function call's result in the model's last input, by call id. */
function resultTexts(inputs: readonly unknown[]): Map<string, string> {
  const items = (inputs.at(-1) ?? []) as { type: string; callId?: string; output?: { type?: string; text?: string } }[];
  return new Map(items.filter((i) => i.type === 'function_call_result').map((i) => [i.callId as string, i.output?.text ?? JSON.stringify(i.output)]));
}

/** What @openai/agents 0.14.3's default error function answered a tool that threw: its fixed text, then the error. */
const answerAsOldSdk = (_ctx: unknown, error: unknown): string => `An error occurred while running the tool. Please try again. Error: ${String(error)}`;

/**
 * docs/adapters.md's errorFunction for handing loopwatch the error on 0.20, as written there (the test below
 * checks the page has this text). `String(err)` of an Error already starts with "Error: ": the page's sample
 * gave "... Error: Error: <message>" before newuser24.
 */
const DOCS_ERROR_FUNCTION = "errorFunction: (_ctx, err) => `An error occurred while running the tool. Please try again. Error: ${err instanceof Error ? err.message : String(err)}`";
const answerAsDocs = (_ctx: unknown, err: unknown): string => `An error occurred while running the tool. Please try again. Error: ${err instanceof Error ? err.message : String(err)}`;

/** The script's tools, each running its scripted call; `errorFunction` answers a tool that threw (the SDK's own when absent). */
function scriptedTools(script: Script, errorFunction?: typeof answerAsOldSdk) {
  return script.tools.map((name) =>
    tool({
      name,
      description: name,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      execute: async (_input, _ctx, details) => script.run(Script.index(details?.toolCall?.callId ?? '')),
      ...(errorFunction === undefined ? {} : { errorFunction }),
    }),
  );
}

async function play(s: LiveScenario, spy: SpyGuard, session?: string) {
  const script = new Script(s.calls);
  const model = new ScriptedModel(script);
  const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools(scriptedTools(script), spy, session) });
  let error: unknown;
  let result;
  try {
    result = await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 });
  } catch (e) {
    error = e;
  }
  return { script, inputs: model.inputs, result, error };
}

describe('loopwatch/openai-agents (Runner with a scripted Model)', () => {
  it.each(STUCK.map((s) => [s.name, s] as const))('should warn, deny, then stop: %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, inputs, error } = await play(s, spy, 'run-1');
    const stop = expectStuckRun(s, spy, script, inputs, 'run-1');
    // the run throws the SDK's ToolCallError around its guardrail tripwire, which carries the stop decision
    expect(error).toBeInstanceOf(ToolCallError);
    const tripped = (error as ToolCallError).error as ToolInputGuardrailTripwireTriggered;
    expect(tripped).toBeInstanceOf(ToolInputGuardrailTripwireTriggered);
    expect(tripped.result.guardrail.name).toBe(GUARDRAIL_NAMES.input);
    expect(stopDecisionOf(error)).toBe(stop);
    expect(stopDecisionOf(new Error('other'))).toBeUndefined();
    spy.inner.close();
  });

  it.each(LEGITIMATE.map((s) => [s.name, s] as const))('should never deny %s', async (_name, s) => {
    const spy = new SpyGuard();
    const { script, result, error } = await play(s, spy, 'run-2');
    expect(error).toBeUndefined();
    expectLegitimateRun(spy, script, 'run-2');
    expect(result?.finalOutput).toBe('done');
    spy.inner.close();
  });

  it("should take a tool that threw (the SDK's own error text) as failed: blocked at its fourth proposal, as in the other SDKs", async () => {
    // the tool throws; the SDK answers the model with its fixed text, which is all guardTools gets back.
    // Before the fix it was recorded as an ordinary result ("Please try again" reads as a retry), and the
    // failing call ran 6 times before the first block instead of 3
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const { script, inputs, error } = await play(s, spy, 'run-2b');
    expect(JSON.stringify(inputs)).toContain('An error occurred while running the tool. Please try again.');
    expect(stopDecisionOf(error)?.action).toBe('stop');
    expect(script.executed).toEqual([0, 1, 2]);
    expect(spy.decisions.filter((d) => d.phase === 'propose').map((d) => d.action)).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
    spy.inner.close();
  });

  it('should not take different calls that each failed for their own reason for the same error (the SDK hides it)', async () => {
    // exploring a repository: commands not installed, files not there, each failing its own way. The SDK
    // answers every failure with the same fixed text; recorded as it is, the third failure was warned as
    // "the same error 3 times" and the seventh told the model to stop and ask for help. The calls alone,
    // with their real errors, get no warning
    const calls: LiveScenario['calls'] = [
      { tool: 'bash', args: { command: 'pytest -q' }, error: 'bash: pytest: command not found' },
      { tool: 'read', args: { path: 'setup.cfg' }, error: "ENOENT: no such file or directory, open 'setup.cfg'" },
      { tool: 'bash', args: { command: 'npm test' }, error: 'npm error Missing script: "test"' },
      { tool: 'read', args: { path: 'pyproject.toml' }, error: "ENOENT: no such file or directory, open 'pyproject.toml'" },
      { tool: 'bash', args: { command: 'make check' }, error: "make: *** No rule to make target 'check'.  Stop." },
      { tool: 'read', args: { path: 'Makefile' }, error: "EACCES: permission denied, open 'Makefile'" },
      { tool: 'bash', args: { command: 'cargo test' }, error: 'error: could not find `Cargo.toml`' },
    ];
    const direct = new LiveGuard();
    for (const c of calls) {
      expect(direct.propose('alone', { tool: c.tool, args: c.args }).action).toBe('allow');
      expect(direct.record('alone', { tool: c.tool, args: c.args, error: c.error }).action).toBe('allow');
    }
    direct.close();
    const spy = new SpyGuard();
    const { script, inputs, result, error } = await play({ name: 'failing exploration', stuck: false, calls }, spy, 'run-2c');
    expect(error).toBeUndefined();
    expect(result?.finalOutput).toBe('done');
    expect(script.executed).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(spy.decisions.filter((d) => d.action !== 'allow').map((d) => d.message)).toEqual([]);
    expect(JSON.stringify(inputs)).not.toContain('[loopwatch]');
    spy.inner.close();
  });

  it("should read the error an older SDK (0.14.3) put after its fixed text: blocked at the fourth proposal", async () => {
    // @openai/agents 0.14.3's default error function answered `<fixed text> Error: <the error>`; a tool's own
    // errorFunction returning that here is what 0.14 gives a tool that threw. Before the fix it was recorded
    // as a result: the failing call ran 6 times before it was stopped (checked by hand with 0.14.3 installed)
    const s = STUCK[0] as LiveScenario;
    const script = new Script(s.calls);
    const model = new ScriptedModel(script);
    const tools = scriptedTools(script, answerAsOldSdk);
    const spy = new SpyGuard();
    const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools(tools, spy, 'run-2d') });
    const error = await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 }).then(() => undefined, (e: unknown) => e);
    expect(stopDecisionOf(error)?.action).toBe('stop');
    expect(script.executed).toEqual([0, 1, 2]);
    expect(spy.decisions.filter((d) => d.phase === 'propose').map((d) => d.action)).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
    // the error recorded is the tool's own, as the model read it
    expect(JSON.stringify(model.inputs)).toContain('Please try again. Error: Error: error: command');
    spy.inner.close();
  });

  it.each(['ignores', 'honours'])("should take a call the SDK's own timeout ended as failed, tool %s the abort signal: stopped, not left to loop", async (_how, how) => {
    // a tool with the SDK's `timeoutMs` that never answers: the Runner answers the model "Tool 'fetch_page'
    // timed out after 20ms." and abandons (or, when the tool honours the signal, sees the SDK's
    // ToolTimeoutError thrown from) the guarded invoke. Before the fix no such call was recorded at all:
    // 8 identical calls ran, each timing out, and the run ended "done" with no warning
    const calls = Array.from({ length: 8 }, () => ({ tool: 'fetch_page', args: { url: 'https://example.com/slow' } }));
    const script = new Script(calls);
    const model = new ScriptedModel(script);
    const slow = tool({
      name: 'fetch_page',
      description: 'fetch a page',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      timeoutMs: 20,
      execute: (_input, _ctx, details) =>
        new Promise<string>((_resolve, reject) => {
          script.executed.push(Script.index(details?.toolCall?.callId ?? ''));
          if (how === 'honours') details?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const spy = new SpyGuard();
    const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools([slow], spy, `run-timeout-${how}`) });
    const error = await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 }).then(() => undefined, (e: unknown) => e);
    const records = spy.decisions.filter((d) => d.phase === 'record');
    expect(records.length).toBeGreaterThan(0);
    expect(JSON.stringify(model.inputs)).toContain("Tool 'fetch_page' timed out after 20ms.");
    // a timeout is the world's (infrastructure): given more rope than a tool that threw, still stopped
    expect(stopDecisionOf(error)?.action).toBe('stop');
    expect(script.executed.length).toBeLessThan(calls.length);
    expect(spy.proposals()).toContain('deny');
    spy.inner.close();
  });

  it("should read the SDK's timeout text a tool's own invoke returns outside the Runner as an error", async () => {
    const slow = tool({
      name: 'fetch_page',
      description: 'fetch a page',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      timeoutMs: 15,
      execute: () => new Promise<string>(() => {}),
    });
    const recorded: unknown[] = [];
    const guard = new LiveGuard();
    const spyRecord = { propose: guard.propose.bind(guard), stopped: guard.stopped.bind(guard), record: (s: string, c: Parameters<LiveGuard['record']>[1]) => (recorded.push(c), guard.record(s, c)) };
    const [guarded] = guardTools([slow], spyRecord, 'direct');
    const out = await (guarded as typeof slow).invoke({} as never, '{}', { toolCall: { callId: 'd1' } } as never);
    expect(out).toBe("Tool 'fetch_page' timed out after 15ms.");
    expect(recorded).toEqual([expect.objectContaining({ tool: 'fetch_page', error: "Tool 'fetch_page' timed out after 15ms." })]);
    guard.close();
  });

  it("should put the warning before the SDK's error text, in place of its \"Please try again.\"", async () => {
    // a tool that threw is answered by the SDK with its fixed text; before the fix the warned call read
    // "... Please try again." and then "[loopwatch] ... Stop repeating it", two opposite orders at once
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const { inputs } = await play(s, spy, 'run-2f');
    const warn = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'warn') as LiveDecision;
    const outputs = resultTexts(inputs);
    expect(outputs.get(warn.id as string)).toBe(`${warn.message}\n\nAn error occurred while running the tool.`);
    // the failures loopwatch says nothing of keep the SDK's text as it is
    expect(outputs.get(Script.id(0))).toBe('An error occurred while running the tool. Please try again.');
    spy.inner.close();
  });

  it("should keep the tool's own error after the warning, where the tool hands it over (0.14.3's answer)", async () => {
    const s = STUCK[0] as LiveScenario;
    const script = new Script(s.calls);
    const model = new ScriptedModel(script);
    const spy = new SpyGuard();
    const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools(scriptedTools(script, answerAsOldSdk), spy, 'run-2g') });
    await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 }).catch(() => undefined);
    const warn = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'warn') as LiveDecision;
    const error = (s.calls[0] as { error: string }).error;
    expect(resultTexts(model.inputs).get(warn.id as string)).toBe(`${warn.message}\n\nAn error occurred while running the tool. Error: Error: ${error}`);
    spy.inner.close();
  });

  it('should show no secret of a failing call in what loopwatch adds for the model', async () => {
    // the same failing call, its arguments and its error carrying keys: what the model reads of every call
    // that ran or was blocked (the SDK's text, loopwatch's warning and denial) shows none of them
    const keys = SECRET_SHAPES.filter((k) => k.name === 'Anthropic key' || k.name === 'AWS access key id');
    const command = `curl -H "x-api-key: ${keys[0]?.text}" https://api.example.com`;
    const calls = Array.from({ length: 8 }, () => ({ tool: 'bash', args: { command }, error: `401 for key ${keys[0]?.text} (aws ${keys[1]?.text})` }));
    const spy = new SpyGuard();
    const { inputs, error } = await play({ name: 'a failing call with keys', stuck: true, calls }, spy, 'run-2h');
    expect(stopDecisionOf(error)?.action).toBe('stop');
    const outputs = [...resultTexts(inputs).values()];
    expect(outputs.filter((o) => o.includes('[loopwatch]'))).toHaveLength(2);
    for (const k of keys) expect(outputs.map((o) => shownPart(o, k))).toEqual(outputs.map(() => null));
    for (const d of spy.decisions) for (const k of keys) expect(shownPart(d.message ?? '', k)).toBeNull();
    spy.inner.close();
  });

  it('should see the same wall hit with varying arguments when a tool hands the error over, as docs/adapters.md says', async () => {
    // on 0.20 the SDK answers every failure with one fixed text; a tool whose errorFunction answers as 0.14.3's
    // default did hands loopwatch the error itself, so ten pip installs each failing alike are a dead end
    const calls = Array.from({ length: 10 }, (_, i) => ({
      tool: 'bash',
      args: { command: `pip install foo==1.${i}` },
      error: `ERROR: Could not find a version that satisfies the requirement foo==1.${i}\nERROR: No matching distribution found for foo==1.${i}`,
    }));
    const run = async (errorFunction: boolean) => {
      const script = new Script(calls);
      const tools = scriptedTools(script, errorFunction ? answerAsDocs : undefined);
      const spy = new SpyGuard();
      const model = new ScriptedModel(script);
      const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools(tools, spy, `run-2e-${errorFunction}`) });
      await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 }).then(() => undefined, (e: unknown) => e);
      spy.inner.close();
      return { actions: spy.decisions.filter((d) => d.phase === 'propose' && d.action !== 'allow').map((d) => d.action), seen: JSON.stringify(model.inputs) };
    };
    expect(readFileSync(new URL('../docs/adapters.md', import.meta.url), 'utf8')).toContain(DOCS_ERROR_FUNCTION);
    // with the error handed over: warned, denied, stopped (as in the other SDKs, which are given the error)
    const handed = await run(true);
    expect(handed.actions).toEqual(['warn', 'deny', 'stop']);
    // the model reads the error once named, not "Error: Error: ERROR: ..."
    expect(handed.seen).toContain('Please try again. Error: ERROR: Could not find a version');
    expect(handed.seen).not.toContain('Error: Error:');
    // the SDK's fixed text alone: loopwatch cannot know the failures were alike, and says nothing
    expect((await run(false)).actions).toEqual([]);
  });

  it('should fail open when loopwatch itself fails: every call runs, one report', async () => {
    const s = STUCK[0] as LiveScenario;
    const { guard, errors } = brokenGuard(['bash']);
    const { script, result, error } = await play(s, guard, 'run-3');
    expect(error).toBeUndefined();
    expectFailedOpenRun(guard, errors, script);
    expect(result?.finalOutput).toBe('done');
    guard.inner.close();
  });

  it('should interrupt the run for approval on ask, and run the call once approved', async () => {
    const spy = new SpyGuard(new LiveGuard({ policy: { ladder: ['warn', 'ask'] } }));
    const s = STUCK[0] as LiveScenario;
    const script = new Script(s.calls);
    const agent = new Agent({ name: 'worker', instructions: 'work', model: new ScriptedModel(script), tools: guardTools(scriptedTools(script), spy, 'run-4') });
    const runner = new Runner({ tracingDisabled: true });
    const first = await runner.run(agent, 'work', { maxTurns: 100 });
    const [interruption] = first.interruptions ?? [];
    const asked = spy.decisions.find((d) => d.action === 'ask');
    expect(interruption?.rawItem).toMatchObject({ callId: asked?.id });
    expect(script.executed).not.toContain(Script.index(asked?.id as string));
    first.state.approve(interruption as NonNullable<typeof interruption>);
    await runner.run(agent, first.state, { maxTurns: 1 }).catch(() => undefined);
    expect(script.executed).toContain(Script.index(asked?.id as string));
    expect(spy.decisions.filter((d) => d.phase === 'record' && d.id === asked?.id)).toHaveLength(1);
    spy.inner.close();
  });

  it('should keep an image a tool returns, with the warning beside it', async () => {
    // a screenshot tool answering the same 12 KB PNG each time: warned at its third call
    const png = `data:image/png;base64,${Buffer.alloc(9_000, 7).toString('base64')}`;
    const calls = Array.from({ length: 4 }, () => ({ tool: 'screenshot', args: {} }));
    const script = new Script(calls);
    const model = new ScriptedModel(script);
    const screenshot = tool({
      name: 'screenshot',
      description: 'screenshot',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      execute: async (_input, _ctx, details) => (script.run(Script.index(details?.toolCall?.callId ?? '')), { type: 'image' as const, image: png }),
    });
    const spy = new SpyGuard();
    const agent = new Agent({ name: 'worker', instructions: 'work', model, tools: guardTools([screenshot], spy, 'run-6') });
    await new Runner({ tracingDisabled: true }).run(agent, 'work', { maxTurns: 100 }).catch(() => undefined);
    const warned = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'warn');
    expect(warned).toBeDefined();
    // what the model read of the warned call: the image as an image, and the warning as text beside it
    const results = (model.inputs.at(-1) as { type: string; callId?: string; output?: unknown }[]).filter((i) => i.type === 'function_call_result');
    const result = results.find((r) => r.callId === warned?.id);
    expect(result?.output).toEqual([expect.objectContaining({ type: 'input_image', image: png }), { type: 'input_text', text: warned?.message }]);
    // before the fix the output was the image's JSON as 16 KB of text, cut, with the warning after it
    expect(JSON.stringify(model.inputs.at(-1))).not.toContain('\\"type\\":\\"image\\"');
    spy.inner.close();
  });

  it('should give each run its own session with tools guarded once, also two runs at once', async () => {
    const spy = new SpyGuard();
    const stuck = new Script((STUCK[0] as LiveScenario).calls);
    const legit = new Script((LEGITIMATE[3] as LiveScenario).calls);
    const scripts = new Map<string, Script>([
      ['a', stuck],
      ['b', legit],
    ]);
    const bash = tool({
      name: 'bash',
      description: 'bash',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      execute: async (_input, _ctx, details) => {
        const [run, i] = (details?.toolCall?.callId ?? '').split(':');
        return (scripts.get(run as string) as Script).run(Number(i));
      },
    });
    const tools = guardTools([bash], spy);
    /** A model for run `run` (its call ids are `run:i`). */
    const modelOf = (run: string): Model => {
      const script = scripts.get(run) as Script;
      let i = 0;
      return {
        getResponse: async () => {
          const c = script.calls[i];
          const id = `${run}:${i++}`;
          if (c === undefined) return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
          return { usage: new Usage(), output: [{ type: 'function_call', callId: id, name: c.tool, arguments: JSON.stringify(c.args), status: 'completed' }] };
        },
        async *getStreamedResponse() {
          throw new Error('not scripted');
        },
      };
    };
    const runner = new Runner({ tracingDisabled: true });
    const run = (id: string) => runner.run(new Agent({ name: 'worker', instructions: 'work', model: modelOf(id), tools }), 'work', { maxTurns: 100 });
    const [a, b] = await Promise.allSettled([run('a'), run('b')]);
    expect(stopDecisionOf(a.status === 'rejected' ? a.reason : undefined)?.action).toBe('stop');
    expect(b.status).toBe('fulfilled');
    expect(legit.executed).toHaveLength(12);
    expect(new Set(spy.decisions.map((d) => d.session)).size).toBe(2);
    // after the stop, the same tools in a new run: before the fix they were bound to the stopped session
    scripts.set('c', new Script((LEGITIMATE[3] as LiveScenario).calls));
    expect((await run('c')).finalOutput).toBe('done');
    expect(scripts.get('c')?.executed).toHaveLength(12);
    spy.inner.close();
  });

  it('should fail loudly when a run starts on a named session it already stopped', async () => {
    const spy = new SpyGuard();
    const first = await play(STUCK[0] as LiveScenario, spy, 'run-5');
    expect(stopDecisionOf(first.error)?.action).toBe('stop');
    const again = await play(LEGITIMATE[0] as LiveScenario, spy, 'run-5');
    let e = again.error as { error?: unknown; cause?: unknown } | undefined;
    while (e !== undefined && !(e instanceof SessionStoppedError)) e = (e.error ?? e.cause) as typeof e;
    expect(e).toBeInstanceOf(SessionStoppedError);
    expect(again.script.executed).toEqual([]);
    spy.inner.close();
  });

  it('should throw SessionStoppedError when a run starts on a named session restored stopped', async () => {
    const { spy } = restoredStopped('run-9');
    const again = await play(LEGITIMATE[0] as LiveScenario, spy, 'run-9');
    let e = again.error as { error?: unknown; cause?: unknown } | undefined;
    while (e !== undefined && !(e instanceof SessionStoppedError)) e = (e.error ?? e.cause) as typeof e;
    expect(e).toBeInstanceOf(SessionStoppedError);
    expect(again.script.executed).toEqual([]);
    spy.inner.close();
  });
});
