/**
 * An output file written only once a long run has ended (`scan --metrics`), opened before the run begins.
 *
 * Opened at the end, a path that cannot be written (a folder, a dangling link, a FIFO without a reader, a
 * file of another user in `/tmp`, a missing folder) was said only after the whole scan, where `--output` and
 * `--html` are refused before any input is read. Opened early and emptied at once, a scan that then dies (an
 * output that fails, a second Ctrl-C, a crash) would leave an empty file where a good one was: a CI
 * dashboard collecting metric files would read no figures at all. So the file is opened early with every
 * check of open-output.ts, left as it is while the run goes on, and emptied and written only at the end;
 * abandoned, it keeps its bytes, and a file this opening made is removed again (also when the process exits
 * before either, as on a second Ctrl-C: `process.exit` runs the 'exit' listeners).
 *
 * Written in place, not renamed over: the path may be a FIFO or a device (`/dev/stdout`) that a rename would
 * replace, and a rename would give the file the writer's owner and mode.
 */
import { closeSync, fstatSync, ftruncateSync, lstatSync, unlinkSync, writeSync } from 'node:fs';
import { UnsafeOutputError, keptOutputFile } from './open-output.js';
import { UsageError } from '../usage-error.js';

/** An output file opened before a run and written after it. */
export interface PendingOutput {
  /** The path, as given. */
  readonly path: string;
  /** Empties the file and writes `text` whole, then closes it. Throws the file system's error (closed either way). */
  write(text: string): void;
  /** Closes the file unwritten: an existing file keeps its bytes, a file made by the opening is removed. Never throws. */
  abandon(): void;
}

/** `path` (the file of `flag`) opened for a write at the end of a run. Throws UsageError, as `--output` does, when it cannot be written. */
export function pendingOutputFile(path: string, flag: string): PendingOutput {
  let opened;
  try {
    opened = keptOutputFile(path);
  } catch (e) {
    throw new UsageError(`${flag} ${path}: cannot write the file (${e instanceof UnsafeOutputError ? e.message : ((e as NodeJS.ErrnoException).code ?? String(e))})`);
  }
  const { fd, created } = opened;
  let open = true;
  const close = (quiet: boolean): void => {
    if (!open) return;
    open = false;
    process.off('exit', onExit);
    try {
      closeSync(fd);
    } catch (e) {
      if (!quiet) throw e;
    }
  };
  const pending: PendingOutput = {
    path,
    write(text) {
      if (!open) throw new Error(`${flag} ${path} was already closed`);
      try {
        if (fstatSync(fd).isFile()) ftruncateSync(fd, 0);
        const bytes = Buffer.from(text, 'utf8');
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      } finally {
        close(false);
      }
    },
    abandon() {
      if (!open) return;
      try {
        // remove only the very file made here, still empty: not one renamed over its name meanwhile
        const own = fstatSync(fd);
        if (created && own.isFile() && own.size === 0) {
          const named = lstatSync(path);
          if (named.ino === own.ino && named.dev === own.dev) unlinkSync(path);
        }
      } catch {
        // gone already, or not ours to remove: left as it is
      } finally {
        close(true);
      }
    },
  };
  const onExit = (): void => pending.abandon();
  process.once('exit', onExit);
  return pending;
}
