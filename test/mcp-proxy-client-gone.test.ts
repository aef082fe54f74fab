/**
 * `loopwatch mcp` when its client goes away while the server reads nothing (hostile10; hostile9 left it):
 * the client's input is paused while the server's stdin is full, so the proxy never read its end, and proxy
 * and server stayed for ever once the client died. Now, while the client's input is held back, the proxy
 * pings the client every CLIENT_CHECK_MS (an MCP `ping` of its own, its answer dropped): the write to a
 * client gone fails, and the server is stopped as the MCP spec says.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { STOP_GRACE_MS } from '../src/cli/mcp-command.js';
import { CLIENT_CHECK_MS } from '../src/mcp/mcp-proxy.js';
import { CLI } from './helpers/cli.js';
import { inMemoryProxy } from './helpers/mcp-in-memory.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A server that never reads its stdin nor writes, running until a signal ends it. */
const SERVER = 'setInterval(() => undefined, 1000);\n';

const callLine = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'write', arguments: { text: 'x'.repeat(4000) } } })}\n`;

describe.skipIf(process.platform !== 'linux')('loopwatch mcp when the client goes away while the server reads nothing', () => {
  it('should ping the held-back client, see it gone and stop the server', async () => {
    const file = join(tempFolder('mcp-client-gone'), 'server.mjs');
    writeFileSync(file, SERVER);
    const child = spawn(process.execPath, [CLI, 'mcp', '--', process.execPath, file], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise((r) => setTimeout(r, 1_000)); // started
    // 1 MB of calls: more than the server's pipe, the proxy's buffers and the client's pipe hold
    child.stdin.write(Array.from({ length: 250 }, (_, i) => callLine(i)).join(''));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(child.stdin.writableLength).toBeGreaterThan(0); // the proxy stopped reading: its input is held back
    // the client dies: both its pipes close, what it had not written is lost
    child.stdin.destroy();
    child.stdout.destroy();
    const t0 = Date.now();
    const code = await Promise.race([exited, new Promise<'running'>((r) => setTimeout(() => r('running'), CLIENT_CHECK_MS + 3 * STOP_GRACE_MS + 4_000))]);
    if (code === 'running') child.kill('SIGKILL');
    expect(code).toBe(143); // the server ignored its stdin's end; SIGTERM ended it
    expect(Date.now() - t0).toBeLessThan(CLIENT_CHECK_MS + 3 * STOP_GRACE_MS + 4_000);
    expect(err).not.toMatch(/internal error/);
  }, 40_000);
});

describe('the proxy\'s ping of the client', () => {
  it('should be an MCP ping whose answer never reaches the server', async () => {
    const { gate, clientIn, toServer, settle } = inMemoryProxy(new LiveGuard());
    const ping = gate.ping();
    expect(ping).toMatchObject({ jsonrpc: '2.0', method: 'ping' });
    expect(typeof ping.id).toBe('string');
    clientIn.write(`${JSON.stringify({ jsonrpc: '2.0', id: ping.id, result: {} })}\n`);
    clientIn.write(`${JSON.stringify({ jsonrpc: '2.0', id: ping.id, error: { code: -32601, message: 'Method not found' } })}\n`);
    await settle();
    expect(toServer).toEqual([]);
  });
});
