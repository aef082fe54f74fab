/**
 * loopwatch/ai-sdk through the AI SDK's own loop (generateText with tools and a stop condition, its
 * MockLanguageModelV3) with a model that makes three tool calls a step, as Claude, GPT and Gemini do:
 * three identical failing builds a step are warned by the third failure and denied at the next step, as one
 * call a step would be (before the fix: 9 calls ran, first warned at the 7th proposal, par1); three reads of
 * different files a step are never warned.
 */
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { SpyGuard } from './helpers/sdk-runs.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const PER_STEP = 3;
const STEPS = 5;

/** A model that makes PER_STEP calls of `args(step, k)` to `toolName` each step for STEPS steps, then answers. */
function parallelModel(toolName: string, args: (step: number, k: number) => Record<string, unknown>): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      const s = step++;
      if (options.toolChoice?.type === 'none' || s >= STEPS) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      const content = Array.from({ length: PER_STEP }, (_, k) => ({ type: 'tool-call' as const, toolCallId: `c${s}_${k}`, toolName, input: JSON.stringify(args(s, k)) }));
      return { content, finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
    },
  });
}

/** Runs the model with one tool whose calls `answer` (throwing fails them); returns what ran and what was decided. */
async function run(toolName: string, args: (step: number, k: number) => Record<string, unknown>, answer: (input: Record<string, unknown>) => string) {
  const spy = new SpyGuard();
  const ran: string[] = [];
  const tools = {
    [toolName]: tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (input, { toolCallId }) => {
        ran.push(toolCallId);
        return answer(input);
      },
    }),
  };
  await generateText({ model: parallelModel(toolName, args), prompt: 'work', tools: wrapTools(tools, spy), ...stopOnLoop(spy, 'run', { stopWhen: stepCountIs(20) }) });
  const decided = spy.decisions.filter((d) => d.action !== 'allow').map((d) => `${d.id}:${d.phase}:${d.action}`);
  spy.inner.close();
  return { ran, decided };
}

describe('loopwatch/ai-sdk with three parallel tool calls a step', () => {
  it('should warn by the third identical failure and deny the next step (before the fix: warned at the 7th proposal)', async () => {
    const { ran, decided } = await run('bash', () => ({ command: 'npm run build' }), () => {
      throw new Error("Exit code 2\nsrc/index.ts(3,1): error TS2304: Cannot find name 'foo'.");
    });
    // the first step ran (three calls, the third failure warned once recorded), nothing more
    expect(ran).toEqual(['c0_0', 'c0_1', 'c0_2']);
    expect(decided.slice(0, 2)).toEqual(['c0_2:record:warn', 'c1_0:propose:deny']);
    expect(decided).toContain('c1_1:propose:stop');
  });

  it('should never warn on three reads of different files a step', async () => {
    const { ran, decided } = await run('read', (s, k) => ({ path: `src/part${s * PER_STEP + k}.ts` }), (input) => `export const x = ${JSON.stringify(input.path)};`);
    expect(ran).toHaveLength(STEPS * PER_STEP);
    expect(decided).toEqual([]);
  });
});
