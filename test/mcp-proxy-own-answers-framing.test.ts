/**
 * The MCP proxy's own messages to the client (its refusals, its elicitation requests) never land inside a
 * line the server is still streaming. Found by hostile9 (the proxy run as a child process with a scripted
 * server): a call denied while the server streamed a line over `--max-line-bytes` had its refusal spliced
 * into the server's line, so the client could parse neither, and the denied call was never answered.
 * Now own messages wait for the server's newline (outlet.ts); a server that ends mid-line has them start
 * a line of their own; past OWN_HELD_BYTES held, the client's input is paused until the line ends.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { OWN_HELD_BYTES } from '../src/mcp/outlet.js';
import { CLI } from './helpers/cli.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A proxy whose every call is refused (its check fails, fail closed): each call gets an answer of the proxy's own. */
function harness(maxLine = 1024) {
  const boom = { build: { identity: (): never => { throw new Error('identity bug'); } } };
  const guard = new LiveGuard({ tools: boom, failClosed: true, onInternalError: () => undefined });
  const { clientIn, serverIn, toClient, settle } = inMemoryProxy(guard, maxLine, false);
  return { clientIn, serverIn, settle, received: (): string => Buffer.concat(toClient).toString('utf8') };
}

const call = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'build', arguments: { n: id } } })}\n`;
const head = '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"';
const refusal = /^\{"jsonrpc":"2\.0","id":(\d+),"result":\{"content":\[\{"type":"text","text":"[^\n]*fail closed[^\n]*"\}\],"isError":true\}\}$/;

describe('the MCP proxy\'s own answers and a server line still streaming', () => {
  it('should hold a refusal until the server\'s oversized line ends, then send it on a line of its own', async () => {
    const h = harness();
    h.serverIn.write(head + 'a'.repeat(3000)); // over the 1,024-byte cap: streams through raw
    await h.settle();
    h.clientIn.write(call(7));
    await h.settle();
    expect(h.received()).toBe(head + 'a'.repeat(3000)); // nothing spliced in
    h.serverIn.write('b"}}\n');
    await h.settle();
    const lines = h.received().split('\n');
    expect(lines[0]).toBe(`${head}${'a'.repeat(3000)}b"}}`);
    expect(lines[1]).toMatch(refusal);
    expect(lines[2]).toBe('');
  });

  it('should start held answers on a line of their own when the server ends mid-line', async () => {
    const h = harness();
    h.serverIn.write(head + 'a'.repeat(3000));
    await h.settle();
    h.clientIn.write(call(1));
    await h.settle();
    h.serverIn.end();
    await h.settle();
    h.clientIn.write(call(2));
    await h.settle();
    const lines = h.received().split('\n');
    expect(lines[0]).toBe(head + 'a'.repeat(3000)); // the server's bytes as they came
    expect(lines.slice(1, 3).map((l) => refusal.exec(l)?.[1])).toEqual(['1', '2']);
  });

  it('should send at once when no server line is under way, and pause the client past OWN_HELD_BYTES held', async () => {
    const h = harness();
    h.clientIn.write(call(1));
    await h.settle();
    expect(h.received().split('\n')[0]).toMatch(refusal);
    h.serverIn.write(head);
    h.serverIn.write('a'.repeat(2000));
    await h.settle();
    let n = 2;
    while (!h.clientIn.isPaused() && n < 100_000) {
      h.clientIn.write(call(n++));
      await h.settle();
    }
    expect(h.clientIn.isPaused()).toBe(true);
    expect(n * 200).toBeGreaterThan(OWN_HELD_BYTES); // each refusal is some 200 bytes or more
    h.serverIn.write('"}}\n');
    await h.settle();
    expect(h.clientIn.isPaused()).toBe(false);
    const lines = h.received().split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => refusal.test(l))).toHaveLength(n - 1);
    expect(lines.filter((l) => l.startsWith(head))).toHaveLength(1);
  });
});

const SERVER = `
import { createInterface } from 'node:readline';
const out = (s) => process.stdout.write(s);
let n = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }) + '\\n');
  if (m.method !== 'tools/call') return;
  out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'error: gcc failed with exit status 1' }], isError: true } }) + '\\n');
  // after the third call: a long line, finished only after a pause
  if (++n === 3) { out(${JSON.stringify(head)} + 'a'.repeat(4096)); process.stderr.write('line started\\n'); setTimeout(() => out('"}}\\n'), 1500); }
});
`;

describe.skipIf(process.platform !== 'linux')('loopwatch mcp with a server streaming a long line', () => {
  it('should answer a call it denies meanwhile on a line of its own, the server\'s line whole', async () => {
    const server = join(tempFolder('mcp-own-framing'), 'server.mjs');
    writeFileSync(server, SERVER);
    const child = spawn(process.execPath, [CLI, 'mcp', '--max-line-bytes', '2048', '--', process.execPath, server], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const until = async (f: () => boolean): Promise<void> => {
      for (let i = 0; i < 300 && !f(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const send = (o: unknown): boolean => child.stdin.write(`${JSON.stringify(o)}\n`);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    for (let id = 1; id <= 3; id++) {
      send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'build', arguments: { target: 'ext' } } });
      await until(() => out.includes(`"id":${id},`));
    }
    // the proxy is inside the long line once its start has reached the client (the server's 'line started'
    // alone can come before the proxy has read that line: call 4 was then refused before it, and the test
    // read the output before the line came)
    await until(() => err.includes('line started') && out.includes(head));
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'build', arguments: { target: 'ext' } } }); // denied: fails the same each time
    await until(() => /"id":4,/.test(out) && out.endsWith('\n'));
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(6);
    expect(lines[4]).toBe(`${head}${'a'.repeat(4096)}"}}`);
    expect(JSON.parse(lines[5] as string)).toMatchObject({ id: 4, result: { isError: true, content: [{ text: expect.stringContaining('did not run') }] } });
    expect(err).toMatch(/deny tools\/call "build" \(id 4\)/);
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  }, 30_000);
});
