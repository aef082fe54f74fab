/**
 * The MCP proxy's memory is bounded whatever either side sends. Measured in process (main at 66506c1):
 * 400 calls of 1 MB args that the server never answered held 414 MB in the in-flight table (4,096 of up
 * to 64 MiB each could be held); a 30 MB line of `[],[],...` from the server, answering a call in flight,
 * was parsed to 1.3 GB of RSS in 12 s. Now the calls in flight weigh at most MAX_IN_FLIGHT_BYTES (their
 * lines, and their values: the oldest forgotten first, as past MAX_IN_FLIGHT), and a line of more than
 * MAX_JSON_VALUES values is forwarded unread, byte for byte (as a line over the cap is). Calls held for
 * a human's answer (asks) weigh at most MAX_HELD_ASK_BYTES in all (before: 64 of any size, nine in a
 * row from one client that never answers); past it an ask is a warning, the call forwarded.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { MAX_JSON_VALUES } from '../src/formats/json-value-count.js';
import { MAX_HELD_ASK_BYTES } from '../src/mcp/ask-elicitation.js';
import { MAX_IN_FLIGHT_BYTES } from '../src/mcp/tool-call-gate.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';

/** A proxy between in-memory streams; what reached the client. */
function harness(guard = new LiveGuard()) {
  const { gate, clientIn, serverIn, toClient, settle } = inMemoryProxy(guard, 64 << 20, false);
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

  it('should hold at most MAX_HELD_ASK_BYTES of calls for a client that never answers its asks', async () => {
    const h = harness(new LiveGuard({ policy: { ladder: ['ask', 'break'] } }));
    h.clientIn.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { capabilities: { elicitation: {} } } })}\n`);
    await h.settle();
    const args = { target: 'x'.repeat(16 * MB) };
    const asks = (): number => Buffer.concat(h.toClient).toString('latin1').split('\n').filter((l) => l.includes('"elicitation/create"')).length;
    for (let i = 0; i < 16; i++) {
      h.clientIn.write(call(i, args));
      await h.settle();
      // the server fails every call it gets: the same call failing again is a loop, then asked about
      if (h.gate.inFlightCount > 0) {
        h.serverIn.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: 'gcc failed' }], isError: true } })}\n`);
        await h.settle();
      }
    }
    expect(asks()).toBeGreaterThan(0);
    // unanswered, the session asks nine times before it denies (before: all nine held, 144 MB)
    expect(asks()).toBe(Math.floor(MAX_HELD_ASK_BYTES / (16 * MB + 80)));
  }, 120_000);
});
