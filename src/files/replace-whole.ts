/**
 * A file written whole or not at all: the bytes go into a new file beside it, `.<name>.<pid>.tmp` (a dot
 * file, not a name a collector of `*.prom` or a folder scan of `*.jsonl` reads), made 0600 and exclusively
 * (never through a link planted under its name), given the mode the file is to have, synced, then renamed
 * over the file's name; a reader sees the old bytes or the new, never part of them. Every output file
 * loopwatch writes goes through here (cli/render/pending-output.ts for the commands' outputs, the agents'
 * settings files of `hook install`).
 *
 * Before the new file is made, the leftovers of earlier writes of the same name are removed
 * (stale-temps.ts): a run killed by SIGKILL between making its file and renaming it leaves one. A name it
 * cannot remove (a link a neighbour planted, another user's file, a live writer's) never blocks the write:
 * the file is then made as `.<name>.<pid>.<8 hex>.tmp`, a name no one can foresee (the hooks' and serve's
 * state files go through here too: a blocked write was a session that could not be saved).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeStaleTemps } from './stale-temps.js';

/** This process's temp files under way (made, not yet renamed or removed): never taken for leftovers. */
const WRITING = new Set<string>();

/** Whether `temp` is a temp file this process is writing now (made, not yet renamed or removed): not a leftover. */
export function writingNow(temp: string): boolean {
  return WRITING.has(temp);
}

/** The name of the file a write of `path` by process `pid` goes into before it is renamed over `path` (`tag`: 8 hex digits when that name is taken). */
export function tempBeside(path: string, pid = process.pid, tag = ''): string {
  return join(dirname(path), `.${basename(path)}.${pid}${tag === '' ? '' : `.${tag}`}.tmp`);
}

/** Tries at a name of one's own when the plain one is held: a planted name is foreseen only by chance (2^-32). */
const OTHER_NAMES = 4;

/** Makes the temp file of `path` exclusively (never through a link), another name when the plain one is held; its name and descriptor. */
function makeTemp(path: string): { readonly temp: string; readonly fd: number } {
  let temp = tempBeside(path);
  for (let tries = 0; ; tries++) {
    try {
      return { temp, fd: openSync(temp, 'wx', 0o600) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries === OTHER_NAMES) throw e;
      temp = tempBeside(path, process.pid, randomBytes(4).toString('hex'));
    }
  }
}

/** A new file beside a path, written and then renamed over it (or discarded). */
export interface WholeFile {
  /** The descriptor to write the bytes into. */
  readonly fd: number;
  /** Where the bytes go until the rename. */
  readonly temp: string;
  /** Syncs (unless told not to) and closes the file and renames it over the path; on a failure the file is removed and the error thrown. */
  commit(): void;
  /** Closes and removes the file, the path untouched. Never throws. */
  discard(): void;
}

/** How a whole file is written. */
export interface WholeFileOptions {
  /**
   * Sync the bytes before the rename (a power cut then leaves the old bytes or the new). Off for the hooks'
   * and serve's state files, written on every call on the agent's path: a state cut short by a power cut is
   * set aside when read and the session starts again. @default true
   */
  readonly sync?: boolean;
  /**
   * Read the folder for leftovers of earlier writes of the name (stale-temps.ts) before the write. Off for
   * the hooks' state files: a hook writes one on every call, and reading a state folder of 5,000 sessions
   * cost each write ~2.5 ms more (median of 200); their leftovers are the state sweep's (state-sweep.ts,
   * after an hour), and one held under this write's name is passed by another name all the same. @default true
   */
  readonly removeLeftovers?: boolean;
}

/**
 * A new file beside `path` that will take its name, with `mode` (the permission bits). Throws the file
 * system's error when it cannot be made (the folder is not writable: EACCES; a file or link holds the name:
 * EEXIST).
 */
export function wholeFileBeside(path: string, mode: number, options: WholeFileOptions = {}): WholeFile {
  const sync = options.sync ?? true;
  if (options.removeLeftovers ?? true) removeStaleTemps(path, writingNow);
  const { temp, fd } = makeTemp(path);
  WRITING.add(temp);
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  };
  const discard = (): void => {
    close();
    WRITING.delete(temp);
    try {
      unlinkSync(temp);
    } catch {
      // gone already
    }
  };
  try {
    fchmodSync(fd, mode & 0o7777);
  } catch (e) {
    discard();
    throw e;
  }
  return {
    fd,
    temp,
    commit() {
      try {
        if (sync) fsyncSync(fd);
        open = false;
        closeSync(fd);
        renameSync(temp, path);
        WRITING.delete(temp);
      } catch (e) {
        discard();
        throw e;
      }
    },
    discard,
  };
}

/** Writes all of `bytes` at the descriptor's position. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}
