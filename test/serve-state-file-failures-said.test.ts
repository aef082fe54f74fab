/**
 * serve's state folder, when a file in it cannot be read or set aside, said in words a person acts on
 * (text/file-failure.ts), through the real CLI as a user permissions apply to (helpers/unprivileged.ts).
 * Before, a state file the user could not read stopped the start as `cannot listen on 127.0.0.1:0 (EACCES)`
 * (the port blamed for the folder), as did one that could not be set aside (the folder made read-only).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { canDropPrivileges, unprivileged, unprivilegedFolder } from './helpers/unprivileged.js';

/** A home of the unprivileged user whose state folder `st` holds one session file, after `then` (a shell command run in `st`). */
function home(then: string): { home: string; state: string } {
  const dir = unprivilegedFolder('serve-state-failures');
  const state = join(dir, 'st');
  const [cmd, ...args] = unprivileged(['/bin/sh', '-c', `mkdir -m 700 st && printf junk > st/feedbeef.lwsession && chmod 600 st/feedbeef.lwsession && cd st && ${then}`]);
  expect(spawnSync(cmd as string, args, { cwd: dir, encoding: 'utf8' }).status).toBe(0);
  return { home: dir, state };
}

describe.skipIf(!canDropPrivileges)('serve state files that cannot be read or set aside, said in words', () => {
  it('should say a state file the user cannot read in words, set it aside and serve', async () => {
    const { home: dir, state } = home('chmod 000 feedbeef.lwsession');
    const [cmd, ...args] = unprivileged([process.execPath, CLI, 'serve', '--port', '0', '--state-dir', state]);
    const child = spawn(cmd as string, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    let stderr = '';
    let stopped = false; // once: a second signal ends serve at once
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!stopped && stderr.includes('listening on')) stopped = child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toContain(`loopwatch serve: ${join(state, 'feedbeef.lwsession.bad')}: not restored: not read: permission denied\n`);
    expect(stderr).toContain('0 sessions restored');
    expect(stderr).not.toMatch(/EACCES|cannot listen/);
    expect(code).toBe(0);
    expect(existsSync(join(state, 'feedbeef.lwsession.bad'))).toBe(true);
  }, 60_000);

  it('should say a state folder where a file cannot be set aside, in words with the ways out, not the port', () => {
    const { home: dir, state } = home('chmod 500 .');
    const [cmd, ...args] = unprivileged([process.execPath, CLI, 'serve', '--port', '0', '--state-dir', state]);
    const r = spawnSync(cmd as string, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `loopwatch serve: the state folder ${state} cannot be used (cannot rename ${join(state, 'feedbeef.lwsession')}: permission denied); make the folder writable by you (ls -ld shows whose it is; chmod u+w when it is yours), or give another (--state-dir DIR), or --no-state (see loopwatch serve --help)\n`,
    );
    expect(existsSync(join(state, 'feedbeef.lwsession'))).toBe(true);
  });
});
