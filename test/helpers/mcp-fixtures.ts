/**
 * MCP programs for the proxy's end-to-end tests, written by the tests into a temporary folder: a server
 * and a client built with `@modelcontextprotocol/sdk` (imported by absolute file URL, so they run from any
 * folder), and a raw echo server. The test server answers:
 * - `build`: always fails (`isError`, the same compiler error);
 * - `read {path}`: the file's made-up contents;
 * - any other tool: the next scripted outcome for that tool and those args (MCP_SCRIPT, a JSON file of
 *   ScriptedCall, each tool-and-args queue repeating its last outcome when it runs out).
 * It prints `test-server: pid N` when it starts and `test-server: call N TOOL` for each call it gets, on stderr.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScriptedCall } from './live-scenarios.js';
import { tempFolder } from './temp-folder.js';

/** The SDK's folder (its package.json export is its CommonJS build's, so it is found from a module of it). */
const SDK_CJS = createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/server');
const SDK_ROOT = SDK_CJS.slice(0, SDK_CJS.lastIndexOf(`${sep}dist${sep}cjs${sep}`));
/** The file URL of an ESM module of the SDK, e.g. `server/index.js`. */
export function sdkModule(path: string): string {
  return pathToFileURL(join(SDK_ROOT, 'dist', 'esm', path)).href;
}

/** The compiler error the test server's `build` tool fails with. */
export const BUILD_ERROR = 'error: command "gcc" failed with exit status 1';

const SERVER = `
import { Server } from '${sdkModule('server/index.js')}';
import { StdioServerTransport } from '${sdkModule('server/stdio.js')}';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${sdkModule('types.js')}';
import { readFileSync } from 'node:fs';

const key = (tool, args) => tool + ' ' + JSON.stringify(args ?? {}, Object.keys(args ?? {}).sort());
const queues = new Map();
for (const c of process.env.MCP_SCRIPT ? JSON.parse(readFileSync(process.env.MCP_SCRIPT, 'utf8')) : []) {
  const k = key(c.tool, c.args);
  if (!queues.has(k)) queues.set(k, []);
  queues.get(k).push(c);
}
let calls = 0;
const text = (t, isError) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });
const server = new Server({ name: 'loopwatch-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'build', description: 'builds the extension', inputSchema: { type: 'object', properties: { target: { type: 'string' } } } },
    { name: 'read', description: 'reads a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const { name, arguments: args } = req.params;
  process.stderr.write('test-server: call ' + ++calls + ' ' + name + '\\n');
  if (name === 'build') return text(${JSON.stringify(BUILD_ERROR)}, true);
  if (name === 'read') return text('contents of ' + String(args?.path));
  const q = queues.get(key(name, args));
  if (q === undefined) return text('unknown tool ' + name, true);
  const c = q.length > 1 ? q.shift() : q[0];
  return c.error !== undefined ? text(c.error, true) : text(c.result ?? '');
});
process.stderr.write('test-server: pid ' + process.pid + '\\n');
await server.connect(new StdioServerTransport());
`;

/**
 * A client in a process of its own (for killing it): connects through \`loopwatch mcp\` to the test server,
 * calls \`read\` once, prints {"proxyPid": N} and waits to be killed. Its stderr is the proxy's.
 */
const CLIENT = `
import { Client } from '${sdkModule('client/index.js')}';
import { StdioClientTransport } from '${sdkModule('client/stdio.js')}';
const [cli, server] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--', process.execPath, server], stderr: 'inherit' });
const client = new Client({ name: 'loopwatch-test-client', version: '1.0.0' });
await client.connect(transport);
await client.callTool({ name: 'read', arguments: { path: 'README.md' } });
process.stdout.write(JSON.stringify({ proxyPid: transport.pid }) + '\\n');
setInterval(() => undefined, 1000);
`;

/** Echoes every byte it reads back to stdout (a raw "server" that shows what the proxy forwarded). */
const ECHO = `
process.stderr.write('echo-server: up\\n');
process.stdin.on('data', (c) => process.stdout.write(c));
`;

/** Paths of the fixture programs. */
export interface McpFixtures {
  readonly dir: string;
  readonly server: string;
  readonly client: string;
  readonly echo: string;
  /** Writes a script of outcomes for the test server; returns its path (for MCP_SCRIPT). */
  script(name: string, calls: readonly ScriptedCall[]): string;
}

/** Writes the fixture programs into a fresh temporary folder. */
export function writeMcpFixtures(): McpFixtures {
  const dir = tempFolder('mcp');
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return {
    dir,
    server: write('server.mjs', SERVER),
    client: write('client.mjs', CLIENT),
    echo: write('echo.mjs', ECHO),
    script: (name, calls) => write(`${name}.json`, JSON.stringify(calls)),
  };
}
