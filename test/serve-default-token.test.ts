/**
 * `loopwatch serve` without `--token-file` listened on 127.0.0.1 with no token: any local user could post
 * calls into the user's sessions (making their hook block or allow), read verdicts and snapshots, and fill
 * its memory. Now it makes a token itself, once, in the user's state folder (0600 whatever the umask,
 * the folder 0700), prints the path, and refuses a request without it (401); curl sends it with
 * `-H @serve.curl-header`, as the docs write. A link planted at the token's name is not written through.
 * `--no-token` serves as before, on loopback only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { post, request } from './helpers/http.js';
import { type ServeProcess, startServe } from './helpers/serve-process.js';
import { tempFolder } from './helpers/temp-folder.js';
import { serveTokenFile } from '../src/serve/serve-token-file.js';

const POSIX = typeof process.getuid === 'function';
const call = { session: 'neighbour', id: 'c1', tool: 'bash', args: { command: 'pytest -q' } };

/** Starts the server with XDG_STATE_HOME at `home` and the umask 000 (a umask that would leave files open). */
function startOpenUmask(home: string, args: readonly string[] = []): Promise<ServeProcess> {
  const env = { ...process.env, XDG_STATE_HOME: home };
  // sh sets the umask, then runs the CLI as startServe does
  const child = spawn('sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, CLI, 'serve', '--port', '0', '--no-state', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
      const m = /listening on (http:\/\/\S+?)[;\s]/.exec(err);
      if (m !== null) resolve({ child, url: m[1] as string, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`loopwatch serve exited with ${code} before listening: ${err}`)));
  });
}

async function stop(s: ServeProcess): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
}

describe('serve without --token-file', () => {
  it.skipIf(!POSIX)('should make a token in a 0600 file of a 0700 folder, print its path, and refuse a request without it (401)', async () => {
    const home = tempFolder('serve-default-token');
    const s = await startOpenUmask(home);
    try {
      const file = join(home, 'loopwatch', 'serve.token');
      const header = join(home, 'loopwatch', 'serve.curl-header');
      expect(s.stderr()).toContain(`bearer token made in ${file} (0600); clients send it: curl -H @${header} ...`);
      expect(s.stderr()).toContain('(bearer token required)');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(header).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'loopwatch')).mode & 0o777).toBe(0o700);
      const token = readFileSync(file, 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(readFileSync(header, 'utf8')).toBe(`Authorization: Bearer ${token}\n`);
      expect(s.stderr()).not.toContain(token);

      // a neighbour: no token, a wrong one
      const refused = await post(`${s.url}/v1/check`, call);
      expect(refused.status).toBe(401);
      // the refusal says where the token is and how curl sends it (before: only that a header was required)
      expect(refused.body.error.message).toContain('serve.token in $XDG_STATE_HOME/loopwatch or ~/.local/state/loopwatch');
      expect(refused.body.error.message).toContain('-H @serve.curl-header');
      const hook = await post(`${s.url}/v1/hooks/claude-code`, { session_id: 'x', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
      expect(hook.status).toBe(401);
      expect(hook.headers.get('loopwatch-unchecked')).toContain('-H @serve.curl-header');
      expect((await request(`${s.url}/v1/sessions/neighbour/snapshot`, 'GET', undefined, { authorization: 'Bearer not-the-token-0123456789' })).status).toBe(401);
      expect((await request(`${s.url}/metrics`, 'GET')).status).toBe(401);
      expect((await request(`${s.url}/healthz`, 'GET')).status).toBe(200); // liveness stays open
      // the user: the token
      const ok = await post(`${s.url}/v1/check`, call, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ id: 'c1', verdict: null });
      // curl as the docs write it: the header from the file, the token on no command line
      const curl = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `@${header}`, '-H', 'content-type: application/json', '--data-binary', JSON.stringify(call), `${s.url}/v1/check`], { encoding: 'utf8' });
      expect(curl.stdout).toBe('200');
    } finally {
      await stop(s);
    }
    // a second start keeps the token: a hook command written once keeps working
    const before = readFileSync(join(home, 'loopwatch', 'serve.token'), 'utf8');
    const again = await startServe(['--port', '0', '--no-state'], CLI, { ...process.env, XDG_STATE_HOME: home });
    try {
      expect(again.stderr()).toContain(`bearer token read from ${join(home, 'loopwatch', 'serve.token')}`);
      expect(readFileSync(join(home, 'loopwatch', 'serve.token'), 'utf8')).toBe(before);
      expect((await post(`${again.url}/v1/check`, call, { authorization: `Bearer ${before.trim()}` })).status).toBe(200);
    } finally {
      await stop(again);
    }
  }, 60_000);

  it.skipIf(!POSIX)('should not write through a link planted at the token file, nor use a token file others can read', () => {
    const home = tempFolder('serve-token-planted');
    mkdirSync(join(home, 'loopwatch'), { mode: 0o700 });
    const victim = join(home, 'bashrc');
    writeFileSync(victim, 'export PATH=/usr/bin\n');
    symlinkSync(victim, join(home, 'loopwatch', 'serve.token'));
    const planted = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--no-state'], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: home }, timeout: 30_000 });
    expect(planted.status).toBe(2);
    expect(planted.stderr).toContain(`cannot use the server's token file (${join(home, 'loopwatch', 'serve.token')}: it is a symbolic link)`);
    expect(planted.stderr).toContain('--no-token');
    expect(readFileSync(victim, 'utf8')).toBe('export PATH=/usr/bin\n');

    const open = tempFolder('serve-token-open');
    mkdirSync(join(open, 'loopwatch'), { mode: 0o700 });
    writeFileSync(join(open, 'loopwatch', 'serve.token'), 'a-token-of-enough-characters-0123\n');
    chmodSync(join(open, 'loopwatch', 'serve.token'), 0o644);
    expect(() => serveTokenFile(join(open, 'loopwatch', 'serve.token'))).toThrow(/others than its owner can read it \(mode 0644\)/);

    const shared = tempFolder('serve-token-shared');
    chmodSync(shared, 0o777);
    expect(() => serveTokenFile(join(shared, 'serve.token'))).toThrow(/others than its owner can write to it \(mode 0777\)/);
    expect(existsSync(join(shared, 'serve.token'))).toBe(false);
  }, 60_000);

  it.skipIf(!POSIX)('should refuse a token folder whose parent others can write in without the sticky bit, or another user owns (hostile13)', () => {
    // such a parent's writers could rename the user's 0700 folder away between its check and the token's
    // write, and put their own there: the folder alone was checked
    const open = tempFolder('serve-token-parent');
    const state = join(open, 'state');
    mkdirSync(state, { mode: 0o700 });
    chmodSync(open, 0o777);
    expect(() => serveTokenFile(join(state, 'loopwatch', 'serve.token'))).toThrow(`its parent folder ${open} (mode 0777, not sticky)`);
    expect(existsSync(join(state, 'loopwatch', 'serve.token'))).toBe(false);
    chmodSync(open, 0o1777); // as /tmp: others cannot rename what is not theirs
    expect(serveTokenFile(join(state, 'loopwatch', 'serve.token')).made).toBe(true);
    if (process.getuid?.() === 0) {
      chmodSync(open, 0o755);
      chownSync(open, 54321, 54321);
      expect(() => serveTokenFile(join(state, 'loopwatch', 'serve.token'))).toThrow(`its parent folder ${open} is owned by uid 54321`);
    }
  });

  it('should serve without a token with --no-token (loopback only), as before', async () => {
    const home = tempFolder('serve-no-token');
    const s = await startServe(['--port', '0', '--no-state', '--no-token'], CLI, { ...process.env, XDG_STATE_HOME: home });
    try {
      expect((await post(`${s.url}/v1/check`, call)).status).toBe(200);
      expect(existsSync(join(home, 'loopwatch', 'serve.token'))).toBe(false);
    } finally {
      await stop(s);
    }
    const both = await loopwatchInProcess(['serve', '--no-token', '--token-file', '/nonexistent']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--token-file and --no-token cannot be used together');
  }, 60_000);
});
