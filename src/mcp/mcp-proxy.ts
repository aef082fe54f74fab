/**
 * The MCP stdio proxy's data path: the client's lines to the server, the server's lines to the client,
 * each line forwarded as the exact bytes that came in unless the gate (tool-call-gate.ts) touches its
 * message. Batches (JSON-RPC arrays, MCP 2025-03-26) are read element by element, so no `tools/call` passes
 * unchecked inside one. Fails open: a line that is not JSON, or longer than the cap, or that the proxy
 * fails on, is forwarded as it came (a failure reported once).
 *
 * ```
 *  client stdin ──LineSplitter──> gate.fromClient ──> server stdin      (answers of its own ──> client)
 *  server stdout ─LineSplitter──> gate.fromServer ──> client stdout
 * ```
 * Backpressure: a destination that cannot take more pauses the streams that feed it until it drains; while
 * the client's input is so paused, the client is pinged now and then (a client gone fails the write).
 * The proxy's own messages to the client never land inside a server line still streaming (outlet.ts).
 */
import { hasMoreValuesThan } from '../formats/json-value-count.js';
import { keepIdTexts } from './exact-ids.js';
import { jsonText } from './json-text.js';
import { frame, isObject, type JsonRpcMessage } from './json-rpc.js';
import { LineSplitter } from './line-splitter.js';
import { Outlet } from './outlet.js';
import type { ToolCallGate } from './tool-call-gate.js';

/** Bytes of a line read as a message at most; longer lines are forwarded unread. @default 64 MiB */
export const DEFAULT_MAX_LINE_BYTES = 64 << 20;

/**
 * While the client's input is held back (the server does not read what it was sent), how often the proxy
 * pings the client, in ms: its input paused, the proxy would never read the end of it, so a client gone
 * is seen only by the write to it failing (before: proxy and server stayed for ever). @default 5 s
 */
export const CLIENT_CHECK_MS = 5_000;

/** One side of the proxy: where its messages come from and where the other side's go. */
export interface ProxySide {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/** The two directions of one client-server connection. */
export class McpProxy {
  private readonly toServer: Outlet;
  private readonly toClient: Outlet;
  private readonly fromClient: LineSplitter;
  private readonly fromServer: LineSplitter;

  /**
   * @param onFailure told of a failure of the proxy itself (the line is forwarded as it came)
   * @param onClientGone the client closed its side (end of stdin, or stdout closed)
   * @param clientCheckMs see CLIENT_CHECK_MS
   */
  constructor(
    private readonly gate: ToolCallGate,
    client: ProxySide,
    server: ProxySide,
    maxLineBytes: number,
    private readonly onFailure: (error: Error) => void,
    onClientGone: () => void,
    clientCheckMs: number = CLIENT_CHECK_MS,
  ) {
    const outlets: Outlet[] = [];
    const isBlocked = (s: NodeJS.ReadableStream): boolean => outlets.some((o) => o.holds(s));
    // the client's input feeds both: answers of the proxy's own go back to the client
    this.toServer = new Outlet(server.output, { forwarded: client.input, own: [] }, isBlocked, () => undefined);
    this.toClient = new Outlet(client.output, { forwarded: server.input, own: [client.input] }, isBlocked, onClientGone);
    outlets.push(this.toServer, this.toClient);
    let check: NodeJS.Timeout | undefined;
    const stopCheck = (): void => {
      if (check !== undefined) clearInterval(check);
      check = undefined;
    };
    this.toServer.onBlockChange = (blocked) => {
      stopCheck();
      if (!blocked || this.toClient.closed) return;
      check = setInterval(() => (this.toClient.closed ? stopCheck() : this.toClient.own(frame(this.gate.ping()))), clientCheckMs);
      check.unref();
    };
    this.fromClient = new LineSplitter(maxLineBytes, (l) => this.clientLine(l), (b) => this.toServer.forward(b));
    this.fromServer = new LineSplitter(maxLineBytes, (l) => this.serverLine(l), (b) => this.toClient.forward(b));
    client.input.on('data', (c: Buffer | string) => this.fromClient.push(typeof c === 'string' ? Buffer.from(c) : c));
    client.input.on('end', () => {
      this.fromClient.end();
      onClientGone();
    });
    client.input.on('error', onClientGone);
    client.input.on('close', onClientGone);
    server.input.on('data', (c: Buffer | string) => this.fromServer.push(typeof c === 'string' ? Buffer.from(c) : c));
    server.input.on('end', () => {
      this.fromServer.end();
      this.toClient.forwardedEnd();
    });
  }

  private clientLine(line: Buffer): void {
    const value = parse(line);
    try {
      if (Array.isArray(value)) this.clientBatch(value, line);
      else if (isObject(value)) this.clientMessage(value, line);
      else this.toServer.forward(line);
    } catch (e) {
      this.failed(e);
      this.toServer.forward(line);
    }
  }

  private clientMessage(m: JsonRpcMessage, line: Buffer): void {
    const step = this.gate.fromClient(m, line);
    if (step.forward) this.toServer.forward(line);
    for (const r of step.toServer) this.toServer.own(Buffer.isBuffer(r) ? r : frame(r));
    for (const r of step.toClient) this.toClient.own(frame(r));
  }

  private clientBatch(batch: readonly unknown[], line: Buffer): void {
    const keep: unknown[] = [];
    const answers: JsonRpcMessage[] = [];
    for (const m of batch) {
      if (!isObject(m)) {
        keep.push(m);
        continue;
      }
      const step = this.gate.fromClient(m, undefined, m.method === 'tools/call' ? Buffer.from(jsonText(m) as string) : undefined);
      if (step.forward) keep.push(m);
      for (const r of step.toServer) this.toServer.own(Buffer.isBuffer(r) ? r : frame(r));
      // answers of the batch's calls go back as a batch; the proxy's own requests and notifications alone
      for (const r of step.toClient) if (r.method === undefined) answers.push(r);
      else this.toClient.own(frame(r));
    }
    if (keep.length === batch.length) this.toServer.forward(line);
    else if (keep.length > 0) this.toServer.forward(frame(keep as JsonRpcMessage[]));
    if (answers.length > 0) this.toClient.own(frame(answers));
  }

  private serverLine(line: Buffer): void {
    if (this.gate.inFlightCount === 0) {
      this.toClient.forward(line); // nothing to pair a response with: not even read
      return;
    }
    const value = parse(line);
    try {
      let changed = false;
      if (Array.isArray(value)) for (const m of value) changed = (isObject(m) && this.gate.fromServer(m)) || changed;
      else if (isObject(value)) changed = this.gate.fromServer(value);
      this.toClient.forward(changed ? frame(value as JsonRpcMessage) : line);
    } catch (e) {
      this.failed(e);
      this.toClient.forward(line);
    }
  }

  private failed(e: unknown): void {
    try {
      this.onFailure(e instanceof Error ? e : new Error(String(e)));
    } catch {
      // a reporter that throws must not stop the messages
    }
  }
}

/**
 * The JSON value of a line, or undefined when it is not JSON or holds more than MAX_JSON_VALUES values
 * (then it is forwarded unread: parsed, a 30 MB line of `[],[],...` from a server took the proxy to 1.3 GB).
 */
function parse(line: Buffer): unknown {
  try {
    const text = line.toString('utf8');
    if (hasMoreValuesThan(text)) return undefined;
    const value = JSON.parse(text) as unknown;
    keepIdTexts(value, text); // an id past 2^53 written back as it came (exact-ids.ts)
    return value;
  } catch {
    return undefined;
  }
}
