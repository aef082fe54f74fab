/**
 * Values nested past JSON.stringify's depth (hostile10). `JSON.parse` reads a 10,000-deep value, but
 * `JSON.stringify` overflows its stack on it: a server result whose `structuredContent` (or an unknown
 * content item, or an error's data) nested that deep cost the proxy its one internal-error line
 * (`Maximum call stack size exceeded`), left the call's outcome unrecorded and dropped the warning the call
 * had; a batch holding a call with such args was forwarded whole, the calls in it that loopwatch refused
 * included. src/mcp/json-text.ts writes the same text without recursion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { exactJson, keepIdTexts } from '../src/mcp/exact-ids.js';
import { jsonText, walkText } from '../src/mcp/json-text.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';

const DEPTH = 100_000;
const deep = (inner: string): string => `${'['.repeat(DEPTH)}${inner}${']'.repeat(DEPTH)}`;
const lines = (bs: Buffer[]): string[] => Buffer.concat(bs.splice(0)).toString('utf8').split('\n').filter((l) => l !== '');

describe('json-text', () => {
  it('should write what JSON.stringify writes, for any JSON value and with kept ids', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(walkText(v)).toBe(JSON.stringify(v));
        expect(jsonText(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
    // what the proxy adds (undefined members are left out, null in arrays; -0 and non-finite numbers)
    const odd = { a: undefined, b: [undefined, -0, Infinity, NaN, 'é\u2028\ud800'], id: 1, c: { id: 2 } };
    expect(walkText(odd)).toBe(JSON.stringify(odd));
    expect(walkText(undefined)).toBe(undefined);
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"result":{"id":9007199254740993}}';
    const m = JSON.parse(text) as object;
    keepIdTexts(m, text);
    expect(walkText(m, () => undefined)).toBe(JSON.stringify(m));
  });

  it('should write a value nested past JSON.stringify depth, and a kept id in it', () => {
    const text = `{"jsonrpc":"2.0","id":9007199254740993,"result":{"content":[],"structuredContent":${deep('1')}}}`;
    const m = JSON.parse(text) as object;
    expect(() => JSON.stringify(m)).toThrow(RangeError);
    keepIdTexts(m, text);
    expect(exactJson(m)).toBe(text);
    expect(jsonText(JSON.parse(deep('"x"')))).toBe(deep('"x"'));
  });
});

describe('the MCP proxy and values nested past JSON.stringify depth', () => {
  for (const [where, response] of [
    ['structuredContent', (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{"log":${deep('"e"')}},"isError":true}}`],
    ['an unknown content item', (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"trace","frames":${deep('"e"')}}],"isError":true}}`],
  ] as const) {
    it(`should record a result with ${where} and add its warning, without an internal error`, async () => {
      const { clientIn, serverIn, toClient, toServer, failures, settle } = inMemoryProxy(new LiveGuard(), 64 << 20);
      let warned: string | undefined;
      for (let id = 1; id <= 8 && warned === undefined; id++) {
        clientIn.write(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"build","arguments":{"target":"ext"}}}\n`);
        await settle();
        if (lines(toServer).length === 0) break; // refused: the proxy answered
        serverIn.write(`${response(id)}\n`);
        await settle();
        const got = lines(toClient);
        expect(got).toHaveLength(1);
        const answer = JSON.parse(got[0] as string) as { id: number; result: { content: { text?: string }[] } };
        expect(answer.id).toBe(id);
        warned = answer.result.content.find((c) => c.text?.includes('[loopwatch]') === true)?.text;
      }
      expect(failures).toEqual([]);
      expect(warned).toMatch(/\[loopwatch\]/);
    });
  }

  it('should check every call of a batch that holds a call with args nested past JSON.stringify depth', async () => {
    const guard = new LiveGuard({ tools: { build: { identity: (): never => { throw new Error('identity bug'); } } }, failClosed: true, onInternalError: () => undefined });
    const { clientIn, toClient, toServer, failures, settle } = inMemoryProxy(guard, 64 << 20);
    const deepCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":${deep('"a"')}}}}`;
    clientIn.write(`[${deepCall},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"build","arguments":{}}}]\n`);
    await settle();
    expect(failures).toEqual([]);
    const server = lines(toServer);
    expect(server).toHaveLength(1);
    expect(server[0]).toBe(`[${deepCall}]`);
    const client = lines(toClient);
    expect(client).toHaveLength(1);
    expect(client[0]).toMatch(/^\[\{"jsonrpc":"2\.0","id":2,"result":\{"content":\[\{"type":"text","text":"[^"]*fail closed/);
  });
});
