/**
 * Where a command's report goes: standard output, or the file `--output FILE` names, opened before any input
 * is read (a path that cannot be written is a usage error naming it) and closed once the report is whole.
 */
import { createWriteStream } from 'node:fs';
import { UnsafeOutputError, openOutputFile } from './open-output.js';
import { UsageError } from '../usage-error.js';

/** A report's destination. */
export interface ReportTarget {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Resolves once everything written has reached the file (at once for standard output). */
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
  return {
    stream,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}
