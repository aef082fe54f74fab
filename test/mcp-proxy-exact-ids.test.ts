/**
 * JSON-RPC ids past 2^53 come back as the client wrote them (hostile9, the proxy fuzzed as a child with a
 * scripted server): JSON.parse rounds `9007199254740993` to `9007199254740992` and writes
 * `12345678901234567890123` as `1.2345678901234568e+22`, so every message the proxy wrote anew (an answer
 * it added a warning to, its own refusal, a batch forwarded without the calls it refused) carried an id the
 * client could not match: its call was never answered. The id's text is now kept (src/mcp/exact-ids.ts).
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { exactJson, idTexts, keepIdTexts } from '../src/mcp/exact-ids.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';

/** A proxy between in-memory streams; the raw lines each side received. */
function harness(guard: LiveGuard) {
  const { clientIn, serverIn, toClient, toServer, settle } = inMemoryProxy(guard);
  const lines = (bs: Buffer[]): string[] => Buffer.concat(bs.splice(0)).toString('utf8').split('\n').filter((l) => l !== '');
  return {
    client: async (text: string) => void (clientIn.write(`${text}\n`), await settle()),
    server: async (text: string) => void (serverIn.write(`${text}\n`), await settle()),
    take: () => ({ client: lines(toClient), server: lines(toServer) }),
  };
}

const failClosed = (): LiveGuard => new LiveGuard({ tools: { build: { identity: (): never => { throw new Error('identity bug'); } } }, failClosed: true, onInternalError: () => undefined });
const callText = (id: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"build","arguments":{"target":"ext"}}}`;
const failedText = (id: string): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"error: gcc failed with exit status 1"}],"isError":true}}`;

describe('the MCP proxy and ids a double cannot hold', () => {
  // each call its own id (n a digit), every one past 2^53
  for (const [shape, idOf] of [['9n07199254740993', (n: number) => `9${n}07199254740993`], ['n2345678901234567890123', (n: number) => `${n + 1}2345678901234567890123`], ['-9n23372036854775807', (n: number) => `-9${n}23372036854775807`]] as const) {
    it(`should write ids like ${shape} back as they came in answers it warns on and in its own refusal`, async () => {
      const h = harness(new LiveGuard());
      const seen: string[] = [];
      for (let n = 0; n < 8 && !seen.some((l) => l.includes('did not run')); n++) {
        await h.client(callText(idOf(n)));
        const first = h.take();
        if (first.server.length > 0) await h.server(failedText(idOf(n)));
        const got = [...first.client, ...h.take().client];
        expect(got).toHaveLength(1);
        expect(got[0]).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${idOf(n)},"result":`));
        seen.push(...got);
      }
      expect(seen.filter((l) => l.includes('[loopwatch]') && !l.includes('did not run')).length).toBeGreaterThan(0);
      expect(seen.filter((l) => l.includes('did not run'))).toHaveLength(1);
    });
  }

  it('should keep the ids of a batch as written: its refused call answered, the rest forwarded', async () => {
    const h = harness(failClosed());
    await h.client(`[${callText('9007199254740993')},{"jsonrpc":"2.0","id":9007199254740995,"method":"tools/list"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`);
    const { client, server } = h.take();
    expect(server).toEqual(['[{"jsonrpc":"2.0","id":9007199254740995,"method":"tools/list"},{"jsonrpc":"2.0","id":7,"method":"ping"}]']);
    expect(client).toHaveLength(1);
    expect(client[0]).toMatch(/^\[\{"jsonrpc":"2\.0","id":9007199254740993,"result":\{"content":\[\{"type":"text","text":"[^"]*fail closed/);
  });

  it('should leave ids a double holds as JSON.stringify writes them', async () => {
    const h = harness(failClosed());
    await h.client(callText('1E2'));
    await h.client(callText('"9007199254740993"'));
    expect(h.take().client.map((l) => /"id":([^,]*),/.exec(l)?.[1])).toEqual(['100', '"9007199254740993"']);
  });
});

describe('idTexts', () => {
  it('should find the id member of a message or of each message of a batch, not ids nested deeper or in strings', () => {
    expect(idTexts('{"params":{"id":1},"id" : 9007199254740993,"x":"\\"id\\":5"}')).toEqual(['9007199254740993']);
    expect(idTexts('[{"id":"a"},5,{"x":[{"id":3}],"id":-12e400},{"id":18446744073709551617}]')).toEqual([undefined, undefined, '-12e400', '18446744073709551617']);
    expect(idTexts('{"method":"id","p":{"q":"id"}}')).toEqual([]);
  });

  it('should write a kept id back only for the message it came with', () => {
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"result":{"id":9007199254740993}}';
    const m = JSON.parse(text) as object;
    keepIdTexts(m, text);
    expect(exactJson(m)).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{"id":9007199254740992}}');
    expect(exactJson(JSON.parse(text) as object)).toBe('{"jsonrpc":"2.0","id":9007199254740992,"result":{"id":9007199254740992}}');
  });
});
