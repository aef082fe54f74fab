/**
 * `loopwatch mcp` end to end, over stdio, no network: a real server and client built with
 * @modelcontextprotocol/sdk, the built CLI between them. What the model sees through the proxy is what the
 * library decides for the same calls (the shared live scenarios); denied calls never reach the server; the
 * server's stderr passes through; either side going away ends the proxy and the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import { hostMessage } from '../src/live/host-message.js';
import { STOP_ADVICE } from '../src/mcp/tool-call-gate.js';
import { CLI, loopwatch } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { BUILD_ERROR, type McpFixtures, writeMcpFixtures } from './helpers/mcp-fixtures.js';
import { LEGITIMATE, STUCK, type ScriptedCall } from './helpers/live-scenarios.js';
import { replay } from './helpers/live-replay.js';

let fx: McpFixtures;
beforeAll(() => {
  fx = writeMcpFixtures();
});
const open: StdioClientTransport[] = [];
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()));
  rmSync(fx.dir, { recursive: true, force: true });
});

interface Connected {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  stderr(): string;
}

/** An SDK client connected through `loopwatch mcp [flags] -- node server.mjs`. */
async function connect(flags: readonly string[] = [], options: { script?: string; onAsk?: (message: string) => 'accept' | 'decline' } = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...flags, '--', process.execPath, fx.server],
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...(options.script === undefined ? {} : { MCP_SCRIPT: options.script }) },
  });
  open.push(transport);
  let err = '';
  transport.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const client = new Client({ name: 'loopwatch-test-client', version: '1.0.0' }, { capabilities: options.onAsk === undefined ? {} : { elicitation: {} } });
  const onAsk = options.onAsk;
  if (onAsk !== undefined) client.setRequestHandler(ElicitRequestSchema, async (req) => ({ action: onAsk(req.params.message) }));
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** The texts of a tool result's content. */
function texts(r: unknown): string[] {
  return ((r as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '');
}

/** What the model sees for each call, through the proxy: the content texts, and isError. */
async function viaProxy(c: Connected, calls: readonly ScriptedCall[]): Promise<{ texts: string[]; isError: boolean }[]> {
  const out: { texts: string[]; isError: boolean }[] = [];
  for (const call of calls) {
    const r = await c.client.callTool({ name: call.tool, arguments: call.args });
    out.push({ texts: texts(r), isError: r.isError === true });
  }
  return out;
}

/** What the model would see for each call with the library's decisions for the same calls. */
function viaLibrary(calls: readonly ScriptedCall[]): { texts: string[]; isError: boolean }[] {
  // the proxy runs the shipped default preset (fitted), as a library user with configOptions({}) does
  const d = new LoopDetector(CONFIG_PRESETS.default?.(undefined));
  const steps = replay({ propose: (c) => d.propose(c), record: (c) => d.record(c) }, calls);
  d.dispose();
  return steps.map((s, i) => {
    const c = calls[i] as ScriptedCall;
    const p = s.propose;
    // a proxy cannot end the run: its stop says the call was blocked, then STOP_ADVICE
    if (s.record === null) return { texts: [p.action === 'stop' ? `${hostMessage(p, { stop: 'call', asks: false }) ?? ''}${STOP_ADVICE}` : (p.message ?? '')], isError: true };
    const notes = p.action === 'allow' ? [] : [p.message ?? ''];
    if (s.record.action === 'warn' && !notes.includes(s.record.message ?? '')) notes.push(s.record.message ?? '');
    return { texts: [c.error ?? c.result ?? '', ...notes], isError: c.error !== undefined };
  });
}

/** Calls the server said it got, by tool. */
function serverCalls(stderr: string, tool: string): number {
  return stderr.split('\n').filter((l) => l.startsWith('test-server: call ') && l.endsWith(` ${tool}`)).length;
}

const build = (n: number): ScriptedCall[] => Array.from({ length: n }, () => ({ tool: 'build', args: { target: 'ext' }, error: BUILD_ERROR }));

describe('loopwatch mcp with an SDK client and server', () => {
  it('should warn, then deny a failing call repeated, without the server seeing the denied calls; its stderr passes through', async () => {
    const c = await connect(['--session', 'build-loop']);
    const calls = build(8);
    const got = await viaProxy(c, calls);
    expect(got).toEqual(viaLibrary(calls));
    const warned = got.findIndex((g) => g.texts[0] === BUILD_ERROR && g.texts.length > 1);
    const denied = got.findIndex((g) => g.texts[0] !== BUILD_ERROR);
    expect(warned).toBeGreaterThan(0);
    expect(got[warned]?.texts[1]).toMatch(/^\[loopwatch\] You appear to be in a loop/);
    expect(denied).toBeGreaterThan(warned);
    expect(got[denied]).toEqual({ texts: [expect.stringMatching(/^\[loopwatch\].*This call was blocked and did not run\.$/)], isError: true });
    expect(got.some((g) => g.texts[0]?.endsWith(STOP_ADVICE))).toBe(true);
    // the proxy blocks the call and tells the model to stop; it does not say the run is being stopped
    expect(got.some((g) => g.texts[0]?.endsWith(` This call was blocked and did not run.${STOP_ADVICE}`))).toBe(true);
    expect(got.some((g) => g.texts.some((t) => t.includes('The run is being stopped.')))).toBe(false);
    // every call that ran, and only those, reached the server (it says so on stderr, through the proxy's)
    expect(serverCalls(c.stderr(), 'build')).toBe(got.filter((g) => g.texts[0] === BUILD_ERROR).length);
    expect(c.stderr()).toMatch(/^test-server: pid \d+$/m);
    expect(c.stderr()).toMatch(/^loopwatch mcp: session build-loop: checking tools\/call/m);
    expect(c.stderr()).toMatch(/^loopwatch mcp: deny tools\/call "build" \(id \d+\): /m);
    // other work goes on through the same proxy
    const read = await c.client.callTool({ name: 'read', arguments: { path: 'src/index.ts' } });
    expect(texts(read)).toEqual(['contents of src/index.ts']);
    await c.transport.close();
  });

  it('should decide on the shared scenarios as the library does: legitimate work never denied, stuck loops warned then denied', async () => {
    const scenarios = [...LEGITIMATE, ...STUCK];
    const results = await Promise.all(
      scenarios.map(async (s, k) => {
        const c = await connect([], { script: fx.script(`scenario-${k}`, s.calls) });
        const got = await viaProxy(c, s.calls);
        await c.transport.close();
        return got;
      }),
    );
    scenarios.forEach((s, k) => {
      const got = results[k] ?? [];
      expect(got, s.name).toEqual(viaLibrary(s.calls));
      const refused = got.filter((g) => g.isError && g.texts.length === 1 && g.texts[0]?.startsWith('[loopwatch]')).length;
      if (s.stuck) expect(refused, s.name).toBeGreaterThan(0);
      else expect(refused, s.name).toBe(0);
    });
  });

  it('should ask the user through elicitation when the client supports it, and as a warning when not', async () => {
    const config = join(fx.dir, 'ask.json');
    writeFileSync(config, JSON.stringify({ policy: { ladder: ['ask', 'break'] } }));
    const asked: string[] = [];
    for (const answer of ['decline', 'accept'] as const) {
      const c = await connect(['--config', config], { onAsk: (m) => (asked.push(m), answer) });
      const got = await viaProxy(c, build(4));
      const at = got.findIndex((g) => g.texts.some((t) => t.startsWith('[loopwatch]')));
      if (answer === 'decline') {
        expect(got[at]).toEqual({ texts: [expect.stringMatching(/A human has been asked whether to continue\. The user declined: this call did not run\.$/)], isError: true });
      } else {
        expect(got[at]?.texts).toEqual([BUILD_ERROR, expect.stringMatching(/The user let this call run\.$/)]);
      }
      expect(serverCalls(c.stderr(), 'build')).toBe(got.filter((g) => g.texts[0] === BUILD_ERROR).length);
      await c.transport.close();
    }
    // declined: asked again at the next try (a declined call never ran, so nothing escalates); accepted: it
    // ran, failed again, and the next try is denied
    expect(asked).toHaveLength(3);
    expect(asked[0]).toMatch(/^\[loopwatch\] You appear to be in a loop[\s\S]*Run the tool call "build" anyway\?$/);
    // a client without elicitation: the ask is a warning, which does not claim a human was asked
    const c = await connect(['--config', config]);
    const got = await viaProxy(c, build(4));
    const note = got.flatMap((g) => g.texts.slice(1))[0];
    expect(note).toMatch(/^\[loopwatch\] You appear to be in a loop/);
    expect(note).not.toMatch(/human/);
    await c.transport.close();
  });
});

/** Whether a process is gone (a zombie waiting for a parent that does not reap it counts as gone). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `loopwatch mcp [flags] -- node <server>` as a raw child process. */
function rawProxy(server: string, flags: readonly string[] = []): { child: ChildProcess; out: () => Buffer; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, 'mcp', ...flags, '--', process.execPath, server], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout?.on('data', (b: Buffer) => out.push(b));
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => Buffer.concat(out), err: () => err, exited };
}

describe('loopwatch mcp lifetime and framing', () => {
  it('should end the proxy and the server when the client is killed', async () => {
    const client = spawn(process.execPath, [fx.client, CLI, fx.server], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    client.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    client.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    await until('the client to connect and call', () => out.includes('proxyPid') && /test-server: pid \d+/.test(err));
    const proxyPid = (JSON.parse(out.trim()) as { proxyPid: number }).proxyPid;
    const serverPid = Number(/test-server: pid (\d+)/.exec(err)?.[1]);
    expect(gone(proxyPid) || gone(serverPid)).toBe(false);
    client.kill('SIGKILL');
    await until('the proxy and the server to end', () => gone(proxyPid) && gone(serverPid));
  });

  it('should exit with the server when the server is killed (128 + signal), and the SDK client sees the connection close', async () => {
    const p = rawProxy(fx.server);
    await until('the server to start', () => /test-server: pid \d+/.test(p.err()));
    process.kill(Number(/test-server: pid (\d+)/.exec(p.err())?.[1]), 'SIGKILL');
    expect(await p.exited).toBe(137);

    const c = await connect();
    const closed = new Promise<void>((resolve) => (c.transport.onclose = resolve));
    await until('the server to start', () => /test-server: pid \d+/.test(c.stderr()));
    const serverPid = Number(/test-server: pid (\d+)/.exec(c.stderr())?.[1]);
    const proxyPid = c.transport.pid as number;
    process.kill(serverPid, 'SIGKILL');
    await closed;
    await until('the proxy to end', () => gone(proxyPid));
  });

  it('should forward lines it cannot read as they came, both ways: not JSON, too long, a batch, an unfinished last line', async () => {
    const p = rawProxy(fx.echo, ['--max-line-bytes', '1024']);
    const call = (id: number, command: string): unknown => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bash', arguments: { command } } });
    const lines = [
      'this is not JSON {',
      JSON.stringify(call(1, 'x'.repeat(5000))),
      JSON.stringify([call(2, 'ls'), { jsonrpc: '2.0', method: 'notifications/progress', params: {} }]),
      '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}\r',
      '',
    ];
    const sent = Buffer.from(`${lines.join('\n')}\nno newline at the end`);
    p.child.stdin?.write(sent.subarray(0, 3000));
    p.child.stdin?.end(sent.subarray(3000));
    expect(await p.exited).toBe(0);
    expect(p.out().equals(sent)).toBe(true);
    expect(p.err()).toMatch(/^echo-server: up$/m);
  });

  it('should print its help, refuse bad flags in one line, and leave the arguments after -- to the server', async () => {
    const help = await loopwatchInProcess(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: loopwatch mcp \[options\] -- <server command>/);
    expect((await loopwatchInProcess(['--help'])).stdout).toMatch(/^ {2}mcp \[options\] -- <server command\.\.\.>$/m);
    const typo = await loopwatchInProcess(['mcp', '--sesion', 'x', '--', process.execPath, fx.echo]);
    expect([typo.code, typo.stderr]).toEqual([2, 'loopwatch mcp: unknown flag --sesion (did you mean --session?) (see loopwatch mcp --help)\n']);
    expect((await loopwatchInProcess(['mcp', '--max-line-bytes', '10', '--', process.execPath, fx.echo])).stderr).toMatch(/--max-line-bytes must be an integer from 1024 to/);
    // --help after -- is the server's: the echo server gets it as an argument and echoes stdin (a process: the
    // proxy's own stdin and stdout)
    const own = loopwatch(['mcp', '--', process.execPath, fx.echo, '--help'], 'hello\n');
    expect([own.code, own.stdout]).toEqual([0, 'hello\n']);
  });

  it('should refuse a command line without a server command, and say when the server cannot start', async () => {
    const bad = spawn(process.execPath, [CLI, 'mcp', '--session', 'x'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    bad.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    expect(await new Promise((resolve) => bad.once('exit', resolve))).toBe(2);
    expect(err).toMatch(/^loopwatch mcp: give the MCP server command after --/);
    const missing = spawn(process.execPath, [CLI, 'mcp', '--', '/nonexistent/mcp-server'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err2 = '';
    missing.stderr.on('data', (b: Buffer) => (err2 += b.toString('utf8')));
    expect(await new Promise((resolve) => missing.once('exit', resolve))).toBe(127);
    expect(err2).toMatch(/cannot start the server "\/nonexistent\/mcp-server": ENOENT/);
  });

  it('should say where the server command goes when it is given without --, and what a server not found means', async () => {
    // a new user's slip (newuser26): `"args": ["mcp", "node", "server.mjs"]` was refused as "unexpected
    // argument "node" (this command takes no paths)", and a command not on the client's PATH as a bare ENOENT
    const r = loopwatch(['mcp', '--session', 'x', 'node', fx.echo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loopwatch mcp: unexpected argument "node": the MCP server command goes after --, e.g. loopwatch mcp -- node ...');
    const missing = spawn(process.execPath, [CLI, 'mcp', '--', 'no-such-mcp-server-command'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    missing.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    expect(await new Promise((resolve) => missing.once('exit', resolve))).toBe(127);
    expect(err).toContain('cannot start the server "no-such-mcp-server-command": ENOENT (no such command on the PATH the proxy was given: write its absolute path after --)');
  });
});
