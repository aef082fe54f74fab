/**
 * AI SDK 6: two runs at the same time through tools wrapped once, their models numbering calls alike (c0,
 * c1, ...), as mock models and some providers do (newuser17). `toModelOutput` is given no run context, so a
 * warning was kept by call id alone: run B's call c2 starting between run A's call c2 (warned) and the
 * moment the SDK asks A's `toModelOutput` wiped A's warning, and A's model never read it. The warning is
 * now kept for the call's own input object, which the SDK hands to `execute` and then to `toModelOutput`.
 * Through generateText's own loop with its MockLanguageModelV3.
 */
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { SpyGuard } from './helpers/sdk-runs.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (id: string, toolName: string, input: unknown): LanguageModelV3Content => ({ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) });

/** A model answering step i with `steps[i]` (then 'done'); keeps its prompts. */
function model(steps: LanguageModelV3Content[][]): { model: MockLanguageModelV3; prompts: unknown[] } {
  const prompts: unknown[] = [];
  return {
    prompts,
    model: new MockLanguageModelV3({
      doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
        const content = steps[prompts.length];
        prompts.push(options.prompt);
        if (content === undefined) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
      },
    }),
  };
}

describe('loopwatch/ai-sdk: runs at the same time whose call ids repeat', () => {
  it("should give each run's model its own warning, whatever the other run does with the same id", async () => {
    const spy = new SpyGuard();
    let bRanC2: () => void = () => {};
    const bAtC2 = new Promise<void>((resolve) => (bRanC2 = resolve));
    const schema = jsonSchema<Record<string, unknown>>({ type: 'object' });
    const tools = wrapTools(
      {
        // the same command, the same output: run A's third is warned about (exact_repeat)
        bash: tool({ inputSchema: schema, execute: async (input, { toolCallId, experimental_context }) => {
          if ((experimental_context as { run: string }).run === 'B' && toolCallId === 'c2') bRanC2();
          return `ran ${JSON.stringify(input)}`;
        } }),
        // run A's slow sibling of its warned call: done once run B has started its own call c2
        wait: tool({ inputSchema: schema, execute: async () => {
          await bAtC2;
          return 'waited';
        } }),
      },
      spy,
    );
    const a = model([[call('c0', 'bash', { command: 'cat missing.txt' })], [call('c1', 'bash', { command: 'cat missing.txt' })], [call('c2', 'bash', { command: 'cat missing.txt' }), call('c3', 'wait', {})]]);
    const b = model([[call('c0', 'bash', { command: 'ls' })], [call('c1', 'bash', { command: 'pwd' })], [call('c2', 'bash', { command: 'git status' })]]);
    const run = (m: MockLanguageModelV3, session: string, tag: string) =>
      generateText({ model: m, prompt: 'work', tools, ...stopOnLoop(spy, session, { stopWhen: stepCountIs(10), context: { run: tag } }) });
    const [ra, rb] = await Promise.all([run(a.model, 'run-A', 'A'), run(b.model, 'run-B', 'B')]);
    expect([ra.text, rb.text]).toEqual(['done', 'done']);
    const warned = spy.decisions.filter((d) => d.action === 'warn');
    expect(warned.map((d) => [d.session, d.id])).toEqual([['run-A', 'c2']]);
    // run A's model reads its warning after the result of c2 (before the fix: nothing, B's c2 had wiped it)
    expect(JSON.stringify(a.prompts.at(-1))).toContain('[loopwatch]');
    expect(JSON.stringify(b.prompts)).not.toContain('[loopwatch]');
    spy.inner.close();
  });
  it('should still bring a streamText run its warning (the warning kept for the input the SDK hands on)', async () => {
    const spy = new SpyGuard();
    const prompts: unknown[] = [];
    const steps = [0, 1, 2].map((i) => [call(`c${i}`, 'bash', { command: 'cat missing.txt' })]);
    const streaming = new MockLanguageModelV3({
      doStream: async (options) => {
        const content = steps[prompts.length];
        prompts.push(options.prompt);
        const chunks: LanguageModelV3StreamPart[] =
          content === undefined
            ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }]
            : [...(content as LanguageModelV3StreamPart[]), { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage }];
        return { stream: new ReadableStream({ start: (ctl) => { for (const c of chunks) ctl.enqueue(c); ctl.close(); } }) };
      },
    });
    const tools = wrapTools({ bash: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }), execute: async () => 'cat: missing.txt: No such file or directory' }) }, spy);
    const run = streamText({ model: streaming, prompt: 'work', tools, ...stopOnLoop(spy, 'run-S', { stopWhen: stepCountIs(10) }) });
    expect(await run.text).toBe('done');
    expect(spy.decisions.filter((d) => d.action === 'warn').map((d) => d.id)).toEqual(['c2']);
    expect(JSON.stringify(prompts.at(-1))).toContain('[loopwatch]');
    spy.inner.close();
  });
});
