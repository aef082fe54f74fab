/**
 * `loopwatch mcp` with a client that sends calls without waiting for the answers (a model's parallel tool
 * calls, sent at once): each call is checked when it arrives, before any earlier twin has answered, so no
 * result is evidence yet. The repeats are warned and forwarded, never denied (docs/mcp.md, "Calls sent
 * without waiting"); the next repeat sent after their results came back is denied.
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { BUILD_ERROR, type McpFixtures, writeMcpFixtures } from './helpers/mcp-fixtures.js';

let fx: McpFixtures;
beforeAll(() => {
  fx = writeMcpFixtures();
});
afterAll(() => rmSync(fx.dir, { recursive: true, force: true }));

/** The texts of a tool result's content. */
function texts(r: unknown): string[] {
  return ((r as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '');
}

describe('loopwatch mcp with calls sent without waiting for answers', () => {
  it('should warn the repeats sent at once and forward them all, then deny the next repeat once their results are back', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--session', 'pipelined', '--', process.execPath, fx.server], stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const client = new Client({ name: 'pipelining-client', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    try {
      const call = () => client.callTool({ name: 'build', arguments: { target: 'ext' } });
      const atOnce = await Promise.all(Array.from({ length: 8 }, call));
      // every one ran: the server answered each with its error, some with loopwatch's warning after it
      expect(atOnce.map((r) => texts(r)[0])).toEqual(Array(8).fill(BUILD_ERROR));
      expect(atOnce.some((r) => texts(r).some((t) => t.startsWith('[loopwatch] You appear to be in a loop')))).toBe(true);
      expect(err.split('\n').filter((l) => l.startsWith('test-server: call ') && l.endsWith(' build'))).toHaveLength(8);
      // the results are back now: the next repeat is blocked, and the server never sees it
      const next = await call();
      expect(next.isError).toBe(true);
      expect(texts(next)).toEqual([expect.stringMatching(/^\[loopwatch\].*This call was blocked and did not run\./)]);
      expect(err.split('\n').filter((l) => l.startsWith('test-server: call ') && l.endsWith(' build'))).toHaveLength(8);
    } finally {
      await transport.close();
    }
  }, 30_000);
});
