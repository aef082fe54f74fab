/**
 * The open connections of `loopwatch serve`: how an idle one is closed, and how a stop lets them go,
 * without resetting a request.
 *
 * A kept-alive connection quiet for the server's keepAliveTimeout (it advertises `Keep-Alive: timeout=5`;
 * Node waits 1 s more) is closed: Node destroys it at once, and a request a client sent on it meanwhile
 * (bytes not yet read: sent at the last moment, or by a client whose event loop was held for seconds, as
 * an in-process test's is, so that the server's timer runs only after the request was written) makes that
 * close a reset, ECONNRESET for the client. So at that timeout the connection is given KEEP_ALIVE_GRACE_MS
 * more (its bytes read meanwhile) and closed only when nothing came.
 *
 * Node's `server.close()` drops every connection it takes for idle at once, under the requests clients
 * are already sending on them (seen: 48 of 48 keep-alive clients reset at a SIGTERM under load). So a
 * stop closes only the listener, then:
 *
 * ```
 *   response not yet sent ─────────────> sent with `Connection: close`
 *   request arriving on an open one ───> the server answers 503 `stopping`, `Connection: close`
 *   no request in flight for STOP_IDLE_MS (since its last answer, or the stop if later) ──> ended
 *   the drain time over ───────────────> every connection cut
 * ```
 */
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * At a stop, how long a connection with no request in flight is kept open for a request on its way (one
 * that comes is answered 503 with `Connection: close`), in ms.
 */
export const STOP_IDLE_MS = 1_000;

/** How long a connection at its keep-alive timeout still waits for a request on its way, in ms. */
export const KEEP_ALIVE_GRACE_MS = 1_000;

/** An open connection: requests in flight on it, and since when it has none. */
interface Connection {
  busy: number;
  idleSince: number;
  ending: boolean;
}

/** A server's open connections and responses in flight, and its stop. */
export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  private readonly responses = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { busy: 0, idleSince: Date.now(), ending: false });
      socket.once('close', () => this.connections.delete(socket));
    });
    // with a listener, Node leaves a socket's timeout to it (server.timeout is 0: only the keep-alive one comes)
    server.on('timeout', (socket: Socket) => this.closeIdle(socket));
  }

  /** Closes a connection at its keep-alive timeout, unless a request comes within KEEP_ALIVE_GRACE_MS (see the header). */
  private closeIdle(socket: Socket): void {
    const read = socket.bytesRead;
    setTimeout(() => {
      // bytes read since: a request came (its response sets the keep-alive timeout again)
      if (socket.destroyed || socket.bytesRead !== read || (this.connections.get(socket)?.busy ?? 0) > 0) return;
      socket.destroy();
    }, KEEP_ALIVE_GRACE_MS).unref();
  }

  /** Counts a request on its connection until its response is sent or given up. */
  track(socket: Socket, res: ServerResponse): void {
    const c = this.connections.get(socket);
    if (c !== undefined) c.busy++;
    this.responses.add(res);
    res.once('close', () => {
      this.responses.delete(res);
      if (c === undefined) return;
      c.busy--;
      c.idleSince = Date.now();
    });
  }

  /**
   * Stops listening and lets the connections go (see the header) until none is left or `drainMs` have
   * passed, then cuts what is left; resolves, once the server is closed, with the requests that were still
   * in flight on the connections cut. The server's handler must answer 503 with `Connection: close` from
   * the moment this is called.
   */
  async drain(drainMs: number): Promise<number> {
    const stoppedAt = Date.now();
    for (const res of this.responses) if (!res.headersSent) res.setHeader('connection', 'close');
    // net's close, not http's (see the header)
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(this.server, () => resolve()));
    const deadline = stoppedAt + drainMs;
    while (this.connections.size > 0 && Date.now() < deadline) {
      const now = Date.now();
      for (const [socket, c] of this.connections) {
        if (c.busy === 0 && !c.ending && now - Math.max(c.idleSince, stoppedAt) >= STOP_IDLE_MS) {
          c.ending = true;
          socket.end();
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    let cut = 0;
    for (const c of this.connections.values()) cut += c.busy;
    this.server.closeAllConnections();
    await closed;
    return cut;
  }
}
