/**
 * A new user's walk through `loopwatch mcp` (session s22), end to end: an SDK client, the built CLI, the SDK
 * test server. A missing file read six times is warned, denied, then stopped (docs/mcp.md); then the agent
 * moves on to a file that exists: its first read gets the file and nothing else (before: a `semantic` loop at
 * 1.00 "since call #0"), and read a third time alike it is warned at its first sighting, not refused as a
 * stop; the fourth is refused, and the missing file still is (live-after-a-stop.test.ts, library level).
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOP_ADVICE } from '../src/mcp/tool-call-gate.js';
import { CLI } from './helpers/cli.js';
import { type McpFixtures, writeMcpFixtures } from './helpers/mcp-fixtures.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

const DIR = '/home/me/app/files';
const ENOENT = `ENOENT: no such file or directory, open '${DIR}/missing.txt'`;
const MISSING: ScriptedCall = { tool: 'read_text_file', args: { path: `${DIR}/missing.txt` }, error: ENOENT };
const OTHER: ScriptedCall = { tool: 'read_text_file', args: { path: `${DIR}/a.txt` }, result: 'hello\n' };

let fx: McpFixtures;
beforeAll(() => {
  fx = writeMcpFixtures();
});
afterAll(() => {
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('loopwatch mcp after a stop', () => {
  it('should let the agent move on to another file, and refuse only the loops', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--session', 'walk', '--', process.execPath, fx.server],
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), MCP_SCRIPT: fx.script('walk', [MISSING, OTHER]) },
    });
    const client = new Client({ name: 'loopwatch-test-client', version: '1.0.0' });
    try {
      await client.connect(transport);
      const seen: { texts: string[]; isError: boolean }[] = [];
      for (const c of [...Array.from({ length: 6 }, () => MISSING), OTHER, OTHER, OTHER, OTHER, MISSING]) {
        const r = await client.callTool({ name: c.tool, arguments: c.args });
        seen.push({ texts: (r.content as { text?: string }[]).map((x) => x.text ?? ''), isError: r.isError === true });
      }
      const loopwatch = (t: string): boolean => t.startsWith('[loopwatch]');
      // the missing file: failed, failed, failed and warned, denied, stopped, stopped
      expect(seen.slice(0, 6).map((s) => [s.texts[0] === ENOENT, s.texts.some(loopwatch), s.isError])).toEqual([
        [true, false, true],
        [true, false, true],
        [true, true, true],
        [false, true, true],
        [false, true, true],
        [false, true, true],
      ]);
      expect(seen[5]?.texts[0]).toMatch(new RegExp(`${STOP_ADVICE.replace(/[.]/g, '\\.')}$`));
      // the other file: read, read, read and warned (a new loop's first sighting), then refused
      expect(seen[6]).toEqual({ texts: ['hello\n'], isError: false });
      expect(seen[7]).toEqual({ texts: ['hello\n'], isError: false });
      expect(seen[8]?.texts[0]).toBe('hello\n');
      expect(seen[8]?.texts[1]).toMatch(/^\[loopwatch\] You appear to be in a loop \(exact_repeat, .*called 3 times in a row/);
      expect(seen[8]?.isError).toBe(false);
      expect(seen[9]?.isError).toBe(true);
      expect(seen[9]?.texts[0]?.endsWith(STOP_ADVICE)).toBe(true);
      // the loop that was stopped is still refused
      expect(seen[10]?.texts[0]).toMatch(/^\[loopwatch\].*missing\.txt/);
      expect(seen[10]?.isError).toBe(true);
    } finally {
      await transport.close();
    }
  });
});
