/**
 * A server's error answer to a tool call reaches the client with its secrets redacted, as loopwatch's own
 * text is: a JSON-RPC error's `message` and `data`, an `isError` result's text (how the MCP SDKs answer a
 * tool that threw). A successful result passes as the same bytes, whatever it holds (the tool's work: a
 * file read may be written back). Before, every answer passed as it came: a server echoing its API key in
 * an error handed it to the model.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';
import { SECRET_SHAPES } from './helpers/secret-shapes.js';

type Msg = Record<string, unknown>;

const call = (id: number, tool = 'fetch_issue', args: unknown = { n: id }): Msg => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } });

/** Sends `answer` for a call just forwarded and returns the text that reached the client. */
async function answered(answer: (id: number) => Msg, id = 1): Promise<{ text: string; sent: string }> {
  const p = inMemoryProxy(new LiveGuard());
  p.clientIn.write(`${JSON.stringify(call(id))}\n`);
  await p.settle();
  const sent = `${JSON.stringify(answer(id))}\n`;
  p.serverIn.write(sent);
  await p.settle();
  expect(p.failures).toEqual([]);
  return { text: Buffer.concat(p.toClient).toString('utf8'), sent };
}

describe('the MCP proxy redacts secrets in a server\'s error answers', () => {
  for (const s of SECRET_SHAPES) {
    it(`should redact a ${s.name} in a JSON-RPC error's message and data`, async () => {
      const { text } = await answered((id) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: `upstream refused: ${s.text}`, data: { request: { headers: [s.text] }, hint: s.text } } }));
      expect(text).not.toContain(s.hidden);
      const m = JSON.parse(text) as { id: number; error: { code: number; message: string; data: { hint: string } } };
      expect(m).toMatchObject({ id: 1, error: { code: -32603 } });
      expect(m.error.message).toMatch(/^upstream refused: .*\[REDACTED\]/);
      expect(m.error.data.hint).toContain('[REDACTED]');
    });

    it(`should redact a ${s.name} in an isError result's text and structured content`, async () => {
      const { text } = await answered((id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `Error executing tool fetch_issue: 401 with ${s.text}` }], structuredContent: { detail: s.text }, isError: true } }));
      expect(text).not.toContain(s.hidden);
      expect(JSON.parse(text)).toMatchObject({ result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Error executing tool fetch_issue: 401 with .*\[REDACTED\]/) }] } });
    });
  }

  it('should pass a successful result as the same bytes, a secret in it or not', async () => {
    const key = SECRET_SHAPES[0]?.text as string;
    const { text, sent } = await answered((id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `OPENAI_API_KEY=${key}` }] } }));
    expect(text).toBe(sent);
  });

  it('should pass an error without a secret as the same bytes', async () => {
    const { text, sent } = await answered((id) => ({ jsonrpc: '2.0', id: id, error: { code: -32602, message: 'unknown issue 7', data: { n: 7 } } }));
    expect(text).toBe(sent);
  });

  it('should keep a large id exact when the answer is written again', async () => {
    const p = inMemoryProxy(new LiveGuard());
    p.clientIn.write('{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"x","arguments":{}}}\n');
    await p.settle();
    p.serverIn.write(`{"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":1,"message":"bad key ${SECRET_SHAPES[0]?.text as string}"}}\n`);
    await p.settle();
    const text = Buffer.concat(p.toClient).toString('utf8');
    expect(text).toContain('"id":12345678901234567890');
    expect(text).toContain('[REDACTED]');
  });
});
