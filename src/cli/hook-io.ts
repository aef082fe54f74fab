/**
 * What a hook process reads and writes. Through the CLI (`loopwatch hook`) that is its streams; through the
 * hook's own entry (hook-main.ts) it is file descriptors 0, 1 and 2 read and written directly, which spares
 * the process creating stream objects (and loading their modules) for one payload in and one line out.
 */
import { fstatSync, readSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CommandIo } from './scan-command.js';
import { type CommandContext, processContext } from './command-context.js';

/** A hook process's input and output, and the environment, working folder and script it runs with (command-context.ts). */
export interface HookIo extends CommandContext {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** All of standard input, or null when it is larger than `max` bytes. */
  readInput(max: number): Promise<Buffer | null>;
  /** Whether standard input is a terminal (a person, not an agent, ran the hook). */
  readonly inputIsTTY: boolean;
}

/** Reads a stream to its end, at most `max` bytes; null when it is larger. */
export async function readStream(stream: NodeJS.ReadableStream, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > max) {
      (stream as NodeJS.ReadStream).destroy?.();
      return null;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, size);
}

/** The HookIo of the CLI's streams. */
export function streamHookIo(io: CommandIo): HookIo {
  return { env: io.env, cwd: io.cwd, script: io.script, stdout: io.stdout, stderr: io.stderr, readInput: (max) => readStream(io.stdin, max), inputIsTTY: io.stdin.isTTY === true };
}

/**
 * Reads descriptor 0 synchronously to its end (at most `max` bytes; null when larger). A descriptor that
 * is non-blocking (EAGAIN) is read as a stream instead.
 */
async function readFd0(max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const b = Buffer.allocUnsafe(64 * 1024);
    let n: number;
    try {
      n = readSync(0, b, 0, b.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw e;
      const rest = await readStream(process.stdin, max - size);
      if (rest === null) return null;
      chunks.push(rest);
      size += rest.length;
      break;
    }
    if (n === 0) break;
    size += n;
    if (size > max) return null;
    chunks.push(b.subarray(0, n));
  }
  return Buffer.concat(chunks, size);
}

function fdWriter(fd: number): { write(text: string): boolean } {
  return {
    write(text: string): boolean {
      try {
        writeSync(fd, text);
      } catch {
        // the agent stopped reading: nothing more to tell it
      }
      return true;
    },
  };
}

/**
 * Whether descriptor 0 is a terminal. `node:tty` costs more to load than the rest of the hook's I/O, so
 * it is asked only when descriptor 0 is a character device (a terminal, or /dev/null), never for a pipe.
 */
function stdinIsTTY(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(0);
}

/** The HookIo of descriptors 0, 1 and 2 (hook-main.ts). */
export function fdHookIo(): HookIo {
  return { ...processContext(), stdout: fdWriter(1), stderr: fdWriter(2), readInput: readFd0, inputIsTTY: stdinIsTTY() };
}
