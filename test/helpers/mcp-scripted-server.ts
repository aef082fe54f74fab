/**
 * `loopwatch mcp` (the built CLI, as a child) in front of a scripted MCP server (a Node script's source),
 * driven over stdio as a client drives it: initialize, then identical `tools/call`s one at a time.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLI } from './cli.js';
import { tempFolder } from './temp-folder.js';

const children: ChildProcessWithoutNullStreams[] = [];

/** Kills the proxies {@link callsThrough} started that are still running (an `afterEach`). */
export function stopScriptedProxies(): void {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
}

/**
 * The answers the client gets to `times` identical calls of `tool` through the proxy in front of the server
 * `server` (its source, written into a temp folder named `folder`), and the proxy's stderr.
 */
export async function callsThrough(server: string, folder: string, tool: string, times: number): Promise<{ answers: Record<string, unknown>[]; stderr: string }> {
  const script = join(tempFolder(folder), 'server.mjs');
  writeFileSync(script, server);
  const child = spawn(process.execPath, [CLI, 'mcp', '--', process.execPath, script]);
  children.push(child);
  let out = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  // whole lines only (a 5 MB answer comes in pieces)
  const lines = (): Record<string, unknown>[] => out.split('\n').slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
  const until = async (n: number): Promise<void> => {
    for (const end = Date.now() + 20_000; lines().length < n && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    expect(lines().length).toBe(n);
  };
  const send = (o: unknown): boolean => child.stdin.write(`${JSON.stringify(o)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  await until(1);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let i = 0; i < times; i++) {
    send({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: tool, arguments: { target: 'all' } } });
    await until(2 + i); // one at a time, as an agent calls
  }
  child.stdin.end();
  return { answers: lines().slice(1), stderr };
}
