/**
 * An output file opened before a run and written as it goes or once it has ended (`scan --output`,
 * `--html`, `--markdown`, `--metrics`, `eval --html`, `calibrate -o`).
 *
 * Opened at the end, a path that cannot be written (a folder, a dangling link, a FIFO without a reader, a
 * file of another user in `/tmp`, a missing folder) would be said only after the whole run. So the file is
 * opened before the run with every check of open-output.ts, and left as it is: a run that dies before its
 * output begins (an output that fails, a second Ctrl-C, a crash) leaves an existing file's bytes, and a file
 * this opening made is removed again (also when the process exits first: `process.exit` runs the 'exit'
 * listeners).
 *
 * A regular file of the writer's own, named by the path as when opened, with one link, is written whole or
 * not at all (files/replace-whole.ts): the output goes into `.<name>.<pid>.tmp` beside it, given the file's
 * mode, and is renamed over its name only when whole; a reader (a collector reading `*.prom` on its own
 * schedule, a CI step, a browser reloading the report) sees the old bytes or the new, never part of them,
 * and a run that ends early leaves the old file. Anything else is written in place: a FIFO or a device
 * (`/dev/stdout`) that a rename would replace, a file of another user (a rename would make it the
 * writer's), a hard-linked file (a rename would part it from its other names).
 *
 * A SIGINT, SIGTERM or SIGHUP while an output is open, that no other listener takes (scan's Ctrl-C finishes
 * the calls read and writes its outputs), abandons every open output (each file begun beside is removed, a
 * file an opening made is removed), then the signal is raised again, so the process ends by it.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, lstatSync, unlinkSync } from 'node:fs';
import { UnsafeOutputError, keptOutputFile } from './open-output.js';
import { UsageError } from '../usage-error.js';
import { fileFailure } from '../../text/file-failure.js';
import { type WholeFile, wholeFileBeside, writeAll } from '../../files/replace-whole.js';

/** An output file opened before a run. */
export interface PendingOutput {
  /** The path, as given. */
  readonly path: string;
  /** Begins the output (a new file beside a file of one's own; else the file emptied) and returns the descriptor to write into. Throws the file system's error (abandoned then). */
  begin(): number;
  /** Ends a begun output: the new file synced and renamed over the path, or the file closed. Throws the file system's error (abandoned then). */
  finish(): void;
  /** Writes `text` whole (begin, write, finish). Throws the file system's error (abandoned then). */
  write(text: string): void;
  /** Ends the output unwritten: a file begun beside is removed, an existing file keeps its bytes, a file the opening made is removed. Never throws. */
  abandon(): void;
}

/** `path` (the file of `flag`) opened for a write during or at the end of a run. Throws UsageError, as `--output` does, when it cannot be written. */
export function pendingOutputFile(path: string, flag: string): PendingOutput {
  let opened;
  try {
    opened = keptOutputFile(path);
  } catch (e) {
    throw new UsageError(`${flag} ${path}: cannot write the file (${e instanceof UnsafeOutputError ? `${e.message})` : cannotOpen(e, path)}`);
  }
  const { fd, created } = opened;
  let state: 'opened' | 'begun' | 'closed' = 'opened';
  let whole: WholeFile | null = null;
  const close = (): void => {
    state = 'closed';
    OPEN.delete(pending);
    if (OPEN.size === 0) unwatch();
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  };
  const pending: PendingOutput = {
    path,
    begin() {
      if (state !== 'opened') throw new Error(`${flag} ${path} was already ${state}`);
      try {
        const own = fstatSync(fd);
        if (own.isFile()) {
          whole = ownFile(path, own) ? besideOrNull(path, own.mode) : null;
          if (whole === null) ftruncateSync(fd, 0);
        }
      } catch (e) {
        pending.abandon();
        throw e;
      }
      state = 'begun';
      return whole?.fd ?? fd;
    },
    finish() {
      if (state !== 'begun') throw new Error(`${flag} ${path} was ${state === 'opened' ? 'not begun' : 'already closed'}`);
      try {
        whole?.commit();
        whole = null;
      } catch (e) {
        whole = null; // removed by the commit
        pending.abandon();
        throw e;
      }
      close();
    },
    write(text) {
      const out = pending.begin();
      try {
        writeAll(out, Buffer.from(text, 'utf8'));
      } catch (e) {
        pending.abandon();
        throw e;
      }
      pending.finish();
    },
    abandon() {
      if (state === 'closed') return;
      whole?.discard();
      whole = null;
      try {
        // remove only the very file made here: not one renamed over its name meanwhile
        const own = fstatSync(fd);
        if (created && own.isFile()) {
          const named = lstatSync(path);
          if (named.ino === own.ino && named.dev === own.dev) unlinkSync(path);
        }
      } catch {
        // gone already, or not ours to remove: left as it is
      } finally {
        close();
      }
    },
  };
  if (OPEN.size === 0) watch();
  OPEN.add(pending);
  return pending;
}

/**
 * Why `path` could not be opened, in words (file-failure.ts), closing the parenthesis it is said in, and what
 * to do when a person can act on it: `permission denied); make the file writable by you (...)` in place of a
 * bare `EACCES)`. A permission fix is said of the file when it exists, else of the folder it would be made in.
 */
function cannotOpen(e: unknown, path: string): string {
  const f = fileFailure(e, existsSync(path) ? 'file' : 'folder');
  return f.fix === null ? `${f.why})` : `${f.why}); ${f.fix}`;
}

/** Whether the file opened (`own`) is still named by `path` and is the writer's own with one link: then it is written whole beside it. */
function ownFile(path: string, own: import('node:fs').Stats): boolean {
  const uid = process.getuid?.();
  if (uid !== undefined && own.uid !== uid) return false;
  const named = lstatSync(path, { throwIfNoEntry: false });
  return named !== undefined && named.ino === own.ino && named.dev === own.dev && own.nlink === 1;
}

/** A new file beside `path` (replace-whole.ts), or null when it cannot be made (a folder the user may not write, a name taken): the file is then written in place. */
function besideOrNull(path: string, mode: number): WholeFile | null {
  try {
    return wholeFileBeside(path, mode);
  } catch {
    return null;
  }
}

/** The outputs open in this process, abandoned together on a signal or an exit. */
const OPEN = new Set<PendingOutput>();

/** The signals that end a run whose outputs are then abandoned (and raised again). */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const abandonAll = (): void => {
  for (const o of [...OPEN]) o.abandon();
};

const onSignal = (sig: NodeJS.Signals): void => {
  // another listener (scan's Ctrl-C, which finishes the calls read and writes the outputs) decides
  if (process.listenerCount(sig) > 1) return;
  abandonAll();
  unwatch();
  process.kill(process.pid, sig);
};

function watch(): void {
  process.on('exit', abandonAll);
  for (const sig of SIGNALS) process.on(sig, onSignal);
}

function unwatch(): void {
  process.off('exit', abandonAll);
  for (const sig of SIGNALS) process.off(sig, onSignal);
}
