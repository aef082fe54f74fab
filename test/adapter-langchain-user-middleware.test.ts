/**
 * What a user's own middleware sees beside loopwatch's, through LangChain's own agent loop (createAgent, its
 * fake tool-calling model) on a stuck run (`make` failing each time: warned, then denied, then ended).
 * Listed before loopwatch (wrapping it), a middleware sees one request per call, the real tool, and the
 * ToolMessage the model reads: a tool's error and a denial with status `error`, loopwatch's text in it.
 * Listed after (loopwatch wraps it), it also sees loopwatch's stand-in tools, each marked
 * `tool.metadata.loopwatch` (`denied`, `tool-error`: the same call's second pass with LangChain's error
 * text), so it can tell a call that did not run from one that did. Before, a stand-in looked like the real
 * tool run with success (no mark), and a denied call was indistinguishable from a call that ran.
 */
import { tool } from '@langchain/core/tools';
import { FakeToolCallingModel, createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopwatchMiddleware } from '../src/adapters/langchain.js';
import { LiveGuard } from '../src/index.js';

/** One wrapToolCall as a user's middleware saw it: the call, the tool's mark, what came back. */
interface Seen {
  readonly call: string;
  readonly mark: unknown;
  readonly status: unknown;
  readonly text: string;
  readonly threw: boolean;
}

function watcher(name: string, seen: Seen[]) {
  return createMiddleware({
    name,
    wrapToolCall: async (request, handler) => {
      const mark = (request.tool as { metadata?: { loopwatch?: unknown } } | undefined)?.metadata?.loopwatch;
      try {
        const out = await handler(request);
        const m = out as { status?: unknown; content?: unknown };
        seen.push({ call: String(request.toolCall.id), mark, status: m.status, text: String(m.content), threw: false });
        return out;
      } catch (e) {
        seen.push({ call: String(request.toolCall.id), mark, status: undefined, text: String(e), threw: true });
        throw e;
      }
    },
  });
}

async function stuckRun() {
  let ran = 0;
  const make = tool(
    async () => {
      ran++;
      throw new Error('make: *** [all] Error 1');
    },
    { name: 'make', description: 'make', schema: z.object({}).passthrough() },
  );
  const outer: Seen[] = [];
  const inner: Seen[] = [];
  const model = new FakeToolCallingModel({ toolCalls: [...Array.from({ length: 8 }, (_, i) => [{ id: `c${i}`, name: 'make', args: {} }]), []] });
  const agent = createAgent({ model, tools: [make], middleware: [watcher('Outer', outer), loopwatchMiddleware(new LiveGuard()), watcher('Inner', inner)] });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'work' }] }, { configurable: { thread_id: 't' }, recursionLimit: 100 });
  return { ran, outer, inner, result };
}

describe("a user's middleware beside loopwatch's (LangChain's own agent loop)", () => {
  it('should show a middleware listed before loopwatch one request per call, the real tool, and what the model reads', async () => {
    const { ran, outer, result } = await stuckRun();
    expect(ran).toBe(3);
    const denied = outer.filter((s) => s.text.startsWith('[loopwatch]'));
    expect(denied.length).toBeGreaterThan(0);
    expect(outer.map((s) => s.call)).toEqual([...new Set(outer.map((s) => s.call))]); // once each
    for (const s of outer) {
      expect(s).toMatchObject({ mark: undefined, status: 'error', threw: false });
    }
    // what the outer middleware was given is what the model read
    const toolTexts = (result.messages as { getType(): string; content: unknown }[]).filter((m) => m.getType() === 'tool').map((m) => String(m.content));
    expect(outer.map((s) => s.text)).toEqual(toolTexts);
  });

  it("should mark loopwatch's stand-in tools to a middleware listed after it: denied calls and a tool error's second pass", async () => {
    const { inner } = await stuckRun();
    // a call whose tool threw: seen throwing, then again through a stand-in giving LangChain's error text
    const first = inner.filter((s) => s.call === 'c0');
    expect(first.map((s) => [s.threw, s.mark])).toEqual([[true, undefined], [false, 'tool-error']]);
    expect(first[1]?.text).toContain('Please fix your mistakes.');
    // a denied call: never the real tool, one pass through a stand-in marked denied, loopwatch's text
    const denied = inner.filter((s) => s.mark === 'denied');
    expect(denied.length).toBeGreaterThan(0);
    for (const s of denied) {
      expect(s.text).toMatch(/^\[loopwatch\]/);
      expect(inner.filter((x) => x.call === s.call)).toHaveLength(1);
    }
  });
});
