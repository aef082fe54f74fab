/**
 * The MCP proxy's message layer in process (McpProxy, ToolCallGate, LineSplitter over in-memory streams):
 * framing under any chunking, batches, cancellations, errors, id kinds, the in-flight cap, failing open
 * or closed. The end-to-end test runs the same code between a real SDK client and server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { LineSplitter } from '../src/mcp/line-splitter.js';
import { MAX_IN_FLIGHT } from '../src/mcp/tool-call-gate.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';

type Msg = Record<string, unknown>;

/** A proxy between in-memory streams: what each side sent, and what reached each side. */
function harness(guard: LiveGuard = new LiveGuard(), maxLine = 1 << 20) {
  const { gate, clientIn, serverIn, toClient, toServer, failures } = inMemoryProxy(guard, maxLine);
  const line = (m: Msg | unknown[] | string): string => `${typeof m === 'string' ? m : JSON.stringify(m)}\n`;
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  const lines = (bs: Buffer[]): unknown[] => Buffer.concat(bs).toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return {
    gate,
    failures,
    async client(m: Msg | unknown[] | string): Promise<void> {
      clientIn.write(line(m));
      await settle();
    },
    async server(m: Msg | unknown[] | string): Promise<void> {
      serverIn.write(line(m));
      await settle();
    },
    /** What reached each side since the last take, parsed. */
    take(): { server: unknown[]; client: unknown[] } {
      const out = { server: lines(toServer), client: lines(toClient) };
      toServer.length = 0;
      toClient.length = 0;
      return out;
    },
    rawToClient: (): string => Buffer.concat(toClient).toString('utf8'),
  };
}

const call = (id: number | string, tool = 'build', args: unknown = { target: 'ext' }): Msg => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } });
const failed = (id: number | string): Msg => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'gcc failed' }], isError: true } });

describe('LineSplitter', () => {
  it('should give the same lines and bytes however the stream is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 12 }), fc.array(fc.nat(200), { maxLength: 10 }), (texts, cuts) => {
        const bytes = Buffer.from(texts.join('\n'));
        const seen: string[] = [];
        const out: Buffer[] = [];
        const s = new LineSplitter(16, (l) => (seen.push(`L${l.toString()}`), out.push(l)), (b) => (seen.push(`R${b.toString()}`), out.push(b)));
        let at = 0;
        for (const c of [...cuts.sort((a, b) => a - b), bytes.length]) {
          s.push(bytes.subarray(at, Math.max(at, Math.min(c, bytes.length))));
          at = Math.max(at, Math.min(c, bytes.length));
        }
        s.end();
        expect(Buffer.concat(out).equals(bytes)).toBe(true);
        // every whole line of at most 16 bytes (its newline included) is handed over whole, and only those
        const whole = texts.slice(0, -1).map((t) => `${t}\n`).filter((l) => Buffer.byteLength(l) <= 16);
        expect(seen.filter((x) => x.startsWith('L')).map((x) => x.slice(1))).toEqual(whole);
      }),
    );
  });
});

describe('McpProxy messages', () => {
  it('should check every tools/call inside a batch: a denied one answered in a batch of its own, the rest forwarded', async () => {
    const h = harness();
    let denied: Msg | undefined;
    for (let i = 1; i <= 8 && denied === undefined; i++) {
      await h.client([call(i), { jsonrpc: '2.0', id: `list-${i}`, method: 'tools/list' }]);
      const { server, client } = h.take();
      if (client.length > 0) {
        denied = (client[0] as Msg[])[0];
        expect(server).toEqual([[{ jsonrpc: '2.0', id: `list-${i}`, method: 'tools/list' }]]);
      } else {
        expect(server).toEqual([[call(i), { jsonrpc: '2.0', id: `list-${i}`, method: 'tools/list' }]]);
        await h.server([failed(i), { jsonrpc: '2.0', id: `list-${i}`, result: { tools: [] } }]);
        expect(h.take().client).toHaveLength(1);
      }
    }
    expect(denied).toMatchObject({ result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/^\[loopwatch\]/) }] } });
  });

  it('should add a warning to a JSON-RPC error answer as to its message, and keep ids 1 and "1" apart', async () => {
    const h = harness();
    let warned = false;
    for (let i = 1; i <= 6 && !warned; i++) {
      await h.client(call(i));
      await h.server({ jsonrpc: '2.0', id: i, error: { code: -32603, message: 'gcc failed' } });
      const e = (h.take().client[0] as { error: { message: string } }).error.message;
      warned = e !== 'gcc failed';
      if (warned) expect(e).toMatch(/^gcc failed\n\[loopwatch\] You appear to be in a loop/);
    }
    expect(warned).toBe(true);
    await h.client(call(100, 'read', { path: 'a' }));
    await h.client(call('100', 'read', { path: 'b' }));
    expect(h.gate.inFlightCount).toBe(2);
    await h.server({ jsonrpc: '2.0', id: '100', result: { content: [] } });
    await h.server({ jsonrpc: '2.0', id: '100', result: { content: [] } });
    expect(h.gate.inFlightCount).toBe(1);
    await h.server({ jsonrpc: '2.0', id: 100, result: { content: [] } });
    expect(h.gate.inFlightCount).toBe(0);
  });

  it('should check a call whose id is the empty string (without a call id), not pass it unchecked as an internal error', async () => {
    const internal: Error[] = [];
    const h = harness(new LiveGuard({ onInternalError: (e) => void internal.push(e) }));
    let refused: Msg | undefined;
    for (let n = 0; n < 8 && refused === undefined; n++) {
      await h.client(call(''));
      const { server, client } = h.take();
      if (client.length > 0) refused = client[0] as Msg;
      else {
        expect(server).toEqual([call('')]);
        await h.server(failed(''));
        h.take();
      }
    }
    expect(internal).toEqual([]);
    expect(refused).toMatchObject({ id: '', result: { isError: true, content: [{ type: 'text', text: expect.stringContaining('did not run') }] } });
  });

  it('should forget a cancelled call (its late answer passes unchanged) and answers it has no call for, byte for byte', async () => {
    const h = harness();
    await h.client(call(1));
    expect(h.gate.inFlightCount).toBe(1);
    await h.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    expect(h.gate.inFlightCount).toBe(0);
    expect(h.take().server).toHaveLength(2);
    const odd = '{ "jsonrpc" : "2.0", "id" : 1, "result" : {"content": []} }';
    await h.server(odd);
    expect(h.rawToClient()).toBe(`${odd}\n`);
  });

  it('should not record a task handle (a task-augmented call) as the call\'s outcome', async () => {
    const guard = new LiveGuard();
    const recorded: unknown[] = [];
    const record = guard.record.bind(guard);
    guard.record = (session, c) => (recorded.push(c), record(session, c));
    const h = harness(guard);
    await h.client(call(1));
    const handle = { jsonrpc: '2.0', id: 1, result: { task: { taskId: 't1', status: 'working' } } };
    await h.server(handle);
    await h.client(call(2, 'read', { path: 'a' }));
    await h.server({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'A' }] } });
    expect(h.take().client).toEqual([handle, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'A' }] } }]);
    expect(recorded).toEqual([{ id: '2', tool: 'read', args: { path: 'a' }, result: 'A' }]);
  });

  it('should keep at most MAX_IN_FLIGHT calls waiting for an answer', async () => {
    const h = harness();
    await h.client(Array.from({ length: MAX_IN_FLIGHT + 5 }, (_, i) => JSON.stringify(call(i, 'read', { path: `f${i}` }))).join('\n'));
    expect(h.gate.inFlightCount).toBe(MAX_IN_FLIGHT);
    expect(h.take().server).toHaveLength(MAX_IN_FLIGHT + 5);
  });

  it('should forward a call when the proxy fails on it, and say so once', async () => {
    const guard = new LiveGuard();
    guard.propose = () => {
      throw new Error('gate bug');
    };
    const h = harness(guard);
    await h.client(call(1));
    await h.client(call(2));
    expect(h.take().server).toEqual([call(1), call(2)]);
    expect(h.failures.map((e) => e.message)).toEqual(['gate bug', 'gate bug']);
  });

  it('should refuse a call when loopwatch fails on it and is set to fail closed', async () => {
    const boom = { build: { identity: (): never => { throw new Error('identity bug'); } } };
    const h = harness(new LiveGuard({ tools: boom, failClosed: true, onInternalError: () => undefined }));
    await h.client(call(1));
    const { server, client } = h.take();
    expect(server).toEqual([]);
    expect(client).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: expect.stringMatching(/fail closed/) }], isError: true } }]);
  });
});
