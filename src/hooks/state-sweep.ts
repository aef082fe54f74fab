/**
 * Cleaning the state directory of sessions that ended long ago, cheaply and rarely: each hook looks at the
 * age of one marker file (`.sweep`); when it is older than SWEEP_EVERY_MS (or missing), that hook touches
 * it and removes session files untouched for `maxAgeMs`, and leftovers of crashed hooks (temporary files,
 * locks, broken locks) older than an hour. Only files whose names are exactly loopwatch's (state-names.ts)
 * are looked at: the folder may be a project's (`--state-dir .`), whose `Cargo.lock` or `build.tmp` are not
 * loopwatch's to remove. The markers of notices told once (`.noted/<32 hex>`, one per version of a
 * project's `.loopwatch.json` told: in use, unusable, a rule refused) go after `maxAgeMs` too (a notice
 * is then told again), so that nothing in the folder grows over weeks of use. Two hooks sweeping at once
 * is harmless.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { O_NOFOLLOW } from './private-path.js';
import { SWEEP_MARKER, stateFileKind } from './state-names.js';
import { NOTED_FOLDER } from './told-once.js';

/** Sessions untouched this long (milliseconds) are removed: 7 days. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** The directory is swept at most this often (milliseconds): once a day. */
export const SWEEP_EVERY_MS = 24 * 3600 * 1000;
/** Temporary files, locks and broken locks older than this (milliseconds) are leftovers of crashed hooks. */
export const LEFTOVER_AGE_MS = 3600 * 1000;

/** Whether `name` is a file the sweep may remove, and after how long. */
function maxAgeOf(name: string, sessionAge: number): number | null {
  const kind = stateFileKind(name);
  return kind === null ? null : kind === 'leftover' ? LEFTOVER_AGE_MS : sessionAge;
}

/** Sweeps `dir` when its marker says a sweep is due; returns how many files were removed. Never throws. */
export function sweepIfDue(dir: string, now = Date.now(), maxAgeMs = SESSION_MAX_AGE_MS): number {
  const marker = join(dir, SWEEP_MARKER);
  try {
    if (now - statSync(marker).mtimeMs < SWEEP_EVERY_MS) return 0;
    utimesSync(marker, now / 1000, now / 1000);
  } catch {
    try {
      closeSync(openSync(marker, constants.O_WRONLY | constants.O_CREAT | O_NOFOLLOW, 0o600));
    } catch {
      return 0; // an unwritable directory: nothing to sweep either
    }
  }
  let removed = sweepNames(dir, now, (name) => maxAgeOf(name, maxAgeMs));
  const noted = join(dir, NOTED_FOLDER);
  try {
    // a folder of its own, never through a link
    if (lstatSync(noted).isDirectory()) removed += sweepNames(noted, now, (name) => (NOTED_NAME.test(name) ? maxAgeMs : null));
  } catch {
    // no notices told
  }
  return removed;
}

const NOTED_NAME = /^[0-9a-f]{32}$/;

/** Removes the files of `dir` older than `maxAgeOf` their name says (null: not ours); how many. Never throws. */
function sweepNames(dir: string, now: number, maxAgeOf: (name: string) => number | null): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const age = maxAgeOf(name);
    if (age === null) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() && now - st.mtimeMs > age) {
        unlinkSync(path);
        removed++;
      }
    } catch {
      // removed by someone else, or not ours to remove
    }
  }
  return removed;
}
