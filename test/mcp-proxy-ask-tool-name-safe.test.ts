/**
 * The MCP proxy's elicitation request (an `ask` put to the person through the client) names the tool as the
 * loop message does: cut, redacted, its control and bidirectional characters as escapes. The name is the
 * server's own (its `tools/list`; the client calls what it was offered), and the client shows the request to a
 * person. Before, the name went in raw after the escaped loop message: a server's tool named with ESC
 * sequences, U+202E and C1 reached the person's terminal as such, a key in it unredacted. The proxy runs as
 * a child (the built CLI) with a scripted server, as a client sees it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

const KEY = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
/** A tool name a hostile server offers: a title-setting OSC, a screen clear, a bidi override, a C1 CSI, a key. */
const TOOL = `build\x1b]0;owned\x07\x1b[2J\u202eevil\u009b31m ${KEY}`;

const SERVER = `
import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
  if (m.method === 'initialize') return out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } });
  if (m.method === 'tools/call') out({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'error: gcc failed with exit status 1' }], isError: true } });
});
`;

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe.skipIf(process.platform !== 'linux')("the proxy's elicitation request naming a server's tool", () => {
  it('should carry no raw control, bidi character or key of the tool name', async () => {
    const dir = tempFolder('mcp-ask-name');
    const server = join(dir, 'server.mjs');
    writeFileSync(server, SERVER);
    const config = join(dir, 'ask.json');
    writeFileSync(config, JSON.stringify({ policy: { ladder: ['ask', 'break'] } }));
    const child = spawn(process.execPath, [CLI, 'mcp', '--config', config, '--', process.execPath, server]);
    children.push(child);
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const lines = (): Record<string, unknown>[] => out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    const until = async (n: number): Promise<void> => {
      for (const end = Date.now() + 20_000; lines().length < n && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
      expect(lines().length).toBe(n);
    };
    const send = (o: unknown): boolean => child.stdin.write(`${JSON.stringify(o)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } } });
    await until(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    let ask: Record<string, unknown> | undefined;
    for (let i = 0; i < 6 && ask === undefined; i++) {
      send({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: TOOL, arguments: { target: 'all' } } });
      await until(2 + i);
      ask = lines().find((m) => m.method === 'elicitation/create');
    }
    child.stdin.end();
    const message = (ask?.params as { message: string } | undefined)?.message ?? '';
    expect(message).toMatch(/^\[loopwatch\] You appear to be in a loop/);
    expect(message).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u); // line breaks between its parts only
    expect(message).not.toContain(KEY);
    expect(message).toMatch(/Run the tool call "build\\x1b\]0;owned\\x07\\x1b\[2J\\u202eevil\\x9b31m \[REDACTED\]" anyway\?$/);
  }, 60_000);
});
