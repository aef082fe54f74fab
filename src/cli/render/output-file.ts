/**
 * Where a command's report goes: standard output, or the file `--output FILE` names, opened before any input
 * is read (a path that cannot be written is a usage error naming it) and written as the run goes, whole or
 * not at all (pending-output.ts: a file of one's own is written beside it and renamed over it once the report
 * is whole; a run killed or failing before leaves the old file, or none where there was none).
 * A write that fails on the way (a full disk: ENOSPC, EIO) is kept and given by `close()` as an
 * OutputWriteError naming the flag and file. Before, `--output` on a full disk exited 0 with the report lost
 * (`end()` called back without looking at the stream's error), and `--html` was an internal error (exit 3).
 */
import { createWriteStream, write, writev } from 'node:fs';
import { pendingOutputFile } from './pending-output.js';

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
  /** Resolves once everything written has reached the file (at once for standard output); rejects with an OutputWriteError when a write failed (the file then abandoned). */
  close(): Promise<void>;
  /** Ends a report that will not be whole (a run that failed): the file as it was before the run. Never throws. */
  abandon(): void;
}

/** `--output FILE` (or the file of another `flag`) opened for writing, or `stdout` when `path` is undefined. Throws UsageError when it cannot be written. */
export function reportTarget(path: string | undefined, stdout: NodeJS.WritableStream & { isTTY?: boolean }, flag = '--output'): ReportTarget {
  if (path === undefined) return { stream: stdout, close: () => Promise.resolve(), abandon: () => undefined };
  const file = pendingOutputFile(path, flag);
  let fd: number;
  try {
    fd = file.begin();
  } catch (e) {
    throw new OutputWriteError(`${flag} ${path}: the report could not be begun (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  // the descriptor is the file's to close (after its sync, or on abandon): the stream's close does nothing
  const stream = createWriteStream(path, { fd, autoClose: false, fs: { write, writev, open: () => undefined, close: (_: number, done: (e: null) => void) => done(null) } });
  // abandoned once the stream's writes in flight are done, so none lands in a descriptor closed and reused
  const drop = (): Promise<void> =>
    new Promise((resolve) => {
      if (stream.closed) {
        file.abandon();
        return resolve();
      }
      stream.once('close', () => {
        file.abandon();
        resolve();
      });
      stream.destroy();
    });
  let failed: NodeJS.ErrnoException | null = null;
  stream.on('error', (e: NodeJS.ErrnoException) => (failed ??= e)); // kept for close(): the scan goes on to its end
  const failure = (e: NodeJS.ErrnoException): OutputWriteError => new OutputWriteError(`${flag} ${path}: the report could not be written whole (${e.code ?? e.message})`);
  return {
    stream,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed !== null || stream.destroyed) {
          const error = failure(failed ?? Object.assign(new Error('the file was closed'), { code: 'EBADF' }));
          void drop().then(() => reject(error));
          return;
        }
        stream.end((e?: Error | null) => {
          let error = failed ?? (e as NodeJS.ErrnoException | null | undefined) ?? null;
          if (error === null) {
            try {
              file.finish();
            } catch (f) {
              error = f as NodeJS.ErrnoException;
            }
          }
          if (error === null) resolve();
          else void drop().then(() => reject(failure(error)));
        });
      }),
    abandon: () => void drop(),
  };
}
