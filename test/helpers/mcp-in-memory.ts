/**
 * The MCP proxy's message layer wired between in-memory streams (McpProxy and ToolCallGate over
 * PassThroughs), for the tests that drive it in process: what each side is sent, what reaches each side,
 * and the failures it reports. The end-to-end tests run the same code between real processes.
 */
import { PassThrough } from 'node:stream';
import type { LiveGuard } from '../../src/index.js';
import { McpProxy } from '../../src/mcp/mcp-proxy.js';
import { ToolCallGate } from '../../src/mcp/tool-call-gate.js';

/** A proxy between in-memory streams and what it wrote. */
export interface InMemoryProxy {
  /** The gate the proxy checks calls with (session `s`). */
  readonly gate: ToolCallGate;
  /** What the client sends: write lines here. */
  readonly clientIn: PassThrough;
  /** What the server (the proxied program) sends: write lines here. */
  readonly serverIn: PassThrough;
  /** The chunks that reached the client, in order. */
  readonly toClient: Buffer[];
  /** The chunks that reached the server, in order (empty when `keepToServer` is false). */
  readonly toServer: Buffer[];
  /** The failures the proxy reported (its onFailure). */
  readonly failures: Error[];
  /** Resolves once the streams have passed on what was written (one turn of the event loop). */
  settle(): Promise<void>;
}

/**
 * A proxy checking calls with `guard`, lines capped at `maxLine` bytes. With `keepToServer` false, what
 * reaches the server is read and dropped (tests that send it megabytes keep none of it).
 */
export function inMemoryProxy(guard: LiveGuard, maxLine = 1 << 20, keepToServer = true): InMemoryProxy {
  const clientIn = new PassThrough();
  const clientOut = new PassThrough();
  const serverIn = new PassThrough();
  const serverOut = new PassThrough();
  const toClient: Buffer[] = [];
  const toServer: Buffer[] = [];
  const failures: Error[] = [];
  clientOut.on('data', (b: Buffer) => toClient.push(b));
  if (keepToServer) serverOut.on('data', (b: Buffer) => toServer.push(b));
  else serverOut.resume();
  const gate = new ToolCallGate(guard, 's');
  new McpProxy(gate, { input: clientIn, output: clientOut }, { input: serverIn, output: serverOut }, maxLine, (e) => void failures.push(e), () => undefined);
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { gate, clientIn, serverIn, toClient, toServer, failures, settle };
}
