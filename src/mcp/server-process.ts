/**
 * The wrapped MCP server as a child process: started with piped stdin and stdout (its stderr is the
 * proxy's own, so it passes through untouched), stopped the way the MCP stdio spec shuts a server down
 * (its stdin closed; SIGTERM if it has not exited after a grace period; SIGKILL after another), and its
 * exit told as a shell tells it (the code, or 128 + the signal number; 127 when it could not start).
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';

/** How the server ended: its exit code as a shell gives it, and why, in words, when it did not start. */
export interface ServerExit {
  readonly code: number;
  readonly failedToStart?: string;
}

/** Exit code when the server command could not be started (as a shell's "command not found"). */
export const NOT_STARTED = 127;

/** The server process and its streams. */
export class ServerProcess {
  /** Resolves once the process has exited (or failed to start). */
  readonly exited: Promise<ServerExit>;
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private done = false;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];

  /**
   * Starts `command` with `args`.
   * @param graceMs how long a stopping server may take at each step (stdin closed, then SIGTERM) before the next
   */
  constructor(command: string, args: readonly string[], private readonly graceMs: number) {
    this.child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise<ServerExit>((resolve) => {
      this.child.once('error', (e: NodeJS.ErrnoException) => {
        if (this.child.pid !== undefined) return; // an error of a running child (a failed kill): its exit still comes
        this.finish();
        resolve({ code: NOT_STARTED, failedToStart: e.code ?? e.message });
      });
      this.child.once('exit', (code, signal) => {
        this.finish();
        resolve({ code: code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)) });
      });
    });
  }

  /** What the proxy writes the client's messages to. */
  get stdin(): Writable {
    return this.child.stdin;
  }

  /** What the proxy reads the server's messages from. */
  get stdout(): Readable {
    return this.child.stdout;
  }

  /** Whether the process is still there (started, not yet exited). */
  get running(): boolean {
    return !this.done;
  }

  /** The process id, once started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the server as the MCP spec says: stdin closed; SIGTERM after the grace period; SIGKILL after another. */
  stop(): void {
    if (this.done || this.stopping) return;
    this.stopping = true;
    this.child.stdin.end();
    this.later(() => this.signal('SIGTERM'), this.graceMs);
    this.later(() => this.signal('SIGKILL'), 2 * this.graceMs);
  }

  /** Sends `signal` (one the proxy itself got), and SIGKILL if the server has not exited after the grace period. */
  forward(signal: NodeJS.Signals): void {
    this.signal(signal);
    this.later(() => this.signal('SIGKILL'), this.graceMs);
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.done) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  private later(f: () => void, ms: number): void {
    if (this.done) return;
    const t = setTimeout(f, ms);
    t.unref();
    this.timers.push(t);
  }

  private finish(): void {
    this.done = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
