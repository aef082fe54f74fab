/**
 * The MCP proxy's memory is bounded whatever either side sends. Measured in process (main at 66506c1):
 * 400 calls of 1 MB args that the server never answered held 414 MB in the in-flight table (4,096 of up
 * to 64 MiB each could be held); a 30 MB line of `[],[],...` from the server, answering a call in flight,
 * was parsed to 1.3 GB of RSS in 12 s. Now the calls in flight weigh at most MAX_IN_FLIGHT_BYTES (their
 * lines, and their values: the oldest forgotten first, as past MAX_IN_FLIGHT), and a line of more than
 * MAX_JSON_VALUES values is forwarded unread, byte for byte (as a line over the cap is).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { MAX_JSON_VALUES } from '../src/formats/json-value-count.js';
import { McpProxy } from '../src/mcp/mcp-proxy.js';
import { MAX_IN_FLIGHT_BYTES, ToolCallGate } from '../src/mcp/tool-call-gate.js';

/** A proxy between in-memory streams; what reached the client. */
function harness() {
  const clientIn = new PassThrough();
  const serverIn = new PassThrough();
  const clientOut = new PassThrough();
  const serverOut = new PassThrough();
  serverOut.resume();
  const toClient: Buffer[] = [];
  clientOut.on('data', (b: Buffer) => toClient.push(b));
  const gate = new ToolCallGate(new LiveGuard(), 's');
  new McpProxy(gate, { input: clientIn, output: clientOut }, { input: serverIn, output: serverOut }, 64 << 20, () => undefined, () => undefined);
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { gate, clientIn, serverIn, toClient, settle };
}

const MB = 1024 * 1024;
const call = (id: number, args: unknown): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'upload', arguments: args } })}\n`;

describe('the MCP proxy under a flood', () => {
  it('should keep at most MAX_IN_FLIGHT_BYTES of calls in flight, the oldest forgotten first', async () => {
    const h = harness();
    for (let i = 0; i < 100; i++) {
      h.clientIn.write(call(i, { data: `${i}:${'x'.repeat(MB)}` }));
      await h.settle();
    }
    expect(h.gate.inFlightCount).toBe(Math.floor(MAX_IN_FLIGHT_BYTES / (MB + 80)));
    // the newest call's answer is paired with its call (recorded), the oldest's passes unread
    const answer = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } })}\n`;
    const before = h.gate.inFlightCount;
    h.serverIn.write(answer(0));
    await h.settle();
    expect(h.gate.inFlightCount).toBe(before);
    h.serverIn.write(answer(99));
    await h.settle();
    expect(h.gate.inFlightCount).toBe(before - 1);
  }, 60_000);

  it('should forward a line of more than MAX_JSON_VALUES values unread, byte for byte', async () => {
    const h = harness();
    h.clientIn.write(call(1, { path: 'a' }));
    await h.settle();
    expect(h.gate.inFlightCount).toBe(1);
    const line = `{"jsonrpc":"2.0","id":1,"result":{"content":[],"x":[${'[],'.repeat(MAX_JSON_VALUES / 2)}[]]}}\n`;
    h.serverIn.write(line);
    await h.settle();
    expect(Buffer.concat(h.toClient).toString('latin1')).toBe(line);
    expect(h.gate.inFlightCount).toBe(1); // not read: not paired with its call
  }, 60_000);
});
