/**
 * Installing loopwatch as a new user can today (it is not on the npm registry): from a clone, built, then
 * `npm install -g` of the packed tarball, laid out here as npm lays out a global install
 * (`<prefix>/lib/node_modules/loopwatch`, `<prefix>/bin/loopwatch` a link to its CLI). `hook install` run
 * through that link writes the absolute command it was installed from, which runs with no PATH at all;
 * run from npx's cache or from a checkout, it says what to do instead of pointing at the registry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedTarball } from './helpers/packed-tarball.js';
import { startPrefix } from '../src/hooks/start-environment.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'loopwatch-global-'));
const prefix = join(root, 'prefix');
const pkg = join(prefix, 'lib', 'node_modules', 'loopwatch');
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  // the tarball `npm pack` makes of the built clone (once per run: helpers/packed-tarball.ts), unpacked
  // where `npm install -g --prefix` puts it
  execFileSync('tar', ['-xzf', packedTarball().path, '-C', root]);
  mkdirSync(dirname(pkg), { recursive: true });
  renameSync(join(root, 'package'), pkg);
  const deps = Object.keys((JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  for (const d of deps) {
    mkdirSync(dirname(join(pkg, 'node_modules', d)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', d), join(pkg, 'node_modules', d));
  }
  mkdirSync(join(prefix, 'bin'));
  symlinkSync('../lib/node_modules/loopwatch/dist/src/bin/loopwatch.js', join(prefix, 'bin', 'loopwatch'));
}, 120_000);

/** `hook install --agent claude-code` run as `cli`, in a fresh home; the installed command and the output. */
function install(cli: string, name: string): { command: string; stdout: string; home: string } {
  const home = join(root, name);
  mkdirSync(home);
  const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--agent', 'claude-code'], { cwd: home, env: { HOME: home }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
  return { command: settings.hooks.PreToolUse[0]?.hooks[0]?.command as string, stdout: r.stdout, home };
}

describe('hook install from a global install of the packed clone', () => {
  it('should write the absolute node and hook script it was installed from, which run without PATH', () => {
    const { command, stdout, home } = install(join(prefix, 'bin', 'loopwatch'), 'home-global');
    expect(command).toBe(`${startPrefix().join(' ')} ${process.execPath} ${join(realpathSync(pkg), 'dist', 'hook', 'hook-main.cjs')} --agent claude-code`);
    expect(stdout).not.toContain('note       this loopwatch runs from');
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', cwd: home });
    const run = spawnSync('/bin/sh', ['-c', command], { input: payload, env: { HOME: home }, encoding: 'utf8' });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
    expect(readdirSync(join(home, '.local', 'state', 'loopwatch', 'hooks')).some((n) => n.endsWith('.lwhook'))).toBe(true);
  });

  it('should point at the clone-based install, not the registry, when run from npx\'s cache', () => {
    const npx = join(root, 'npm-cache', '_npx', '0a1b2c', 'node_modules', 'loopwatch');
    mkdirSync(dirname(npx), { recursive: true });
    cpSync(pkg, npx, { recursive: true });
    const { stdout } = install(join(npx, 'dist', 'src', 'bin', 'loopwatch.js'), 'home-npx');
    expect(stdout).toContain("note       this loopwatch runs from npx's cache, which npm may clear: install a lasting copy (from a clone of loopwatch: npm ci && npm run build && npm install -g .");
    expect(stdout).not.toMatch(/npm i(nstall)? -g loopwatch/);
  });

  it('should say that a checkout runs on every call from where it is', () => {
    const { stdout, command } = install(join(repo, 'dist', 'src', 'bin', 'loopwatch.js'), 'home-checkout');
    expect(command).toContain(join(realpathSync(repo), 'dist', 'hook', 'hook-main.cjs'));
    expect(stdout).toContain(`note       this loopwatch runs from ${realpathSync(repo).replace(/\/$/, '')}, a checkout (npm install -g . links one)`);
  });
});
