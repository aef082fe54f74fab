/**
 * `loopwatch mcp [options] -- <server command...>`: a stdio proxy for any MCP server (src/mcp/). Starts the
 * server, forwards every message both ways, checks each `tools/call` before it reaches the server and
 * records its result. Ends when either side does: the client's end of stdin (or a closed stdout) stops the
 * server as the MCP spec says (stdin closed, then SIGTERM, then SIGKILL), and so does the server's own end of
 * its stdout while it goes on running (after STOP_GRACE_MS, said on stderr); a SIGTERM, SIGINT or SIGHUP to the
 * proxy is passed to the server; the proxy exits with the server's exit code.
 */
import { randomUUID } from 'node:crypto';
import { LiveGuard } from '../engine/live-guard.js';
import { DEFAULT_MAX_LINE_BYTES, McpProxy } from '../mcp/mcp-proxy.js';
import { ServerProcess } from '../mcp/server-process.js';
import { ToolCallGate } from '../mcp/tool-call-gate.js';
import { redactSecrets } from '../text/redact.js';
import { cutText, oneLine } from '../text/shown-text.js';
import { terminalSafe } from '../text/terminal-text.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, byteSizeFlag, parseFlags, stringOf } from './flags.js';
import type { CommandIo } from './scan-command.js';
import type { LiveGuardOptions } from '../engine/live-guard.js';
import { UsageError } from './usage-error.js';

const MCP_FLAGS: FlagSpec = {
  session: { type: 'string' },
  'fail-closed': { type: 'boolean' },
  preset: { type: 'string' },
  config: { type: 'string' },
  'max-line-bytes': { type: 'string' },
};

/** How long a stopping server gets at each step (stdin closed, SIGTERM) before the next, in ms. */
export const STOP_GRACE_MS = 2_000;
/** How long the server's last output may take to arrive after it exited, in ms. */
const OUTPUT_WAIT_MS = 2_000;
/** Characters of a session id at most. */
const MAX_SESSION_LENGTH = 256;

/** The settings of a `loopwatch mcp` run. */
export interface McpSettings {
  readonly command: string;
  readonly args: readonly string[];
  /** The given session id, or a new uuid. */
  readonly session: string;
  readonly guard: LiveGuardOptions;
  readonly maxLineBytes: number;
}

/**
 * The flags before `--`. A server command given without `--` (`loopwatch mcp npx -y ...`, an easy slip in a
 * client's config) is refused saying where it goes (before: "this command takes no paths").
 */
function flagsBeforeDash(argv: readonly string[], dash: number): ReturnType<typeof parseFlags> {
  try {
    return parseFlags(dash < 0 ? argv : argv.slice(0, dash), MCP_FLAGS, false);
  } catch (e) {
    const arg = dash < 0 && e instanceof UsageError ? /^unexpected argument "([^]*)" \(/.exec(e.message)?.[1] : undefined;
    if (arg === undefined) throw e;
    const shown = JSON.stringify(cutText(arg, 80));
    throw new UsageError(`unexpected argument ${shown}: the MCP server command goes after --, e.g. loopwatch mcp -- ${shown.slice(1, -1)} ... ("args": ["mcp", "--", ${shown}, ...] in a client's config)`);
  }
}

/** Parses `loopwatch mcp` arguments: flags before `--`, the server command after. Throws UsageError. */
export function mcpSettings(argv: readonly string[]): McpSettings {
  const dash = argv.indexOf('--');
  const { values: v } = flagsBeforeDash(argv, dash);
  const [command, ...args] = dash < 0 ? [] : argv.slice(dash + 1);
  if (command === undefined || command === '') throw new UsageError('give the MCP server command after --, e.g. loopwatch mcp -- npx -y @modelcontextprotocol/server-everything');
  const session = stringOf(v, 'session') ?? randomUUID();
  if (session === '' || session.length > MAX_SESSION_LENGTH || /[\u0000-\u001f]/.test(session)) {
    throw new UsageError(`--session must be 1 to ${MAX_SESSION_LENGTH} characters without control characters, received ${JSON.stringify(cutText(session, 40))}`);
  }
  return {
    command,
    args,
    session,
    guard: { ...detectionOptions(stringOf(v, 'preset'), stringOf(v, 'config')), failClosed: v['fail-closed'] === true },
    maxLineBytes: byteSizeFlag('--max-line-bytes', stringOf(v, 'max-line-bytes'), DEFAULT_MAX_LINE_BYTES, 1024, 1 << 30),
  };
}

/**
 * A line for stderr: one line, capped, redacted, its control characters as escapes (it quotes the client's
 * tool names and call ids, which may hold ESC sequences).
 */
export function mcpLogLine(text: string): string {
  return `loopwatch mcp: ${terminalSafe(redactSecrets(oneLine(text, 400)))}\n`;
}

/** `loopwatch mcp`: resolves to the server's exit code once both sides are done. */
export async function mcpCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const s = mcpSettings(argv);
  let told = false;
  const reportOnce = (e: Error): void => {
    if (told) return;
    told = true;
    io.stderr.write(mcpLogLine(`internal error; calls pass unchecked while it lasts: ${e.message}`));
  };
  const guard = new LiveGuard({ ...s.guard, onInternalError: reportOnce });
  const gate = new ToolCallGate(guard, s.session, (tool, id, d) => {
    io.stderr.write(mcpLogLine(`${d.action} tools/call ${JSON.stringify(cutText(tool, 80))} (id ${cutText(String(id), 40)})${d.verdict === null ? '' : `: ${d.verdict.kind}`}`));
  });
  const server = new ServerProcess(s.command, s.args, STOP_GRACE_MS);
  const stopServer = (): void => server.stop();
  server.stdin.on('error', () => undefined); // a server gone: its exit ends the proxy
  new McpProxy(gate, { input: io.stdin, output: io.stdout }, { input: server.stdout, output: server.stdin }, s.maxLineBytes, reportOnce, stopServer);
  const outputDone = new Promise<void>((resolve) => {
    server.stdout.once('close', resolve);
    server.stdout.once('end', resolve);
  });
  // a server whose output ended but that goes on running can answer nothing more: stopped, so the client sees
  // the connection end rather than waiting for ever (before: the proxy and the server stayed until the client left)
  server.stdout.once('end', () => {
    setTimeout(() => {
      if (!server.running) return;
      io.stderr.write(mcpLogLine('the server closed its standard output but is still running: no answer can reach the client; stopping it'));
      server.stop();
    }, STOP_GRACE_MS).unref();
  });
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals): void => server.forward(signal);
  for (const sig of signals) process.on(sig, onSignal);
  io.stderr.write(mcpLogLine(`session ${s.session}: checking tools/call of ${s.command}${s.guard.failClosed === true ? ' (fail closed)' : ''}`));
  try {
    const exit = await server.exited;
    if (exit.failedToStart !== undefined) {
      // ENOENT: not found on the PATH the client gave the proxy (GUI apps start servers with a short one)
      const hint = exit.failedToStart === 'ENOENT' ? ' (no such command on the PATH the proxy was given: write its absolute path after --)' : '';
      io.stderr.write(mcpLogLine(`cannot start the server ${JSON.stringify(s.command)}: ${exit.failedToStart}${hint}`));
      return exit.code;
    }
    await Promise.race([outputDone, new Promise((resolve) => setTimeout(resolve, OUTPUT_WAIT_MS).unref())]);
    return exit.code;
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
    (io.stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    guard.close();
  }
}
