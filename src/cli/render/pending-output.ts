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
 * A regular file of the writer's own is written whole or not at all, as node_exporter's textfile collector
 * asks of a file it reads on its own schedule: the text goes into a new file beside it (`.<name>.<pid>.tmp`,
 * not a name a collector of `*.prom` reads), given the file's mode, then renamed over its name; a reader
 * sees the old bytes or the new, never part of them. Anything else is written in place: a FIFO or a device
 * (`/dev/stdout`) that a rename would replace, a file of another user (a rename would make it the writer's),
 * a name swapped since it was opened.
 *
 * A SIGINT, SIGTERM or SIGHUP while the run goes on, that no other listener takes (scan's Ctrl-C finishes
 * the calls read and writes the file), abandons the file (a file this opening made is removed), then the
 * signal is raised again, so the process ends by it as it would have.
 */
import { closeSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
    for (const sig of SIGNALS) process.off(sig, onSignal);
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
        const bytes = Buffer.from(text, 'utf8');
        const own = fstatSync(fd);
        if (own.isFile() && replaceWhole(path, own, bytes)) return;
        if (own.isFile()) ftruncateSync(fd, 0);
        writeAll(fd, bytes);
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
  const onSignal = (sig: NodeJS.Signals): void => {
    // another listener (scan's Ctrl-C, which finishes the calls read and writes the file) decides: keep watching
    if (process.listenerCount(sig) > 0) {
      process.once(sig, onSignal);
      return;
    }
    pending.abandon();
    process.kill(process.pid, sig);
  };
  process.once('exit', onExit);
  for (const sig of SIGNALS) process.once(sig, onSignal);
  return pending;
}

/** The signals that end a run whose file is then abandoned (and raised again). */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Writes `bytes` into a new file beside `path` and renames it over `path`, when `path` still names the file
 * opened (`own`) and it is the writer's: true when done, false (nothing changed) to write in place.
 */
function replaceWhole(path: string, own: import('node:fs').Stats, bytes: Buffer): boolean {
  const uid = process.getuid?.();
  if (uid !== undefined && own.uid !== uid) return false;
  const named = lstatSync(path, { throwIfNoEntry: false });
  if (named === undefined || named.ino !== own.ino || named.dev !== own.dev || own.nlink !== 1) return false;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let tfd: number;
  try {
    tfd = openSync(temp, 'wx', 0o600);
  } catch {
    return false;
  }
  try {
    fchmodSync(tfd, own.mode & 0o7777);
    writeAll(tfd, bytes);
    fsyncSync(tfd);
    closeSync(tfd);
    renameSync(temp, path);
    return true;
  } catch (e) {
    try {
      closeSync(tfd);
    } catch {
      // closed already
    }
    try {
      unlinkSync(temp);
    } catch {
      // gone already
    }
    throw e;
  }
}
