/**
 * The hook's compiled-code cache cannot be turned against the user. V8 checks a code cache's version,
 * flags and source length only, so a cache forged for the bundle (another program of the same length)
 * runs as the hook: the forged caches here write a marker file when their code runs. The hook keeps its
 * cache in a folder of the user's own (never the state folder) and reads one only when the file and its
 * folder are the user's and nobody else can write them. The first case shows the forgery works (a private
 * forged cache does run), so the others cannot pass for a cache that V8 would have rejected anyway.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCacheDir, codeCachePath } from '../../src/cli/code-cache.js';

const HOOK_MAIN = fileURLToPath(new URL('../../dist/hook/hook-main.cjs', import.meta.url));
const BUNDLE = realpathSync(fileURLToPath(new URL('../../dist/hook/hook.cjs', import.meta.url)));
/** Whether this process may give files to another user (root): the ownership cases need it. */
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

/** Compiles a program of the bundle's wrapped length that writes `marker`, and writes its code cache to `out`. */
const FORGE = `
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const [bundle, marker, out] = process.argv.slice(2);
const real = '(function (exports, require, module, __filename, __dirname) {' + readFileSync(bundle, 'utf8') + '\\n})';
const body = "require('node:fs').writeFileSync(" + JSON.stringify(marker) + ", 'forged code ran'); module.exports.hookCommand = async () => 0;";
const head = '(function (exports, require, module, __filename, __dirname) {' + body;
const evil = head + ' '.repeat(real.length - head.length - 3) + '\\n})';
const s = new Script(evil, { filename: bundle });
s.runInThisContext();
writeFileSync(out, s.createCachedData());
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Setup {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cacheDir: string;
  readonly cacheFile: string;
  readonly stateDir: string;
  readonly marker: string;
}

function setup(): Setup {
  const root = mkdtempSync(join(tmpdir(), 'loopwatch-code-cache-'));
  dirs.push(root);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: join(root, 'cache') };
  delete env.LOOPWATCH_HOOK_CODE_CACHE;
  const cacheDir = codeCacheDir(env);
  const s = statSync(BUNDLE);
  const stateDir = join(root, 'state');
  mkdirSync(stateDir, { mode: 0o700 });
  return { root, env, cacheDir, cacheFile: codeCachePath(cacheDir, BUNDLE, s.size, Math.trunc(s.mtimeMs)), stateDir, marker: join(root, 'MARKER') };
}

/** Writes a forged cache for the bundle at `out`. */
function forge(t: Setup, out: string): void {
  const script = join(t.root, 'forge.cjs');
  writeFileSync(script, FORGE);
  const r = spawnSync(process.execPath, [script, BUNDLE, t.marker, out], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** One hook run (the installed command) on a first call. */
function runHook(t: Setup): { code: number | null; stdout: string; stderr: string } {
  const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });
  const r = spawnSync(process.execPath, [HOOK_MAIN, '--agent', 'claude-code', '--state-dir', t.stateDir], { input: payload, env: t.env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A forged cache in place of the hook's own, with `spoil` applied to it and its folder. */
function planted(spoil: (t: Setup) => void): Setup {
  const t = setup();
  mkdirSync(t.cacheDir, { recursive: true, mode: 0o700 });
  forge(t, t.cacheFile);
  chmodSync(t.cacheFile, 0o600);
  spoil(t);
  return t;
}

describe('a forged code cache', () => {
  it.skipIf(process.platform === 'win32')('should run when it is private to the user (what makes the checks necessary)', () => {
    const t = planted(() => undefined);
    runHook(t); // V8 runs the forged bytecode, which then crashes the process: either way it ran
    expect(existsSync(t.marker)).toBe(true);
  });

  it('should not be read from the state folder', () => {
    const t = setup();
    const s = statSync(BUNDLE);
    const old = join(t.stateDir, '.cache', `hook-${process.version}-${process.arch}-${s.size}-${Math.trunc(s.mtimeMs)}.v8`);
    mkdirSync(join(t.stateDir, '.cache'), { mode: 0o700 });
    forge(t, old);
    expect(runHook(t)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(t.marker)).toBe(false);
  });

  it.skipIf(!ROOT).each([
    ['owned by another user', (t: Setup) => chownSync(t.cacheFile, NOBODY, NOBODY), /the code cache .*hook-.*\.v8: it is owned by uid 65534, not by this user \(uid 0\); it is not used/],
    ['writable by others', (t: Setup) => chmodSync(t.cacheFile, 0o666), /the code cache .*: others than its owner can write to it \(mode 0666\); it is not used/],
    ['writable by its group', (t: Setup) => chmodSync(t.cacheFile, 0o620), /the code cache .*: others than its owner can write to it \(mode 0620\); it is not used/],
  ])('should not be run when %s, and be replaced by the hook\'s own', (_name, spoil, why) => {
    const t = planted(spoil);
    const r = runHook(t);
    expect(existsSync(t.marker)).toBe(false);
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(why);
    const own = statSync(t.cacheFile);
    expect([own.uid, own.mode & 0o777]).toEqual([0, 0o600]);
    expect(runHook(t)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.skipIf(process.platform === 'win32')('should not be run through a symbolic link', () => {
    const t = setup();
    mkdirSync(t.cacheDir, { recursive: true, mode: 0o700 });
    const elsewhere = join(t.root, 'elsewhere.v8');
    forge(t, elsewhere);
    chmodSync(elsewhere, 0o600);
    symlinkSync(elsewhere, t.cacheFile);
    const r = runHook(t);
    expect(existsSync(t.marker)).toBe(false);
    expect(r.stderr).toMatch(/the code cache .*: it is a symbolic link; it is not used/);
  });

  it.skipIf(process.platform === 'win32')('should not be run from a folder others can write to, which the hook then makes private', () => {
    const t = planted((s) => chmodSync(s.cacheDir, 0o777));
    const r = runHook(t);
    expect(existsSync(t.marker)).toBe(false);
    expect(r.stderr).toMatch(/the code cache folder .*hook-code is not used: others than its owner can write to it \(mode 0777\)/);
    expect(statSync(t.cacheDir).mode & 0o777).toBe(0o700);
    expect(runHook(t)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.skipIf(!ROOT)('should not be run from a folder of another user, nor written there', () => {
    const t = planted((s) => {
      chownSync(s.cacheFile, NOBODY, NOBODY);
      chownSync(s.cacheDir, NOBODY, NOBODY);
    });
    const r = runHook(t);
    expect(existsSync(t.marker)).toBe(false);
    expect(r.stderr).toMatch(/the code cache folder .* is not used: it is owned by uid 65534, not by this user \(uid 0\)/);
    expect(statSync(t.cacheFile).uid).toBe(NOBODY);
    expect(readdirSync(t.cacheDir)).toHaveLength(1);
  });
});

describe('the hook\'s own code cache', () => {
  it.skipIf(process.platform === 'win32')('should be written private (0600 in a 0700 folder) outside the state folder, and used as it is', () => {
    const t = setup();
    expect(runHook(t)).toEqual({ code: 0, stdout: '', stderr: '' });
    const first = statSync(t.cacheFile);
    expect(first.mode & 0o777).toBe(0o600);
    expect(statSync(t.cacheDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(t.stateDir).filter((n) => n === '.cache')).toEqual([]);
    expect(runHook(t)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(statSync(t.cacheFile).mtimeMs).toBe(first.mtimeMs); // accepted by V8: not written again
  });
});
