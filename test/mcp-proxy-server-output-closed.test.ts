/**
 * `loopwatch mcp` when the server closes its standard output but goes on running (hostile9, the proxy run
 * with a scripted server): no answer can reach the client any more, yet the proxy and the server stayed
 * until the client left, the client's calls waiting for ever. Now the proxy says so on stderr after
 * STOP_GRACE_MS and stops the server as the MCP spec says (stdin closed, SIGTERM, SIGKILL), then exits with
 * its code: the client sees the connection end. A server that closes its output as it exits is not named.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STOP_GRACE_MS } from '../src/cli/mcp-command.js';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A server that answers initialize, then on a tools/call closes its stdout and (`exit`) exits or (else) runs on. */
const server = (exit: boolean): string => `
import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }) + '\\n');
  if (m.method === 'tools/call') process.stdout.end(() => ${exit ? 'process.exit(0)' : "process.stderr.write('server: output closed\\\\n')"});
});
setInterval(() => undefined, 1000); // runs until stopped
`;

/** Runs the proxy in front of `source`, sends initialize and a call; its exit code (null: still running at `waitMs`) and stderr. */
async function run(source: string, waitMs: number): Promise<{ code: number | null; err: string; ms: number }> {
  const file = join(tempFolder('mcp-output-closed'), 'server.mjs');
  writeFileSync(file, source);
  const child = spawn(process.execPath, [CLI, 'mcp', '--', process.execPath, file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
  child.stdout.resume();
  const t0 = Date.now();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'build', arguments: {} } })}\n`);
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), waitMs))]);
  const ms = Date.now() - t0;
  if (code === null) child.kill('SIGKILL');
  return { code, err, ms };
}

describe.skipIf(process.platform !== 'linux')('loopwatch mcp when the server closes its output', () => {
  it('should stop a server that closed its output but runs on, say so, and exit with its code', async () => {
    const r = await run(server(false), 4 * STOP_GRACE_MS + 8_000);
    expect(r.err).toMatch(/server: output closed/);
    expect(r.err).toMatch(/loopwatch mcp: the server closed its standard output but is still running: no answer can reach the client; stopping it/);
    expect(r.code).toBe(143); // SIGTERM after its stdin closed (it ignores the end of its input)
    expect(r.ms).toBeGreaterThanOrEqual(2 * STOP_GRACE_MS);
  }, 30_000);

  it('should say nothing of a server that closes its output as it exits', async () => {
    const r = await run(server(true), 10_000);
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/closed its standard output/);
  }, 30_000);
});
