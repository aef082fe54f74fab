/**
 * Where a command's report goes: standard output, or the file `--output FILE` names, opened before any input
 * is read (a path that cannot be written is a usage error naming it) and closed once the report is whole.
 * A write that fails on the way (a full disk: ENOSPC, EIO) is kept and given by `close()` as an
 * OutputWriteError naming the flag and file. Before, `--output` on a full disk exited 0 with the report lost
 * (`end()` called back without looking at the stream's error), and `--html` was an internal error (exit 3).
 */
import { createWriteStream } from 'node:fs';
import { UnsafeOutputError, openOutputFile } from './open-output.js';
import { UsageError } from '../usage-error.js';

/** A report file that could not be written whole; the message names the flag, the file and the error's code. */
export class OutputWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputWriteError';
  }
}

/** A report's destination. */
export interface ReportTarget {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Resolves once everything written has reached the file (at once for standard output); rejects with an OutputWriteError when a write failed. */
  close(): Promise<void>;
}

/** `--output FILE` (or the file of another `flag`) opened for writing, or `stdout` when `path` is undefined. Throws UsageError when it cannot be written. */
export function reportTarget(path: string | undefined, stdout: NodeJS.WritableStream & { isTTY?: boolean }, flag = '--output'): ReportTarget {
  if (path === undefined) return { stream: stdout, close: () => Promise.resolve() };
  let fd: number;
  try {
    fd = openOutputFile(path);
  } catch (e) {
    throw new UsageError(`${flag} ${path}: cannot write the file (${e instanceof UnsafeOutputError ? e.message : ((e as NodeJS.ErrnoException).code ?? String(e))})`);
  }
  const stream = createWriteStream(path, { fd });
  let failed: NodeJS.ErrnoException | null = null;
  stream.on('error', (e: NodeJS.ErrnoException) => (failed ??= e)); // kept for close(): the scan goes on to its end
  const failure = (e: NodeJS.ErrnoException): OutputWriteError => new OutputWriteError(`${flag} ${path}: the report could not be written whole (${e.code ?? e.message})`);
  return {
    stream,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed !== null || stream.destroyed) {
          reject(failure(failed ?? Object.assign(new Error('the file was closed'), { code: 'EBADF' })));
          return;
        }
        stream.end((e?: Error | null) => {
          const error = failed ?? (e as NodeJS.ErrnoException | null | undefined) ?? null;
          if (error === null) resolve();
          else reject(failure(error));
        });
      }),
  };
}
