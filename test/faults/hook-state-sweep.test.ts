/**
 * The hooks' sweep removes only what loopwatch made. A state folder may be any folder (`--state-dir .` in a
 * project): its `Cargo.lock`, `yarn.lock`, `build.tmp` or `x.bad`, however old, are the project's. Only the
 * exact names loopwatch gives (a 32-hex-digit hash and its suffixes) are swept, and only when old.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateFileKind } from '../../src/hooks/state-names.js';
import { LEFTOVER_AGE_MS, SESSION_MAX_AGE_MS, sweepIfDue } from '../../src/hooks/state-sweep.js';
import { beforePayload, hook } from '../helpers/hook-payloads.js';

const DAY = 24 * 3600 * 1000;
const OLD = SESSION_MAX_AGE_MS + DAY;
const H = '0123456789abcdef0123456789abcdef';

/** Names a project may hold, none of them loopwatch's, each made very old. */
const FOREIGN = [
  'Cargo.lock',
  'yarn.lock',
  'package-lock.json',
  'foo.tmp',
  'x.bad',
  'notes.lwhook',
  `${H.toUpperCase()}.lock`,
  `${H.slice(1)}.lock`,
  `${H}0.lock`,
  `${H}.lock.bak`,
  `prefix-${H}.lock`,
  `${H}.lwhook.tmp`,
  `${H}.lwhook.12.abc.tmp`,
  `${H}.lock.12.0123abcd.broken.orig`,
  `${H}.calls.txt`,
];

/** loopwatch's own names, old enough to go. */
const OURS = [`${H}.lwhook`, `${H}.bad`, `${H}.calls`, `${H}.lock`, `${H}.lwhook.4242.0123abcd.tmp`, `${H}.lock.4242.89abcdef.broken`];

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopwatch-sweep-project-'));
  dirs.push(d);
  return d;
}

function aged(path: string, ageMs: number): string {
  writeFileSync(path, 'x');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(path, t, t);
  return path;
}

describe('the sweep of a state folder that is a project', () => {
  it('should keep every file whose name is not exactly loopwatch\'s, however old, and remove loopwatch\'s old ones', () => {
    const dir = project();
    const foreign = FOREIGN.map((n) => aged(join(dir, n), OLD));
    const ours = OURS.map((n) => aged(join(dir, n), OLD));
    mkdirSync(join(dir, `${H.replace('0', '1')}.lwhook`)); // a folder of that name is not removed either
    expect(sweepIfDue(dir)).toBe(OURS.length);
    expect(foreign.filter((p) => !existsSync(p))).toEqual([]);
    expect(ours.filter(existsSync)).toEqual([]);
  });

  it('should know each of loopwatch\'s names and no other', () => {
    expect(OURS.map(stateFileKind)).toEqual(['state', 'bad', 'calls', 'leftover', 'leftover', 'leftover']);
    expect(FOREIGN.map(stateFileKind)).toEqual(FOREIGN.map(() => null));
  });

  it('should keep a project\'s Cargo.lock and yarn.lock when a hook runs with the project as its state folder', async () => {
    const dir = project();
    const keep = ['Cargo.lock', 'yarn.lock', 'foo.tmp', 'x.bad'].map((n) => aged(join(dir, n), OLD));
    const staleLock = aged(join(dir, `${H}.lock`), LEFTOVER_AGE_MS + 60_000);
    const call = { tool: 'Bash', args: { command: 'cargo build' }, result: 'ok' };
    expect(await hook(['--state-dir', dir], beforePayload('claude-code', 's', call, 't1'))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(dir, '.sweep'))).toBe(true); // it did sweep
    expect(keep.filter((p) => !existsSync(p))).toEqual([]);
    expect(existsSync(staleLock)).toBe(false);
  }, 60_000);
});
